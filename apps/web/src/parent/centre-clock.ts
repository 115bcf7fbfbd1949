/**
 * The centre's clock in the parent app (ADR 042): "today" (the first day a leave request may ask for)
 * and every time shown are the centre's, in its time zone, whatever the phone's zone. The zone comes
 * with the centre's public answer (`GET /centre`, kept for offline use by `centre.ts`); until one is
 * known, the phone's own zone stands in.
 */
let centreZone: string | undefined;

/** The zone to read dates in: the centre's, once known; undefined means the phone's own. */
export function centreTimeZone(): string | undefined {
  return centreZone;
}

/**
 * Follows the centre's zone; none (an answer without one) is the phone's own again, and one this
 * browser does not know is ignored.
 */
export function setCentreTimeZone(zone: string | undefined): void {
  if (!zone) {
    centreZone = undefined;
    return;
  }
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    return;
  }
  centreZone = zone;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The centre's calendar day of an instant, as `yyyy-MM-dd`. */
export function centreDayOf(instant: Date): string {
  const key = centreZone ?? '';
  let format = dayFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: centreZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dayFormats.set(key, format);
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** Today on the centre's calendar. */
export function centreToday(now: Date = new Date()): string {
  return centreDayOf(now);
}
