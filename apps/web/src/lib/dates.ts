import dayjs from 'dayjs';
import { currentLanguage } from '../i18n/current';

/**
 * The centre's time zone (ADR 042): "today" and every time shown are on the centre's clock, wherever the
 * browser is. The console sets it from the centre's settings (`GET /settings/centre`) once signed in,
 * and keeps it for the next start; until then, the last one known, else the browser's own.
 */
const ZONE_KEY = 'centreTimeZone';
let centreZone: string | undefined = readKeptZone();

function readKeptZone(): string | undefined {
  try {
    return globalThis.localStorage?.getItem(ZONE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function centreTimeZone(): string {
  return centreZone ?? browserTimeZone();
}

export function setCentreTimeZone(zone: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    return;
  }
  centreZone = zone;
  try {
    globalThis.localStorage?.setItem(ZONE_KEY, zone);
  } catch {
    // A browser that keeps nothing asks again next time.
  }
}

/** The fields of `instant` on the centre's clock. */
function centreParts(instant: Date): Record<string, string> {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: centreTimeZone(),
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(instant);
  return Object.fromEntries(parts.map((part) => [part.type, part.value]));
}

/** `2026-11-22` for the date on the centre's clock at `instant`. */
export function centreDayOf(instant: Date): string {
  const part = centreParts(instant);
  return `${part.year}-${part.month}-${part.day}`;
}

/** `2026-11-22` for the date on the centre's clock now (takes nothing: safe as a state initialiser or updater). */
export function todayIso(): string {
  return centreDayOf(new Date());
}

export function isoDaysAgo(days: number): string {
  return dayjs(todayIso()).subtract(days, 'day').format('YYYY-MM-DD');
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
  // A day alone is a calendar day, whatever the zone; a time is shown on the centre's clock.
  const timeZone = isDayOnly(value) ? undefined : centreTimeZone();
  return new Intl.DateTimeFormat(locale(), { ...options, ...(timeZone ? { timeZone } : {}) }).format(
    dayjs(value).toDate(),
  );
}

const isDayOnly = (value: string) => /^\d{4}-\d\d-\d\d$/.test(value);

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** An instant's date and time on the centre's clock, in the console's English forms. */
function english(value: string, withSeconds: boolean, withDay: boolean): string {
  const part = centreParts(dayjs(value).toDate());
  const clock = `${part.hour}:${part.minute}${withSeconds ? `:${part.second}` : ''}`;
  return withDay ? `${part.day} ${MONTHS[Number(part.month) - 1]} ${part.year}, ${clock}` : clock;
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
    ? english(value, false, true)
    : intl(value, { ...DAY, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
}

/** `14:05:09` */
export function formatClock(value: string | null | undefined): string {
  if (!value) return '-';
  return currentLanguage() === 'en' ? english(value, true, false) : intl(value, CLOCK);
}

/** A count or figure: as it is in English (`1234`); with the language's grouping otherwise (`1,234`). */
export function formatNumber(value: number): string {
  return currentLanguage() === 'en' ? String(value) : new Intl.NumberFormat(locale()).format(value);
}
