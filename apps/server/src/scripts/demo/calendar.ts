/**
 * The demo's time: every timestamp is on a centre calendar day (the centre's time zone) and never
 * in the future, and the school days are the calendar days back from today without Sundays.
 */
import { addDays, centreInstant, formatDate } from '../../lib/time';

export class Clock {
  readonly today: string;
  constructor(readonly now: Date) {
    this.today = formatDate(now);
  }

  /** The instant `hh:mm` on `date`. Today's afternoon is squeezed into the hours already past. */
  at(date: string, hours: number, minutes: number, seconds = 0): string {
    const wall = (time: string) => centreInstant(date, time).getTime();
    let instant = wall(`${timeOfDay(hours, minutes)}:${String(seconds).padStart(2, '0')}`);
    if (date === this.today) {
      const midnight = wall('00:00');
      const endOfDay = wall('22:00');
      const latest = this.now.getTime() - 60_000;
      if (latest < endOfDay)
        instant = midnight + ((instant - midnight) * Math.max(0, latest - midnight)) / (endOfDay - midnight);
    }
    return new Date(Math.min(instant, this.now.getTime() - 60_000)).toISOString();
  }

  /** The date `days` calendar days before today. */
  daysAgo(days: number): string {
    return addDays(this.today, -days);
  }
}

export function isSunday(date: string): boolean {
  return new Date(`${date}T00:00:00Z`).getUTCDay() === 0;
}

/** `hh:mm`, as a check-in time is written. */
export function timeOfDay(hours: number, minutes: number): string {
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

/** The school days among the last `calendarDays` calendar days, today included, oldest first. */
export function schoolDays(clock: Clock, calendarDays: number): string[] {
  const days: string[] = [];
  for (let back = calendarDays - 1; back >= 0; back -= 1) {
    const date = clock.daysAgo(back);
    if (!isSunday(date)) days.push(date);
  }
  return days;
}
