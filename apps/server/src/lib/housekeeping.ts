/** Where housekeeping reports a job that failed: pino's (Fastify's) logger fits. */
export interface HousekeepingLogger {
  warn(object: object, message: string): void;
}

export interface HousekeepingJob {
  name: string;
  run: () => Promise<unknown>;
}

/**
 * Runs clean-up jobs at start and then every `intervalMs`, one round at a time, in every instance (each
 * job is a plain statement that any instance may run at any time). A job that fails is logged and
 * tried again next round: a database away for a while must not stop the clean-up for good.
 */
export class Housekeeping {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;

  constructor(
    private readonly jobs: HousekeepingJob[],
    private readonly intervalMs: number,
    private readonly logger: HousekeepingLogger,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.runOnce(), this.intervalMs);
    this.timer.unref();
    void this.runOnce();
  }

  /** One round of every job; a round already running is joined, not doubled. */
  runOnce(): Promise<void> {
    this.round ??= (async () => {
      for (const job of this.jobs) {
        try {
          await job.run();
        } catch (error) {
          this.logger.warn({ job: job.name, err: error }, 'housekeeping job failed; it runs again next round');
        }
      }
    })().finally(() => {
      this.round = undefined;
    });
    return this.round;
  }

  /** No new rounds; waits for the one running, so the database can then close. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.round;
  }
}
