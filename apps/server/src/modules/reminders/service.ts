import type { MarkingReminderSettings, UpdateMarkingReminderSettings } from '@tuitiondesk/contract';
import { activityWords } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import type { Database } from '../../db/database';
import { type Actor, recordActivity } from '../../lib/activity-log';
import { addDays, clockTime, formatDate } from '../../lib/time';
import {
  type ClaimedReminder,
  claimDueReminders,
  deleteRemindersBefore,
  hasDueReminders,
  readReminderSettings,
  writeReminderSettings,
} from './repository';

export async function getReminderSettings(ctx: AppContext): Promise<MarkingReminderSettings> {
  return readReminderSettings(ctx.db);
}

export async function updateReminderSettings(
  ctx: AppContext,
  actor: Actor,
  update: UpdateMarkingReminderSettings,
): Promise<MarkingReminderSettings> {
  const saved = await ctx.db.transaction(async (tx) => {
    const current = await readReminderSettings(tx, 'update');
    const next: MarkingReminderSettings = {
      marking_reminders: update.marking_reminders ?? current.marking_reminders,
      reminder_time: update.reminder_time ?? current.reminder_time,
    };
    await writeReminderSettings(tx, next);
    await recordActivity(
      tx,
      actor,
      'settings.updated',
      next.marking_reminders
        ? activityWords('settings.reminders_on', { time: next.reminder_time })
        : activityWords('settings.reminders_off', {}),
    );
    return readReminderSettings(tx);
  });
  // A time moved to one already past reminds at once here, not at the next round (other instances follow).
  ctx.reminders?.wake();
  return saved;
}

/** Reminders are kept this many days (who was reminded of what), then removed. */
const KEPT_DAYS = 30;

/**
 * One round: once the centre's reminder time has come today, claims the reminders not yet made for
 * today (teachers' assigned classes with students and no attendance) and queues a push to each
 * reminded teacher's devices. Only today is ever looked at, so an instance started later in the day
 * catches up, and one started the next morning never reminds anyone of yesterday. Answers what it
 * claimed (nothing before the time, or with reminders off).
 */
export async function remindTeachers(db: Database, now: Date = new Date()): Promise<ClaimedReminder[]> {
  const settings = await readReminderSettings(db);
  if (!settings.marking_reminders || clockTime(now) < settings.reminder_time) return [];
  const date = formatDate(now);
  // Most rounds after the time find every reminder made: a read, and no write that would raise a version.
  if (!(await hasDueReminders(db, date))) return [];
  return db.transaction((tx) => claimDueReminders(tx, date));
}

/** Forgets reminders older than the days kept. */
export async function forgetOldReminders(db: Database, now: Date = new Date()): Promise<void> {
  await deleteRemindersBefore(db, addDays(formatDate(now), -KEPT_DAYS));
}
