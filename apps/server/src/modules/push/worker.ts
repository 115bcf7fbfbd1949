import webpush, { type RequestDetails } from 'web-push';
import type { PushConfig } from '../../config';
import type { Database } from '../../db/database';
import type { TokenService } from '../../lib/tokens';
import { encodePushPayload } from './payload';
import {
  type ClaimedPush,
  claimDuePushes,
  deleteSubscriptionById,
  giveUpPush,
  recordPushed,
  reschedulePush,
} from './repository';
import type { VapidDetails } from './vapid';

/** Where the worker reports trouble: pino's (Fastify's) logger fits. */
export interface PushLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

const silentLogger: PushLogger = { info() {}, warn() {}, error() {} };

export interface PushWorkerDependencies {
  db: Database;
  tokens: TokenService;
  vapid: VapidDetails;
  config: PushConfig;
}

/** What one attempt came to. */
type Outcome =
  | { kind: 'sent' }
  | { kind: 'gone'; status: number }
  | { kind: 'fatal'; error: string }
  | { kind: 'retry'; error: string };

/**
 * Drains the push outbox. Each round claims due rows with a lease (one short statement, see
 * claimDuePushes), sends them with bounded concurrency outside any transaction, and records each
 * outcome in its own short statement or transaction. Rounds run when notified (a send on this
 * instance committed) and every `pollMs` (work queued by other instances, retries that fell due,
 * rows whose lease ran out because a worker died).
 */
export class PushWorker {
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private again = false;
  private logger: PushLogger = silentLogger;
  private readonly aborter = new AbortController();
  private readonly leaseMs: number;

  constructor(private readonly deps: PushWorkerDependencies) {
    const { config } = deps;
    // A claimed batch must be sent, worst case every request timing out, well before its lease ends.
    this.leaseMs = config.requestTimeoutMs * Math.ceil(config.batchSize / config.concurrency) + 30_000;
  }

  get publicKey(): string {
    return this.deps.vapid.publicKey;
  }

  get isRunning(): boolean {
    return this.running;
  }

  start(logger: PushLogger = silentLogger): void {
    if (this.running) return;
    this.logger = logger;
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
    this.round = this.drain().finally(() => {
      this.round = undefined;
      if (!this.running) return;
      if (this.again) {
        this.again = false;
        this.wake();
        return;
      }
      this.timer = setTimeout(() => this.wake(), this.deps.config.pollMs);
      this.timer.unref();
    });
  }

  /**
   * Stops polling and waits for the sends in flight, at most `graceMs`; then aborts them. A send cut
   * off counts as a failed attempt and is retried later; if even that cannot be recorded (the
   * database is gone), the row keeps its lease and is sent again when the lease runs out, here or
   * on another instance.
   */
  async stop(graceMs = 5000): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const round = this.round;
    if (!round) return;
    let timeout: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<'timeout'>((resolve) => {
      timeout = setTimeout(() => resolve('timeout'), graceMs);
    });
    const result = await Promise.race([round.then(() => 'done' as const), gaveUp]);
    clearTimeout(timeout);
    if (result === 'timeout') {
      this.aborter.abort();
      await round.catch(() => {});
    }
  }

  /** Claims and sends due batches until none is left (or the worker stops). */
  private async drain(): Promise<void> {
    const { config } = this.deps;
    try {
      while (this.running) {
        const batch = await claimDuePushes(this.deps.db, config.batchSize, this.leaseMs);
        if (batch.length === 0) return;
        await this.sendAll(batch);
        if (batch.length < config.batchSize) return;
      }
    } catch (error) {
      // The database is unreachable or closing: the next poll tries again; leased rows wait for it.
      this.logger.error({ err: describeError(error) }, 'push delivery round failed');
    }
  }

  private async sendAll(batch: ClaimedPush[]): Promise<void> {
    let next = 0;
    const lanes = Array.from({ length: Math.min(this.deps.config.concurrency, batch.length) }, async () => {
      while (next < batch.length) {
        const push = batch[next++] as ClaimedPush;
        const outcome = await this.attempt(push);
        await this.record(push, outcome);
      }
    });
    await Promise.all(lanes);
  }

  private async attempt(push: ClaimedPush): Promise<Outcome> {
    const { config, vapid, tokens } = this.deps;
    let request: RequestDetails;
    try {
      const payload = encodePushPayload({
        message_id: push.message_id,
        title: push.subject,
        body: push.message,
        sent_at: push.sent_at,
        receipt: await tokens.signReceipt(push.message_id),
      });
      request = webpush.generateRequestDetails(
        { endpoint: push.endpoint, keys: { p256dh: push.p256dh, auth: push.auth } },
        payload,
        { vapidDetails: vapid, TTL: config.ttlSeconds, urgency: 'normal', contentEncoding: 'aes128gcm' },
      );
    } catch {
      // The stored keys are not a P-256 point and a 16-byte secret: no retry can fix that.
      return { kind: 'fatal', error: 'the device subscription keys are not usable' };
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (name.toLowerCase() !== 'content-length' && value !== undefined) headers[name] = String(value);
    }
    try {
      const response = await fetch(request.endpoint, {
        method: 'POST',
        headers,
        body: request.body,
        // A push service answers; it does not redirect. Following one would let an endpoint point the
        // server at any address.
        redirect: 'manual',
        signal: AbortSignal.any([AbortSignal.timeout(config.requestTimeoutMs), this.aborter.signal]),
      });
      await response.body?.cancel().catch(() => {});
      const status = `${response.status} ${response.statusText || statusText(response.status)}`.trim();
      if (response.ok) return { kind: 'sent' };
      if (response.status === 404 || response.status === 410) return { kind: 'gone', status: response.status };
      if (response.status === 400 || response.status === 403 || response.status === 413) {
        // The request itself is refused (malformed, a key the subscription was not made for, too
        // large): sending the same request again changes nothing.
        return { kind: 'fatal', error: status };
      }
      return { kind: 'retry', error: status };
    } catch (error) {
      if (error instanceof Error && error.name === 'TimeoutError') {
        return { kind: 'retry', error: `no answer within ${config.requestTimeoutMs} ms` };
      }
      return { kind: 'retry', error: describeError(error) };
    }
  }

  private async record(push: ClaimedPush, outcome: Outcome): Promise<void> {
    const { db, config } = this.deps;
    const where = { outbox_id: push.id, message_id: push.message_id, subscription_id: push.subscription_id };
    try {
      switch (outcome.kind) {
        case 'sent':
          await db.transaction((tx) => recordPushed(tx, push));
          return;
        case 'gone':
          this.logger.info({ ...where, status: outcome.status }, 'push subscription expired; removed');
          await deleteSubscriptionById(db, push.subscription_id);
          return;
        case 'fatal':
          await this.giveUp(push, `Push failed: ${outcome.error}`);
          return;
        case 'retry':
          if (push.attempts >= config.maxAttempts) {
            await this.giveUp(push, `Push failed after ${push.attempts} attempts: ${outcome.error}`);
            return;
          }
          this.logger.warn({ ...where, attempts: push.attempts, error: outcome.error }, 'push failed; will retry');
          await reschedulePush(db, push.id, this.backoffMs(push.attempts), outcome.error);
          return;
      }
    } catch (error) {
      // The row keeps its lease and is tried again when the lease runs out.
      this.logger.error({ ...where, err: describeError(error) }, 'could not record a push outcome');
    }
  }

  private async giveUp(push: ClaimedPush, reason: string): Promise<void> {
    const failed = await this.deps.db.transaction((tx) => giveUpPush(tx, push, reason));
    this.logger.warn(
      { outbox_id: push.id, message_id: push.message_id, subscription_id: push.subscription_id, reason, failed },
      'push given up',
    );
  }

  /** base · 2^(attempts-1), capped, with ±20 % jitter so retries of one batch spread out. */
  private backoffMs(attempts: number): number {
    const { retryBaseMs, retryMaxMs } = this.deps.config;
    const delay = Math.min(retryMaxMs, retryBaseMs * 2 ** Math.max(0, attempts - 1));
    return Math.round(delay * (0.8 + Math.random() * 0.4));
  }
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const causeText = cause instanceof Error ? `: ${(cause as { code?: string }).code ?? cause.message}` : '';
  return `${error.message}${causeText}`.slice(0, 300);
}

function statusText(status: number): string {
  const texts: Record<number, string> = {
    429: 'Too Many Requests',
    500: 'Internal Server Error',
    502: 'Bad Gateway',
    503: 'Service Unavailable',
    504: 'Gateway Timeout',
  };
  return texts[status] ?? '';
}
