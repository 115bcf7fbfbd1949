import type { Database } from '../../db/database';
import { PolledWorker, PollingLoop } from '../../lib/polling-loop';
import { today } from '../../lib/time';
import { forgetOldReminders, remindTeachers } from './service';

export interface ReminderLogger {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

const silentLogger: ReminderLogger = { info() {}, error() {} };

/** How often a round looks whether reminders are due: a reminder goes within this of its time. */
export const REMINDER_POLL_MS = 30_000;

/**
 * Sends the marking reminders: a round at start (an instance started after the reminder time catches
 * up on today's) and every `pollMs`, in every instance; the database decides which instance claims
 * each reminder. Each round that claims some wakes the push worker, so the pushes go at once.
 */
export class MarkingReminderLoop extends PolledWorker<ReminderLogger> {
  protected readonly loop: PollingLoop;
  protected logger: ReminderLogger = silentLogger;
  private cleanedOn: string | undefined;

  constructor(
    private readonly db: Database,
    private readonly onClaimed: () => void,
    pollMs: number = REMINDER_POLL_MS,
    private readonly clock: () => Date = () => new Date(),
  ) {
    super();
    this.loop = new PollingLoop(() => this.round(), pollMs);
  }

  override start(logger: ReminderLogger = silentLogger): void {
    super.start(logger);
  }

  private async round(): Promise<void> {
    try {
      const now = this.clock();
      const claimed = await remindTeachers(this.db, now);
      if (claimed.length > 0) {
        this.logger.info(
          { reminders: claimed.length, pushes: claimed.reduce((sum, reminder) => sum + reminder.pushes, 0) },
          'teachers reminded of classes not marked',
        );
        this.onClaimed();
      }
      const day = today(now);
      if (this.cleanedOn !== day) {
        await forgetOldReminders(this.db, now);
        this.cleanedOn = day;
      }
    } catch (error) {
      // The database is away or closing: the next round tries again, and still only for that day.
      this.logger.error(
        { err: error instanceof Error ? error.message : String(error) },
        'marking reminder round failed',
      );
    }
  }
}
