import { readableDate } from '../../lib/time';

/**
 * Rows written before activity texts used readable dates and "Class 9" still say "of class 9 on
 * 2026-11-23". They are read as today's producers would write them; the rows themselves stay as
 * stored (the feed is a record). Only the tails these actions' producers wrote are rewritten, matched
 * at the end of the text, so a name or subject that happens to hold a date or "class" is left alone.
 */
const ISO_DAY = '(\\d{4}-\\d{2}-\\d{2})';
const QUEUED = " \\(sent from a device's queue\\)";

const REWRITES: Record<string, readonly [RegExp, (...groups: string[]) => string][]> = {
  'attendance.marked': [
    [
      new RegExp(` of class ([0-9A-Za-z, ]+) on ${ISO_DAY}((?:${QUEUED})?)$`),
      (classes, day, queued) => {
        const names = classes.split(', ');
        return ` of ${names.length === 1 ? 'Class' : 'Classes'} ${classes} on ${readableDate(day)}${queued}`;
      },
    ],
  ],
  'teacher_attendance.marked': [[new RegExp(` on ${ISO_DAY}$`), (day) => ` on ${readableDate(day)}`]],
  'teacher_attendance.locked': [
    [new RegExp(` for ${ISO_DAY}( \\(\\d+ teachers? marked\\))$`), (day, tail) => ` for ${readableDate(day)}${tail}`],
  ],
  'teacher_attendance.remarks_updated': [[new RegExp(` for ${ISO_DAY}$`), (day) => ` for ${readableDate(day)}`]],
};

/** The activity's text as the feed shows it: stored rows of the older form read as new ones do. */
export function readableActivityText(action: string, description: string): string {
  let text = description;
  for (const [pattern, rewrite] of REWRITES[action] ?? []) {
    text = text.replace(pattern, (_match, ...groups: string[]) => rewrite(...groups));
  }
  return text;
}
