import { z } from 'zod';

/** The time a centre's marking reminders go when nobody has chosen one (the centre's time zone). */
export const MARKING_REMINDER_TIME_DEFAULT = '10:00';

const TIME_HINT = 'must be a time of day as HH:MM on the 24-hour clock, e.g. 10:00';

/** GET /settings/reminders: whether teachers are reminded of classes left unmarked, and when. */
export const markingReminderSettingsSchema = z
  .object({
    marking_reminders: z.boolean().describe('teachers are reminded of their classes with no attendance marked'),
    reminder_time: z.string().describe("when, each day, in the centre's time zone (HH:MM, 24-hour)"),
  })
  .meta({ id: 'MarkingReminderSettings' });
export type MarkingReminderSettings = z.infer<typeof markingReminderSettingsSchema>;

/** PUT /settings/reminders: either field, or both; what is left out stays as it is. */
export const updateMarkingReminderSettingsSchema = z.object({
  marking_reminders: z.boolean({ error: 'must be true or false' }).optional(),
  reminder_time: z
    .string({ error: TIME_HINT })
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, TIME_HINT)
    .optional(),
});
export type UpdateMarkingReminderSettings = z.infer<typeof updateMarkingReminderSettingsSchema>;

export const CLASS_DAY_STATES = ['not_marked', 'marked', 'approved'] as const;
export type ClassDayState = (typeof CLASS_DAY_STATES)[number];

/** GET /dashboard/my-classes: the caller's assigned classes and where each stands today. */
export const myClassesSchema = z
  .object({
    date: z.string().describe("today in the centre's time zone (yyyy-MM-dd)"),
    classes: z
      .array(
        z.object({
          class_name: z.string(),
          students: z.number().int().describe('students in the class now'),
          marked: z.number().int().describe('attendance records for today'),
          pending: z.number().int().describe('of those, waiting for approval'),
          state: z
            .enum(CLASS_DAY_STATES)
            .describe('not_marked: no record today; marked: some waiting for approval; approved: all approved'),
          register_url: z.string().describe("the console's Mark Attendance page for this class and day"),
        }),
      )
      .describe("the classes on the caller's teacher record, in class order (none for an account without one)"),
    reminders: z
      .array(
        z.object({
          class_name: z.string(),
          date: z.string(),
          text: z.string().describe('what the reminder says, as the push said it'),
          reminded_at: z.string().describe('when the reminder went (ISO 8601)'),
          register_url: z.string(),
        }),
      )
      .describe("today's reminders for classes still not marked"),
  })
  .meta({ id: 'MyClasses' });
export type MyClasses = z.infer<typeof myClassesSchema>;
export type MyClass = MyClasses['classes'][number];
export type MarkingReminder = MyClasses['reminders'][number];

/**
 * What the console's service worker receives in a staff push (encrypted end to end): what to show, and
 * the console page a tap opens. `tag` names the class and day, so a second push for them replaces the first.
 */
export const staffPushPayloadSchema = z.object({
  kind: z.literal('marking_reminder'),
  title: z.string(),
  body: z.string(),
  url: z.string(),
  tag: z.string(),
});
export type StaffPushPayload = z.infer<typeof staffPushPayloadSchema>;

/** The console's Mark Attendance page for a class and day: one tap from a reminder or the classes card. */
export function registerUrl(className: string, date: string): string {
  return `/mark-attendance?${new URLSearchParams({ class_name: className, date }).toString()}`;
}

/**
 * A reminder's words, the same on the phone's notification and the dashboard's card: the class as the
 * centre labels it ("Class 7", "Morning batch": ADR 043), never "Class " put before its value.
 */
export function reminderText(classLabel: string): string {
  return `${classLabel} has no attendance marked today`;
}
