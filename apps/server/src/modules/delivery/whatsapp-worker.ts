import type { WhatsappConfig } from '../../config';
import type { Database } from '../../db/database';
import { GroupCommit } from '../../lib/group-commit';
import { PolledWorker, PollingLoop } from '../../lib/polling-loop';
import { setAttemptStatus } from './attempts';
import { feeButtonPayloads } from './fee-reply-payload';
import { alertButtonPayloads } from './reply-payload';
import { WhatsappError, type WhatsappRequest, type WhatsappSender } from './whatsapp';
import {
  type ClaimedWhatsapp,
  claimDueWhatsapp,
  dropStaleEarlyStatuses,
  rescheduleWhatsapp,
  storeProviderMessageIds,
} from './whatsapp-repository';

/** Where the worker reports trouble: pino's (Fastify's) logger fits. */
export interface WhatsappLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

const silentLogger: WhatsappLogger = { info() {}, warn() {}, error() {} };

export interface WhatsappWorkerOptions {
  /** How often to look for attempts that fell due (fallbacks, back-offs, other instances' sends). */
  pollMs?: number;
  batchSize?: number;
  /** Requests in flight at once. */
  concurrency?: number;
  /** Tries before a retryable failure (rate limit, 5xx, no answer) is given up. */
  maxTries?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
}

export interface WhatsappWorkerDependencies {
  db: Database;
  sender: WhatsappSender;
  config: WhatsappConfig;
  options?: WhatsappWorkerOptions;
}

/**
 * Sends the queued WhatsApp attempts (the delivery cascade's second channel, and one-offs waiting for
 * the daily limit). Each round claims due attempts with a lease (claimDueWhatsapp, which also applies
 * the daily limit and drops fallbacks no longer needed), sends them outside any transaction at no more
 * than the number's messages per second, and records the outcomes in short transactions (accepted
 * sends a group at a time). Rounds run when woken (a send committed on this instance) and every
 * `pollMs`.
 */
export class WhatsappWorker extends PolledWorker<WhatsappLogger> {
  protected readonly loop: PollingLoop;
  protected logger: WhatsappLogger = silentLogger;
  private readonly options: Required<WhatsappWorkerOptions>;
  private readonly leaseMs: number;
  /** When the next request may start: one every 1000 / messagesPerSecond ms. */
  private nextSlot = 0;
  /** The accepted sends, recorded a group at a time (each lane still waits for its own). */
  private readonly sent = new GroupCommit<{ attemptId: number; providerMessageId: string }>(
    (items) => storeProviderMessageIds(this.deps.db, items),
    { maxItems: 64, lingerMs: 10 },
  );

  constructor(private readonly deps: WhatsappWorkerDependencies) {
    super();
    this.options = {
      pollMs: 5000,
      batchSize: 200,
      concurrency: 16,
      maxTries: 8,
      retryBaseMs: 30_000,
      retryMaxMs: 30 * 60_000,
      ...deps.options,
    };
    // A claimed batch (claimed while the one before it is still being sent) is sent well before its
    // lease ends: at the number's rate, with every request of both batches timing out (10 s) at worst.
    this.leaseMs =
      Math.ceil((2 * this.options.batchSize * 1000) / deps.config.messagesPerSecond) +
      10_000 * Math.ceil((2 * this.options.batchSize) / this.options.concurrency) +
      60_000;
    this.loop = new PollingLoop(() => this.drain(), this.options.pollMs);
  }

  // A stop leaves the rows of the round in flight with their lease.
  override start(logger: WhatsappLogger = silentLogger): void {
    super.start(logger);
  }

  /**
   * Claims and sends due batches until none is left (or the worker stops). The next batch is claimed
   * while the last requests of the current one are under way, so the number's rate is kept between
   * batches too.
   */
  private async drain(): Promise<void> {
    const { db, config } = this.deps;
    const queue: ClaimedWhatsapp[] = [];
    let more = true;
    let claiming: Promise<void> | undefined;
    const claim = async (): Promise<void> => {
      try {
        const batch = await db.transaction((tx) =>
          claimDueWhatsapp(tx, this.options.batchSize, this.leaseMs, config.dailyLimit),
        );
        if (batch.deferred > 0) {
          this.logger.info({ deferred: batch.deferred }, 'WhatsApp daily limit reached; messages wait for the window');
        }
        const claimed = batch.ready.length + batch.deferred + batch.cancelled + batch.optedOut;
        if (claimed < this.options.batchSize) more = false;
        queue.push(...batch.ready);
      } catch (error) {
        // The database is unreachable or closing: what was claimed is sent, the next poll tries again,
        // and leased rows wait for it.
        more = false;
        this.logger.error({ err: error instanceof Error ? error.message : String(error) }, 'WhatsApp round failed');
      }
    };
    try {
      await dropStaleEarlyStatuses(db);
      await claim();
      const lanes = Array.from({ length: this.options.concurrency }, async () => {
        while (this.loop.isRunning) {
          if (more && queue.length <= this.options.concurrency) {
            claiming ??= claim().finally(() => {
              claiming = undefined;
            });
          }
          if (queue.length === 0) {
            if (!claiming) return;
            await claiming;
            continue;
          }
          const attempt = queue.shift() as ClaimedWhatsapp;
          await this.throttle();
          await this.sendOne(attempt);
        }
      });
      await Promise.all(lanes);
    } catch (error) {
      // The database is unreachable or closing: the next poll tries again; leased rows wait for it.
      this.logger.error({ err: error instanceof Error ? error.message : String(error) }, 'WhatsApp round failed');
    }
  }

  /** Spaces request starts 1000 / messagesPerSecond ms apart, across all lanes. */
  private async throttle(): Promise<void> {
    const interval = 1000 / this.deps.config.messagesPerSecond;
    const now = Date.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + interval;
    if (slot > now) await new Promise((resolve) => setTimeout(resolve, slot - now));
  }

  private async sendOne(attempt: ClaimedWhatsapp): Promise<void> {
    const { db } = this.deps;
    const where = { attempt_id: attempt.id, message_id: attempt.message_id, tries: attempt.tries };
    let outcome: { providerMessageId: string } | WhatsappError;
    try {
      outcome = await this.deps.sender.send(requestOf(attempt));
    } catch (error) {
      outcome = error instanceof WhatsappError ? error : new WhatsappError('WhatsApp could not be reached', true);
    }
    try {
      if (!(outcome instanceof WhatsappError)) {
        await this.sent.add({ attemptId: attempt.id, providerMessageId: outcome.providerMessageId });
        return;
      }
      if (outcome.isRetryable && attempt.tries < this.options.maxTries) {
        this.logger.warn({ ...where, code: outcome.code, reason: outcome.message }, 'WhatsApp send failed; will retry');
        await rescheduleWhatsapp(
          db,
          attempt.id,
          this.backoffMs(attempt.tries),
          outcome.isUnreachable
            ? 'WhatsApp could not be reached; trying again.'
            : `WhatsApp was busy (${outcome.code ?? 'no code'}); trying again.`,
        );
        return;
      }
      this.logger.warn({ ...where, code: outcome.code, reason: outcome.message }, 'WhatsApp send failed');
      await db.transaction((tx) =>
        setAttemptStatus(tx, { attemptId: attempt.id }, 'failed', {
          failureReason: outcome.isRetryable ? `${outcome.message} (after ${attempt.tries} tries)` : outcome.message,
          errorCode: outcome.code,
        }),
      );
    } catch (error) {
      // The row keeps its lease and is tried again when the lease runs out.
      this.logger.error(
        { ...where, err: error instanceof Error ? error.message : String(error) },
        'could not record a WhatsApp outcome',
      );
    }
  }

  /** base · 2^(tries-1), capped, with ±20 % jitter so retries of one batch spread out. */
  private backoffMs(tries: number): number {
    const { retryBaseMs, retryMaxMs } = this.options;
    const delay = Math.min(retryMaxMs, retryBaseMs * 2 ** Math.max(0, tries - 1));
    return Math.round(delay * (0.8 + Math.random() * 0.4));
  }
}

/** The Cloud API request for a stored attempt: its template (with an alert's or a fee reminder's reply buttons) or its text. */
function requestOf(attempt: ClaimedWhatsapp): WhatsappRequest {
  if (attempt.whatsapp_text !== null) return { kind: 'text', to: attempt.recipient, body: attempt.whatsapp_text };
  return {
    kind: 'template',
    to: attempt.recipient,
    template: attempt.whatsapp_template as string,
    language: attempt.whatsapp_language ?? 'en',
    parameters: attempt.whatsapp_parameters ?? [],
    buttonPayloads: !attempt.whatsapp_buttons
      ? undefined
      : attempt.kind === 'fee_reminder'
        ? feeButtonPayloads(attempt.message_id)
        : alertButtonPayloads(attempt.message_id),
  };
}
