import dayjs from 'dayjs';
import { currentLanguage } from '../i18n/current';

/** `2026-11-22` for the date in the browser's time zone. */
export function todayIso(): string {
  return dayjs().format('YYYY-MM-DD');
}

export function isoDaysAgo(days: number): string {
  return dayjs().subtract(days, 'day').format('YYYY-MM-DD');
}

/**
 * Intl's locale for the language in use, always with Western digits (the glossary's rule: class
 * numbers, times and phones are written 0-9 in every language, and dates must not mix two kinds).
 */
function locale(): string {
  return `${currentLanguage()}-u-nu-latn`;
}

/**
 * In English the console's own forms below (the spec's); in another language its own words and order
 * (Intl) with the month's full name, which reads more easily than its abbreviation: `22 नवंबर 2026`.
 * Times stay on the 24-hour clock in every language.
 */
function intl(value: string, options: Intl.DateTimeFormatOptions): string {
  return new Intl.DateTimeFormat(locale(), options).format(dayjs(value).toDate());
}

const DAY: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'long', year: 'numeric' };
const CLOCK: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' };

/** `22 Nov 2026` */
export function formatDay(value: string | null | undefined): string {
  if (!value) return '-';
  return currentLanguage() === 'en' ? dayjs(value).format('DD MMM YYYY') : intl(value, DAY);
}

/** `22 Nov 2026, 14:05` */
export function formatDayTime(value: string | null | undefined): string {
  if (!value) return '-';
  return currentLanguage() === 'en'
    ? dayjs(value).format('DD MMM YYYY, HH:mm')
    : intl(value, { ...DAY, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
}

/** `14:05:09` */
export function formatClock(value: string | null | undefined): string {
  if (!value) return '-';
  return currentLanguage() === 'en' ? dayjs(value).format('HH:mm:ss') : intl(value, CLOCK);
}

/** A count or figure: as it is in English (`1234`); with the language's grouping otherwise (`1,234`). */
export function formatNumber(value: number): string {
  return currentLanguage() === 'en' ? String(value) : new Intl.NumberFormat(locale()).format(value);
}
