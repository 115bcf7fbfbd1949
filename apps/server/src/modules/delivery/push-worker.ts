import { lookup as dnsLookup } from 'node:dns/promises';
import webpush, { type RequestDetails } from 'web-push';
import type { PushConfig } from '../../config';
import type { Database } from '../../db/database';
import { GroupCommit } from '../../lib/group-commit';
import { PollingLoop } from '../../lib/polling-loop';
import type { TokenService } from '../../lib/tokens';
import { type EndpointPolicy, type LookupHost, resolveDestination } from './endpoint-policy';
import { encodePushPayload, encodeStaffPushPayload } from './push-payload';
import {
  type ClaimedPush,
  type ClaimedStaffPush,
  claimDuePushes,
  claimDueStaffPushes,
  deleteSubscriptionById,
  dropPush,
  forgetRevokedSubscription,
  giveUpPush,
  recordPushed,
  recordStaffPushed,
  reschedulePush,
} from './push-repository';
import { createPushAgents, type PushAgents, postPush } from './push-transport';
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
  /** How host names become addresses (default: the system resolver); tests give a fake DNS. */
  lookup?: LookupHost;
}

const systemLookup: LookupHost = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * What staff see (message history `failure_reason`) and the outbox keeps (`last_error`): sentences
 * that say what went wrong without a word from the remote side (its status text, body, address or
 * error code), so an endpoint cannot be used to read what answers inside the network. The details
 * go to the server log.
 */
export const PUSH_FAILURES = {
  notAllowed: "The parent's device address is not allowed.",
  unreachable: 'The push service could not be reached.',
  unavailable: 'The push service was busy or unavailable.',
  refused: 'The push service refused the message.',
  badKeys: "The device's notification keys are not usable.",
  gone: "The parent's device no longer takes notifications.",
} as const;
type Failure = (typeof PUSH_FAILURES)[keyof typeof PUSH_FAILURES];

/** What one attempt came to; `detail` is for the log only. */
type Outcome =
  | { kind: 'sent' }
  | { kind: 'gone'; status: number }
  | { kind: 'dropped' }
  | { kind: 'not-allowed'; detail: string }
  | { kind: 'fatal'; failure: Failure; detail: string }
  | { kind: 'retry'; failure: Failure; detail: string };

/**
 * Drains the push outbox. Each round claims due rows with a lease (one short statement, see
 * claimDuePushes), sends them with bounded concurrency outside any transaction, and records each
 * outcome in its own short statement or transaction. Rounds run when notified (a send on this
 * instance committed) and every `pollMs` (work queued by other instances, retries that fell due,
 * rows whose lease ran out because a worker died).
 */
export class PushWorker {
  private readonly loop: PollingLoop;
  private logger: PushLogger = silentLogger;
  private readonly aborter = new AbortController();
  private readonly leaseMs: number;
  private readonly lookup: LookupHost;
  private readonly agents: PushAgents;
  /** The pushes the service took, recorded a group at a time (each lane still waits for its own). */
  private readonly pushed = new GroupCommit<ClaimedPush>(
    (pushes) => this.deps.db.transaction((tx) => recordPushed(tx, pushes)),
    { maxItems: 64, lingerMs: 10 },
  );

  constructor(private readonly deps: PushWorkerDependencies) {
    const { config } = deps;
    // A claimed batch must be sent, worst case every request timing out, well before its lease ends.
    this.leaseMs = config.requestTimeoutMs * Math.ceil(config.batchSize / config.concurrency) + 30_000;
    this.lookup = deps.lookup ?? systemLookup;
    this.agents = createPushAgents(config.concurrency);
    this.loop = new PollingLoop(() => this.drain(), config.pollMs);
  }

  get publicKey(): string {
    return this.deps.vapid.publicKey;
  }

  get isRunning(): boolean {
    return this.loop.isRunning;
  }

  start(logger: PushLogger = silentLogger): void {
    if (this.loop.isRunning) return;
    this.logger = logger;
    if (this.deps.config.allowLoopbackEndpointsForTests) {
      logger.warn(
        { setting: 'PUSH_ALLOW_LOOPBACK_ENDPOINTS_FOR_TESTS' },
        'TEST-ONLY SETTING ON: push endpoints on this computer (loopback, plain http, any port) are accepted. Never use it in production.',
      );
    }
    this.loop.start();
  }

  private get policy(): EndpointPolicy {
    return { allowLoopbackForTests: this.deps.config.allowLoopbackEndpointsForTests };
  }

  /** Run a round now (or right after the current one). No-op until started. */
  wake(): void {
    this.loop.wake();
  }

  /**
   * Stops polling and waits for the sends in flight, at most `graceMs`; then aborts them. A send cut
   * off counts as a failed attempt and is retried later; if even that cannot be recorded (the
   * database is gone), the row keeps its lease and is sent again when the lease runs out, here or
   * on another instance.
   */
  async stop(graceMs = 5000): Promise<void> {
    if ((await this.loop.stop(graceMs)) === 'timeout') {
      this.aborter.abort();
      await this.loop.settled();
    }
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /** Claims and sends due batches until none is left (or the worker stops). */
  private async drain(): Promise<void> {
    const { config } = this.deps;
    try {
      while (this.loop.isRunning) {
        const batch = await claimDuePushes(this.deps.db, config.batchSize, this.leaseMs);
        // Staff pushes (marking reminders) share the worker, its lanes' bound and its rules.
        const staff = await claimDueStaffPushes(this.deps.db, config.batchSize, this.leaseMs);
        if (batch.length === 0 && staff.length === 0) return;
        await this.sendAll(batch);
        await this.sendAllStaff(staff);
        if (batch.length < config.batchSize && staff.length < config.batchSize) return;
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

  private async sendAllStaff(batch: ClaimedStaffPush[]): Promise<void> {
    let next = 0;
    const lanes = Array.from({ length: Math.min(this.deps.config.concurrency, batch.length) }, async () => {
      while (next < batch.length) {
        const push = batch[next++] as ClaimedStaffPush;
        // A class marked since its reminder was made needs no notification any more.
        const outcome: Outcome = push.marked
          ? { kind: 'dropped' }
          : await this.post(push, async () =>
              encodeStaffPushPayload({ className: push.class_name, classLabel: push.class_label, date: push.date }),
            );
        await this.recordStaff(push, outcome);
      }
    });
    await Promise.all(lanes);
  }

  private async attempt(push: ClaimedPush): Promise<Outcome> {
    const { tokens } = this.deps;
    if (push.revoked && push.kind !== 'access_notice') return { kind: 'dropped' };
    return this.post(push, async () =>
      encodePushPayload({
        message_id: push.message_id,
        title: push.subject,
        body: push.message,
        sent_at: push.sent_at,
        receipt: await tokens.signReceipt(push.message_id),
      }),
    );
  }

  /** Encrypts `payload` for the device and posts it to its endpoint, checked against the policy first. */
  private async post(
    device: { endpoint: string; p256dh: string; auth: string },
    payload: () => Promise<string>,
  ): Promise<Outcome> {
    const { config, vapid } = this.deps;
    let request: RequestDetails;
    try {
      request = webpush.generateRequestDetails(
        { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
        await payload(),
        { vapidDetails: vapid, TTL: config.ttlSeconds, urgency: 'normal', contentEncoding: 'aes128gcm' },
      );
    } catch {
      // The stored keys are not a P-256 point and a 16-byte secret: no retry can fix that.
      return { kind: 'fatal', failure: PUSH_FAILURES.badKeys, detail: 'the subscription keys are not usable' };
    }
    // One deadline for the look-up and the request, cut short too when the worker stops.
    const deadline = AbortSignal.timeout(config.requestTimeoutMs);
    const signal = AbortSignal.any([deadline, this.aborter.signal]);
    const timedOut = () => ({
      kind: 'retry' as const,
      failure: PUSH_FAILURES.unreachable,
      detail: `no answer within ${config.requestTimeoutMs} ms`,
    });
    try {
      // Checked again on every attempt: a name that was public at the last one may not be now.
      const destination = await abortable(resolveDestination(device.endpoint, this.policy, this.lookup), signal);
      if (!destination.ok) {
        if (destination.kind === 'refused') return { kind: 'not-allowed', detail: destination.problem };
        return { kind: 'retry', failure: PUSH_FAILURES.unreachable, detail: destination.problem };
      }
      const status = await postPush(destination.url, destination.addresses, request, this.agents, signal);
      if (status >= 200 && status < 300) return { kind: 'sent' };
      if (status === 404 || status === 410) return { kind: 'gone', status };
      if (status === 400 || status === 403 || status === 413) {
        // The request itself is refused (malformed, a key the subscription was not made for, too
        // large): sending the same request again changes nothing.
        return { kind: 'fatal', failure: PUSH_FAILURES.refused, detail: `status ${status}` };
      }
      return { kind: 'retry', failure: PUSH_FAILURES.unavailable, detail: `status ${status}` };
    } catch (error) {
      if (deadline.aborted) return timedOut();
      return { kind: 'retry', failure: PUSH_FAILURES.unreachable, detail: describeError(error) };
    }
  }

  private async record(push: ClaimedPush, outcome: Outcome): Promise<void> {
    const { db, config } = this.deps;
    const where = { outbox_id: push.id, message_id: push.message_id, subscription_id: push.subscription_id };
    try {
      switch (outcome.kind) {
        case 'sent':
          await this.pushed.add(push);
          break;
        case 'gone':
          // The device is forgotten; if it was the message's last hope, the push attempt fails with it.
          this.logger.info({ ...where, status: outcome.status }, 'push subscription expired; removed');
          await this.giveUp(push, PUSH_FAILURES.gone, true);
          return;
        case 'dropped':
          await dropPush(db, 'parent', push.id);
          break;
        case 'not-allowed':
          // The endpoint leads inside the network (or nowhere allowed): no later attempt or message
          // would fare better, so the device is forgotten with its queued pushes.
          this.logger.warn({ ...where, detail: outcome.detail }, 'push endpoint not allowed; subscription removed');
          await this.giveUp(push, PUSH_FAILURES.notAllowed, true);
          return;
        case 'fatal':
          this.logger.warn({ ...where, detail: outcome.detail }, 'push refused');
          await this.giveUp(push, outcome.failure);
          break;
        case 'retry':
          if (push.attempts >= config.maxAttempts) {
            this.logger.warn({ ...where, attempts: push.attempts, detail: outcome.detail }, 'push failed');
            await this.giveUp(push, `${outcome.failure.slice(0, -1)} after ${push.attempts} attempts.`);
            break;
          }
          this.logger.warn({ ...where, attempts: push.attempts, detail: outcome.detail }, 'push failed; will retry');
          await reschedulePush(db, 'parent', push.id, this.backoffMs(push.attempts), outcome.failure);
          return;
      }
      if (push.revoked) await forgetRevokedSubscription(db, push.subscription_id);
    } catch (error) {
      // The row keeps its lease and is tried again when the lease runs out.
      this.logger.error({ ...where, err: describeError(error) }, 'could not record a push outcome');
    }
  }

  /**
   * A staff push's outcome: no message waits on it, so giving up only drops the row; a device gone or
   * not allowed is forgotten, as a parent's is.
   */
  private async recordStaff(push: ClaimedStaffPush, outcome: Outcome): Promise<void> {
    const { db, config } = this.deps;
    const where = { staff_outbox_id: push.id, reminder_id: push.reminder_id, subscription_id: push.subscription_id };
    try {
      switch (outcome.kind) {
        case 'sent':
          await db.transaction((tx) => recordStaffPushed(tx, push));
          return;
        case 'dropped':
          await dropPush(db, 'staff', push.id);
          return;
        case 'gone':
        case 'not-allowed':
          this.logger.info(
            { ...where, outcome: outcome.kind },
            'staff push subscription expired or not allowed; removed',
          );
          await deleteSubscriptionById(db, 'staff', push.subscription_id);
          return;
        case 'fatal':
          this.logger.warn({ ...where, detail: outcome.detail }, 'staff push refused');
          await dropPush(db, 'staff', push.id);
          return;
        case 'retry':
          if (push.attempts >= config.maxAttempts) {
            this.logger.warn({ ...where, attempts: push.attempts, detail: outcome.detail }, 'staff push given up');
            await dropPush(db, 'staff', push.id);
            return;
          }
          await reschedulePush(db, 'staff', push.id, this.backoffMs(push.attempts), outcome.failure);
          return;
      }
    } catch (error) {
      // The row keeps its lease and is tried again when the lease runs out.
      this.logger.error({ ...where, err: describeError(error) }, 'could not record a staff push outcome');
    }
  }

  /** `forgetDevice`: in the same transaction, after the message (the lock order of recordPushed). */
  private async giveUp(push: ClaimedPush, reason: string, forgetDevice = false): Promise<void> {
    const failed = await this.deps.db.transaction(async (tx) => {
      const hasFailed = await giveUpPush(tx, push, reason);
      if (forgetDevice) await deleteSubscriptionById(tx, 'parent', push.subscription_id);
      return hasFailed;
    });
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

/** `work`, or a rejection as soon as `signal` aborts (a DNS look-up cannot be cancelled, only left). */
function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
