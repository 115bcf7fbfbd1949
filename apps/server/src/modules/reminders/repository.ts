import { MARKING_REMINDER_TIME_DEFAULT, type MarkingReminderSettings } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';
import { defineSetting, settingGroup } from '../../db/settings';

const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * The reminder settings (migration 0017 stores the defaults): on unless turned off; a time edited by
 * hand into something else falls back to the default. A change holds the rows with `update` (in key
 * order, the order it writes them in), so two changes at once apply one after the other.
 */
export const REMINDER_SETTINGS = settingGroup<MarkingReminderSettings>({
  marking_reminders: defineSetting({ key: 'marking_reminders', fallback: true }),
  reminder_time: defineSetting({
    key: 'marking_reminder_time',
    fallback: MARKING_REMINDER_TIME_DEFAULT,
    accept: (text) => (TIME_OF_DAY.test(text.trim()) ? text.trim() : undefined),
  }),
});

export function readReminderSettings(db: Queryable, lock?: 'update'): Promise<MarkingReminderSettings> {
  return REMINDER_SETTINGS.read(db, lock);
}

export function writeReminderSettings(tx: Queryable, settings: MarkingReminderSettings): Promise<void> {
  return REMINDER_SETTINGS.write(tx, settings);
}

/**
 * The (teacher, class) pairs of the day `$1` still to remind: a teacher with an account, a class of
 * theirs with a current student, no marks for it that day, and no reminder made yet.
 */
const DUE = `FROM teachers t
      CROSS JOIN LATERAL unnest(t.classes_assigned) AS c (class_name)
      WHERE t.user_id IS NOT NULL
        AND EXISTS (SELECT 1 FROM students s WHERE s.class_name = c.class_name AND s.left_on IS NULL)
        AND NOT EXISTS (SELECT 1 FROM attendance_counts a WHERE a.class_name = c.class_name AND a.date = $1::date)
        AND NOT EXISTS (SELECT 1 FROM marking_reminders r
                         WHERE r.user_id = t.user_id AND r.class_name = c.class_name AND r.date = $1::date)`;

/** A reminder just claimed, with the devices it was queued for. */
export interface ClaimedReminder {
  id: number;
  user_id: number;
  class_name: string;
  pushes: number;
}

/**
 * Claims today's reminders in one statement: a row for each teacher and assigned class that has
 * students and no attendance record for `date`, unless one is already there (made here earlier, or
 * by another instance: the unique key makes the later insert do nothing, after waiting for the first
 * to commit), and an outbox row for each device of the teachers reminded. Answers what it claimed.
 */
export async function claimDueReminders(tx: Queryable, date: string): Promise<ClaimedReminder[]> {
  return tx.query<ClaimedReminder>(
    `WITH due AS (
       SELECT DISTINCT t.user_id, c.class_name
         ${DUE}
     ), claimed AS (
       INSERT INTO marking_reminders (user_id, class_name, date)
       SELECT user_id, class_name, $1::date FROM due ORDER BY user_id, class_name
       ON CONFLICT (user_id, class_name, date) DO NOTHING
       RETURNING id, user_id, class_name
     ), queued AS (
       INSERT INTO staff_push_outbox (reminder_id, subscription_id)
       SELECT c.id, s.id FROM claimed c JOIN staff_push_subscriptions s ON s.user_id = c.user_id
        ORDER BY c.id, s.id
       RETURNING reminder_id
     )
     SELECT c.id, c.user_id, c.class_name,
            (SELECT count(*)::int FROM queued q WHERE q.reminder_id = c.id) AS pushes
       FROM claimed c
      ORDER BY c.id`,
    [date],
  );
}

/** Are any of the day's reminders left to claim? One cheap look before the claiming statement. */
export async function hasDueReminders(db: Queryable, date: string): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1
      ${DUE}
      LIMIT 1`,
    [date],
  );
  return rows.length > 0;
}

/** Reminders of days before `date`: their cards are gone, and their pushes with them. */
export async function deleteRemindersBefore(db: Queryable, date: string): Promise<void> {
  await db.query('DELETE FROM marking_reminders WHERE date < $1::date', [date]);
}
