import { runWithoutAuditSource } from '../db/audit-context';

/**
 * Runs a worker's rounds: one when woken (work was queued on this instance) and one `pollMs` after
 * the last ended (work queued elsewhere, retries that fell due, leases that ran out), never two at
 * once; a wake during a round runs another right after it.
 */
export class PollingLoop {
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly work: () => Promise<void>,
    private readonly pollMs: number,
  ) {}

  /** Started and not stopped: a round checks it to stop between steps. */
  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.wake();
  }

  /** Run a round now (or right after the current one). No-op until started. */
  wake(): void {
    if (!this.running) return;
    if (this.round) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    // Woken by a request, a round is still the server's own work, not that request's (audit log).
    this.round = runWithoutAuditSource(() => this.work()).finally(() => {
      this.round = undefined;
      if (!this.running) return;
      if (this.again) {
        this.again = false;
        this.wake();
        return;
      }
      this.timer = setTimeout(() => this.wake(), this.pollMs);
      this.timer.unref();
    });
  }

  /**
   * Stops: no new round starts. Waits for the round in flight at most `graceMs`; answers 'timeout'
   * when it is still running then (`settled` waits for it), else 'done'.
   */
  async stop(graceMs: number): Promise<'done' | 'timeout'> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const round = this.round;
    if (!round) return 'done';
    let timeout: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<'timeout'>((resolve) => {
      timeout = setTimeout(() => resolve('timeout'), graceMs);
    });
    const result = await Promise.race([round.then(() => 'done' as const), gaveUp]);
    clearTimeout(timeout);
    return result;
  }

  /** The end of the round in flight, if any (rounds report their own errors; this never rejects). */
  async settled(): Promise<void> {
    await this.round?.catch(() => {});
  }
}

/**
 * A worker whose rounds a PollingLoop drives (the WhatsApp sender, the marking reminders): started with
 * the logger its rounds write to (a second start changes nothing), woken, stopped. The worker makes its
 * loop with its own round and poll interval.
 */
export abstract class PolledWorker<Logger> {
  protected abstract readonly loop: PollingLoop;
  protected abstract logger: Logger;

  get isRunning(): boolean {
    return this.loop.isRunning;
  }

  start(logger: Logger): void {
    if (this.loop.isRunning) return;
    this.logger = logger;
    this.loop.start();
  }

  /** Run a round now (or right after the current one). No-op until started. */
  wake(): void {
    this.loop.wake();
  }

  /** Stops polling and waits for the round in flight, at most `graceMs`. */
  async stop(graceMs = 5000): Promise<void> {
    await this.loop.stop(graceMs);
  }

  /** The end of the round in flight, if any. */
  settled(): Promise<void> {
    return this.loop.settled();
  }
}
