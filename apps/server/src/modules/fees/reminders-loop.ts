import type { AppContext } from '../../context';
import { centreInstant } from '../../lib/time';
import { DailyRoundLoop } from './daily-loop';
import { type ReminderPayLinks, runReminderRound } from './reminders';
import { claimReminderRound, readReminderSettings, releaseReminderRound } from './reminders-repository';

/** How often a round looks whether today's reminders are due: they go within this of their hour. */
export const FEE_REMINDER_POLL_MS = 60_000;

/**
 * The automatic reminder round (ADR 061), as the charge run's (DailyRoundLoop): past the set hour, the
 * first look of the day claims the day on the settings row (moving `last_run_at` past today's hour:
 * one instance wins, and a round by hand since the hour counts) and runs the round. A round that fails
 * hands the day back, so the next look tries again. Were two rounds to run at once all the same, each
 * reminder is still sent once.
 */
export class FeeReminderLoop extends DailyRoundLoop {
  constructor(
    private readonly ctx: AppContext,
    private readonly links: ReminderPayLinks,
    pollMs: number = FEE_REMINDER_POLL_MS,
    clock: () => Date = () => new Date(),
  ) {
    super(pollMs, clock, 'fee reminder round');
  }

  protected async dueHour(): Promise<number | undefined> {
    const { settings } = await readReminderSettings(this.ctx.db);
    return settings.enabled ? settings.hour : undefined;
  }

  protected async runDay(day: string, now: Date, hour: number): Promise<void> {
    const since = centreInstant(day, `${String(hour).padStart(2, '0')}:00`);
    const claim = await claimReminderRound(this.ctx.db, since, now);
    if (!claim) return;
    try {
      const run = await runReminderRound(this.ctx, this.links, { now });
      this.logger.info({ ...run, day }, 'fee reminders sent');
    } catch (error) {
      // Hand the day back: the next look (a minute on) runs the round again, and each reminder the
      // failed round sent is not sent twice (one row per family, due date and day of the schedule).
      await releaseReminderRound(this.ctx.db, claim).catch(() => undefined);
      throw error;
    }
  }
}
