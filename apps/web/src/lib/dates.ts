import dayjs from 'dayjs';

/** `2026-11-22` for the date in the browser's time zone. */
export function todayIso(): string {
  return dayjs().format('YYYY-MM-DD');
}

export function isoDaysAgo(days: number): string {
  return dayjs().subtract(days, 'day').format('YYYY-MM-DD');
}

/** `22 Nov 2026` */
export function formatDay(value: string | null | undefined): string {
  return value ? dayjs(value).format('DD MMM YYYY') : '-';
}

/** `22 Nov 2026, 14:05` */
export function formatDayTime(value: string | null | undefined): string {
  return value ? dayjs(value).format('DD MMM YYYY, HH:mm') : '-';
}

/** `14:05:09` */
export function formatClock(value: string | null | undefined): string {
  return value ? dayjs(value).format('HH:mm:ss') : '-';
}
