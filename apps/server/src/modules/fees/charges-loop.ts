import type { Database } from '../../db/database';
import { PolledWorker, PollingLoop } from '../../lib/polling-loop';
import { clockTime, today } from '../../lib/time';
import { runChargesAutomatically } from './charges';
import { automaticRunClaimed } from './charges-repository';
import { readSchedule } from './discounts';

export interface ChargeRunLogger {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

const silentLogger: ChargeRunLogger = { info() {}, error() {} };

/** How often a round looks whether today's run is due: it starts within this of its hour. */
export const CHARGE_RUN_POLL_MS = 60_000;

/**
 * The automatic charge run (ADR 052): a round at start and every `pollMs`, in every instance; once the
 * centre's clock passes the set hour, the first round of the day claims the day in the database (one
 * instance wins) and runs. An instance started later in the day catches up; a day missed while every
 * instance was down is made up by the next day's run, as each run charges the month before too.
 */
export class ChargeRunLoop extends PolledWorker<ChargeRunLogger> {
  protected readonly loop: PollingLoop;
  protected logger: ChargeRunLogger = silentLogger;
  private ranOn: string | undefined;

  constructor(
    private readonly db: Database,
    pollMs: number = CHARGE_RUN_POLL_MS,
    private readonly clock: () => Date = () => new Date(),
  ) {
    super();
    this.loop = new PollingLoop(() => this.round(), pollMs);
  }

  override start(logger: ChargeRunLogger = silentLogger): void {
    super.start(logger);
  }

  private async round(): Promise<void> {
    try {
      const now = this.clock();
      const day = today(now);
      if (this.ranOn === day) return;
      const schedule = await readSchedule(this.db);
      if (!schedule.automatic || Number(clockTime(now).slice(0, 2)) < schedule.hour) return;
      // Most rounds of the day find it claimed: a read, and no write.
      if (await automaticRunClaimed(this.db, day)) {
        this.ranOn = day;
        return;
      }
      const created = await runChargesAutomatically({ db: this.db }, now);
      this.ranOn = day;
      if (created !== undefined) this.logger.info({ created, day }, 'automatic charge run done');
    } catch (error) {
      // The database is away or closing: the next round tries again.
      this.logger.error({ err: error instanceof Error ? error.message : String(error) }, 'automatic charge run failed');
    }
  }
}
