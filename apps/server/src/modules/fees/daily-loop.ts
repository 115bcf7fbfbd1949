import { PolledWorker, PollingLoop } from '../../lib/polling-loop';
import { clockTime, today } from '../../lib/time';

export interface DailyLoopLogger {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

const silentLogger: DailyLoopLogger = { info() {}, error() {} };

/**
 * A round once a day, at the hour the centre set, in every instance: the charge run (ADR 052) and the
 * fee reminders (ADR 061). A look at start and every `pollMs`; once the centre's clock passes the hour
 * (read afresh at each look, so a change needs no restart), `runDay` claims the day in the database
 * (one instance wins) and runs it. An instance started later in the day catches up.
 */
export abstract class DailyRoundLoop extends PolledWorker<DailyLoopLogger> {
  protected readonly loop: PollingLoop;
  protected logger: DailyLoopLogger = silentLogger;
  private ranOn: string | undefined;

  constructor(
    pollMs: number,
    private readonly clock: () => Date,
    private readonly what: string,
  ) {
    super();
    this.loop = new PollingLoop(() => this.round(), pollMs);
  }

  override start(logger: DailyLoopLogger = silentLogger): void {
    super.start(logger);
  }

  /** The hour today's round is due from, or undefined when the rounds are off. */
  protected abstract dueHour(): Promise<number | undefined>;

  /** Claims `day` and runs its round (nothing when it was claimed already). */
  protected abstract runDay(day: string, now: Date, hour: number): Promise<void>;

  private async round(): Promise<void> {
    try {
      const now = this.clock();
      const day = today(now);
      if (this.ranOn === day) return;
      const hour = await this.dueHour();
      if (hour === undefined || Number(clockTime(now).slice(0, 2)) < hour) return;
      await this.runDay(day, now, hour);
      this.ranOn = day;
    } catch (error) {
      // The database is away or closing: the next look tries again.
      this.logger.error({ err: error instanceof Error ? error.message : String(error) }, `${this.what} failed`);
    }
  }
}
