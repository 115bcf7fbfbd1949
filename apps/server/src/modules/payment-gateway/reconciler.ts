import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import { PolledWorker, PollingLoop } from '../../lib/polling-loop';
import type { RazorpayConfig } from '../../razorpay-config';
import { recordGatewayPayment } from './payments';
import { fetchPaymentLink } from './razorpay';
import { advanceLink, linksToReconcile, markLinkChecked, unappliedEvents } from './repository';
import { applyEvent } from './webhook';

/** Links asked about in one round; the rest wait for the next (the least recently asked first). */
const LINKS_PER_ROUND = 200;
const EVENTS_PER_ROUND = 200;

export interface ReconcileResult {
  /** Links asked about. */
  links: number;
  /** Payments Razorpay had that the ledger did not: recorded now. */
  recorded: number;
  /** Kept events whose applying had failed, applied now. */
  events: number;
  /** Links Razorpay could not be asked about (unreachable, refused): asked again next round. */
  failed: number;
}

/**
 * One round of the reconciler (ADR 053): Razorpay's webhook is the news, its API the truth. Events
 * kept but not applied (their applying failed) are applied again; then every link still open (or
 * closed in the last two days) is fetched from Razorpay and each captured payment on it that the
 * ledger does not have is recorded, with the same key as the webhook's, so a webhook that comes
 * later records nothing. Each link on its own: one that fails is logged and asked again next round.
 */
export async function reconcileOnce(
  db: Database,
  config: RazorpayConfig,
  log?: Pick<FastifyBaseLogger, 'warn' | 'info'>,
): Promise<ReconcileResult> {
  const result: ReconcileResult = { links: 0, recorded: 0, events: 0, failed: 0 };
  for (const event of await unappliedEvents(db, EVENTS_PER_ROUND)) {
    try {
      await applyEvent(db, event.id, event.raw_body);
      result.events += 1;
    } catch (error) {
      log?.warn(
        { event: 'razorpay-reconcile', row: event.id, err: error },
        'A kept Razorpay event could not be applied',
      );
    }
  }
  for (const link of await linksToReconcile(db, LINKS_PER_ROUND)) {
    result.links += 1;
    try {
      const now = await fetchPaymentLink(config, link.link_id);
      for (const payment of now.payments) {
        if (payment.status !== 'captured') continue;
        const recorded = await recordGatewayPayment(
          db,
          link,
          { paymentId: payment.paymentId, amountPaise: payment.amountPaise, method: payment.method },
          'reconciler',
        );
        if (recorded) result.recorded += 1;
      }
      await db.transaction((tx) => advanceLink(tx, link.link_id, now.status, now.orderId));
    } catch (error) {
      result.failed += 1;
      log?.warn(
        { event: 'razorpay-reconcile', link_id: link.link_id, err: error instanceof Error ? error.message : error },
        'Razorpay could not be asked about a payment link; asked again next round',
      );
    }
    await markLinkChecked(db, link.link_id);
  }
  if (result.recorded > 0 || result.events > 0 || result.failed > 0) {
    log?.info({ event: 'razorpay-reconcile', ...result }, 'Razorpay reconciled');
  }
  return result;
}

/** Runs `reconcileOnce` every RAZORPAY_RECONCILE_SECONDS in every instance (recording is idempotent). */
export class RazorpayReconciler extends PolledWorker<FastifyBaseLogger | undefined> {
  protected logger: FastifyBaseLogger | undefined;
  protected readonly loop: PollingLoop;

  constructor(db: Database, config: RazorpayConfig) {
    super();
    this.loop = new PollingLoop(async () => {
      try {
        await reconcileOnce(db, config, this.logger);
      } catch (error) {
        this.logger?.error({ event: 'razorpay-reconcile', err: error }, 'The Razorpay reconciler round failed');
      }
    }, config.reconcileSeconds * 1000);
  }
}
