/**
 * Dates are the centre's calendar days (yyyy-MM-dd in the centre's time zone); timestamps are ISO 8601
 * with that zone's offset. The zone is the centre's setting (modules/centre, ADR 042), handed in with
 * `setCentreTimeZone` at start-up and on every change; until then, the process's own (`TZ`). SQL never
 * reads the session time zone for a day: the day is computed here and passed in as a parameter (the
 * database sessions follow the same zone only so that the timestamps they print carry its offset).
 */

const pad = (value: number, width = 2) => String(Math.abs(value)).padStart(width, '0');

/** The zone of this process (`TZ`, else the machine's); UTC when it has none Intl knows (`TZ=` gives `Etc/Unknown`). */
export function processTimeZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isTimeZone(zone) ? zone : 'UTC';
}

/** An IANA zone name this runtime knows (`Asia/Kolkata`, `UTC`); offsets and POSIX strings are not. */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/.test(zone) || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

let centreZone = processTimeZone();
let partsFormat = zoneFormat(centreZone);
/** Offsets by quarter hour of UTC (every zone changes its offset on a quarter hour): the cache behind `formatTimestamp`. */
let offsets = new Map<number, number>();
const QUARTER_HOUR = 15 * 60_000;

function zoneFormat(zone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
}

/** The centre's zone, as every date function here reads it. */
export function centreTimeZone(): string {
  return centreZone;
}

/** Makes `zone` the centre's from now on (the centre module calls it at start-up and on a change). */
export function setCentreTimeZone(zone: string): void {
  if (zone === centreZone) return;
  if (!isTimeZone(zone)) throw new RangeError(`Not a time zone: ${zone}`);
  centreZone = zone;
  partsFormat = zoneFormat(zone);
  offsets = new Map();
}

/** Minutes the centre's clock is ahead of UTC at `instant` (330 in India). */
export function centreOffsetMinutes(instant: number): number {
  const quarter = Math.floor(instant / QUARTER_HOUR);
  const known = offsets.get(quarter);
  if (known !== undefined) return known;
  const at = quarter * QUARTER_HOUR;
  const part = Object.fromEntries(partsFormat.formatToParts(at).map((p) => [p.type, p.value]));
  const wall = Date.UTC(
    Number(part.year),
    Number(part.month) - 1,
    Number(part.day),
    Number(part.hour),
    Number(part.minute),
    Number(part.second),
  );
  const offset = Math.round((wall - Math.floor(at / 1000) * 1000) / 60_000);
  if (offsets.size > 10_000) offsets.clear();
  offsets.set(quarter, offset);
  return offset;
}

/** `date` as the centre's clock shows it, in a Date read with its UTC getters. */
function onCentreClock(date: Date): Date {
  return new Date(date.getTime() + centreOffsetMinutes(date.getTime()) * 60_000);
}

export function formatDate(date: Date): string {
  const local = onCentreClock(date);
  return `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
}

export function formatTimestamp(date: Date): string {
  const offset = centreOffsetMinutes(date.getTime());
  const local = new Date(date.getTime() + offset * 60_000);
  const sign = offset >= 0 ? '+' : '-';
  return (
    `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `.${pad(local.getUTCMilliseconds(), 3)}${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`
  );
}

/** The time of day on the centre's clock, `HH:mm` (a reminder set for 10:00 is due from then). */
export function clockTime(date: Date): string {
  const local = onCentreClock(date);
  return `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}`;
}

/** The instant the centre's clock reads `time` (HH:mm[:ss], default midnight) on the yyyy-MM-dd day `isoDate`. */
export function centreInstant(isoDate: string, time = '00:00'): Date {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  const [h = 0, min = 0, s = 0] = time.split(':').map(Number);
  const wall = Date.UTC(y, m - 1, d, h, min, s);
  // The offset at the wall time read as UTC, then again at the instant found: right across a change.
  let instant = wall - centreOffsetMinutes(wall) * 60_000;
  instant = wall - centreOffsetMinutes(instant) * 60_000;
  return new Date(instant);
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
