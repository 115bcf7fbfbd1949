/**
 * Dates are the centre's calendar days (yyyy-MM-dd in the process time zone, `TZ`); timestamps are
 * ISO 8601 with that zone's offset. SQL never reads the session time zone: the day is computed here
 * and passed in as a parameter.
 */

const pad = (value: number, width = 2) => String(Math.abs(value)).padStart(width, '0');

export function formatDate(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function formatTimestamp(date: Date): string {
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  return (
    `${formatDate(date)}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}` +
    `.${pad(date.getMilliseconds(), 3)}${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`
  );
}

export function today(now: Date = new Date()): string {
  return formatDate(now);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A yyyy-MM-dd day as people read it in a message: "23 Nov 2026". */
export function readableDate(isoDate: string): string {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  return `${d} ${MONTHS[m - 1]} ${y}`;
}

/**
 * A yyyy-MM-dd day as a family reads it in its language: English exactly as `readableDate`
 * ("23 Nov 2026"); any other language with Intl, day, full month name and year in that language's
 * order, always in Western digits ("23 नवंबर 2026", "23 نومبر، 2026"; the glossary says why).
 */
export function readableDateIn(isoDate: string, language: string): string {
  if (language === 'en') return readableDate(isoDate);
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  return new Intl.DateTimeFormat(`${language}-IN-u-nu-latn`, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(y, m - 1, d)));
}

/** Adds whole days to a yyyy-MM-dd date, in calendar terms (no time-zone drift). */
export function addDays(isoDate: string, days: number): string {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d + days));
  return date.toISOString().slice(0, 10);
}

export function firstDayOfMonth(isoDate: string): string {
  return `${isoDate.slice(0, 7)}-01`;
}

export function lastDayOfMonth(isoDate: string): string {
  const [y, m] = isoDate.split('-').map(Number) as [number, number];
  const date = new Date(Date.UTC(y, m, 0));
  return date.toISOString().slice(0, 10);
}

/** PostgreSQL prints timestamptz as `2026-11-22 21:30:00.123456+05:30`; JavaScript wants a T and hh:mm. */
export function parsePostgresTimestamp(text: string): Date {
  const match = /^(\d{4,}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d(?:\.\d+)?)(?:([+-]\d\d)(?::?(\d\d))?(?::?(\d\d))?|Z)?$/.exec(
    text,
  );
  if (!match) return new Date(text);
  const [, day, time, hours, minutes] = match;
  const zone = hours ? `${hours}:${minutes ?? '00'}` : 'Z';
  return new Date(`${day}T${time}${zone}`);
}

export function timeAgo(then: Date, now: Date = new Date()): string {
  const seconds = Math.max(0, Math.round((now.getTime() - then.getTime()) / 1000));
  if (seconds < 60) return 'just now';
  const units: [number, string][] = [
    [60 * 60 * 24 * 365, 'year'],
    [60 * 60 * 24 * 30, 'month'],
    [60 * 60 * 24 * 7, 'week'],
    [60 * 60 * 24, 'day'],
    [60 * 60, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    const count = Math.floor(seconds / size);
    if (count >= 1) return `${count} ${name}${count === 1 ? '' : 's'} ago`;
  }
  return 'just now';
}
