import type { Database } from '../../db/database';
import { runChargesAutomatically } from './charges';
import { automaticRunClaimed } from './charges-repository';
import { DailyRoundLoop } from './daily-loop';
import { readSchedule } from './discounts';

/** How often a round looks whether today's run is due: it starts within this of its hour. */
export const CHARGE_RUN_POLL_MS = 60_000;

/**
 * The automatic charge run (ADR 052): once the centre's clock passes the set hour, the first round of
 * the day claims the day in the database (one instance wins) and runs (DailyRoundLoop). A day missed
 * while every instance was down is made up by the next day's run, as each run charges the month before too.
 */
export class ChargeRunLoop extends DailyRoundLoop {
  constructor(
    private readonly db: Database,
    pollMs: number = CHARGE_RUN_POLL_MS,
    clock: () => Date = () => new Date(),
  ) {
    super(pollMs, clock, 'automatic charge run');
  }

  protected async dueHour(): Promise<number | undefined> {
    const schedule = await readSchedule(this.db);
    return schedule.automatic ? schedule.hour : undefined;
  }

  protected async runDay(day: string, now: Date): Promise<void> {
    // Most rounds of the day find it claimed: a read, and no write.
    if (await automaticRunClaimed(this.db, day)) return;
    const created = await runChargesAutomatically({ db: this.db }, now);
    if (created !== undefined) this.logger.info({ created, day }, 'automatic charge run done');
  }
}
