import type { Queryable } from '../../db/database';
import type { LinkStatus } from './razorpay';

/** Online payment's SQL (migration 0034): links, webhook events and the gateway payments recorded. */

export interface LinkRow {
  link_id: string;
  reference_id: string;
  family_id: number;
  amount_paise: number;
  url: string;
  status: LinkStatus;
  order_id: string | null;
}

const LINK_COLUMNS = 'link_id, reference_id, family_id, amount_paise, url, status, order_id';

function linkRow(row: LinkRow | undefined): LinkRow | undefined {
  return row && { ...row, family_id: Number(row.family_id), amount_paise: Number(row.amount_paise) };
}

/**
 * How far along a status is; a link only moves to a higher rank (a late or repeated event never moves
 * it back), and paid, expired and cancelled are ends.
 */
export const STATUS_RANK_SQL = `CASE status WHEN 'created' THEN 0 WHEN 'partially_paid' THEN 1 ELSE 2 END`;
const rankOf = (status: LinkStatus) => (status === 'created' ? 0 : status === 'partially_paid' ? 1 : 2);

export async function insertLink(
  tx: Queryable,
  link: Omit<LinkRow, 'status'> & { status: LinkStatus; createdBy: number | null },
): Promise<void> {
  await tx.query(
    `INSERT INTO payment_links (link_id, reference_id, family_id, amount_paise, url, status, order_id, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      link.link_id,
      link.reference_id,
      link.family_id,
      link.amount_paise,
      link.url,
      link.status,
      link.order_id,
      link.createdBy,
    ],
  );
}

/** The family's newest link still waiting to be paid, for exactly this amount. */
export async function findOpenLink(db: Queryable, familyId: number, amountPaise: number): Promise<LinkRow | undefined> {
  const [row] = await db.query<LinkRow>(
    `SELECT ${LINK_COLUMNS} FROM payment_links
      WHERE family_id = $1 AND amount_paise = $2 AND status = 'created'
      ORDER BY id DESC LIMIT 1`,
    [familyId, amountPaise],
  );
  return linkRow(row);
}

/** A link of ours by Razorpay's id, its order's id or our reference; `lock` holds it until `tx` ends. */
export async function findLink(
  tx: Queryable,
  by: { linkId?: string | null; orderId?: string | null; referenceId?: string | null },
  lock = false,
): Promise<LinkRow | undefined> {
  const [row] = await tx.query<LinkRow>(
    `SELECT ${LINK_COLUMNS} FROM payment_links
      WHERE link_id = $1 OR order_id = $2 OR reference_id = $3
      ORDER BY (link_id = $1) DESC NULLS LAST LIMIT 1${lock ? ' FOR UPDATE' : ''}`,
    [by.linkId ?? null, by.orderId ?? null, by.referenceId ?? null],
  );
  return linkRow(row);
}

/**
 * Moves a link forward to `status` (never back) and keeps its order id once known. Answers whether
 * the status moved.
 */
export async function advanceLink(
  tx: Queryable,
  linkId: string,
  status: LinkStatus,
  orderId: string | null,
): Promise<boolean> {
  if (orderId) {
    await tx.query('UPDATE payment_links SET order_id = $2 WHERE link_id = $1 AND order_id IS NULL', [linkId, orderId]);
  }
  const moved = await tx.query(
    `UPDATE payment_links SET status = $2, updated_at = now()
      WHERE link_id = $1 AND ${STATUS_RANK_SQL} < $3 RETURNING link_id`,
    [linkId, status, rankOf(status)],
  );
  return moved.length > 0;
}

/**
 * Links Razorpay may still take money on, or whose status moved in the last two days, the least
 * recently asked about first.
 */
export async function linksToReconcile(db: Queryable, limit: number): Promise<LinkRow[]> {
  const rows = await db.query<LinkRow>(
    `SELECT ${LINK_COLUMNS} FROM payment_links
      WHERE status IN ('created', 'partially_paid') OR updated_at > now() - interval '2 days'
      ORDER BY checked_at NULLS FIRST, id LIMIT $1`,
    [limit],
  );
  return rows.map((row) => linkRow(row) as LinkRow);
}

/** Marks a link asked about, so the next round starts with the others. */
export async function markLinkChecked(db: Queryable, linkId: string): Promise<void> {
  await db.query('UPDATE payment_links SET checked_at = now() WHERE link_id = $1', [linkId]);
}

/** Keeps a verified event; undefined when its event id was kept before. */
export async function insertEvent(
  db: Queryable,
  event: { eventId: string; event: string; rawBody: string },
): Promise<number | undefined> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO payment_gateway_events (event_id, event, raw_body) VALUES ($1, $2, $3)
     ON CONFLICT (event_id) DO NOTHING RETURNING id`,
    [event.eventId, event.event, event.rawBody],
  );
  return row ? Number(row.id) : undefined;
}

export async function markEventApplied(db: Queryable, id: number, outcome: string): Promise<void> {
  await db.query('UPDATE payment_gateway_events SET applied_at = now(), outcome = $2 WHERE id = $1', [
    id,
    outcome.slice(0, 100),
  ]);
}

export async function unappliedEvents(db: Queryable, limit: number): Promise<{ id: number; raw_body: string }[]> {
  const rows = await db.query<{ id: number; raw_body: string }>(
    `SELECT id, raw_body FROM payment_gateway_events WHERE applied_at IS NULL
      AND received_at < now() - interval '5 seconds' ORDER BY id LIMIT $1`,
    [limit],
  );
  return rows.map((row) => ({ id: Number(row.id), raw_body: row.raw_body }));
}

export async function gatewayPaymentExists(tx: Queryable, paymentId: string): Promise<boolean> {
  const rows = await tx.query('SELECT 1 FROM gateway_payments WHERE payment_id = $1', [paymentId]);
  return rows.length > 0;
}

export async function insertGatewayPayment(
  tx: Queryable,
  payment: {
    paymentId: string;
    linkId: string;
    familyId: number;
    amountPaise: number;
    method: string | null;
    transactionId: number;
    foundBy: 'webhook' | 'reconciler';
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO gateway_payments (payment_id, link_id, family_id, amount_paise, method, transaction_id, found_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (payment_id) DO NOTHING`,
    [
      payment.paymentId,
      payment.linkId,
      payment.familyId,
      payment.amountPaise,
      payment.method?.slice(0, 40) ?? null,
      payment.transactionId,
      payment.foundBy,
    ],
  );
}

/**
 * Reserves the family for making one link (migration 0035): true when this request may ask Razorpay.
 * False while another request's reservation stands; one older than `staleSeconds` (a request that
 * died between reserving and keeping its link) is taken over.
 */
export async function reserveLinkRequest(
  db: Queryable,
  reservation: { familyId: number; amountPaise: number; token: string; staleSeconds: number },
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO payment_link_reservations AS r (family_id, amount_paise, token) VALUES ($1, $2, $3)
     ON CONFLICT (family_id) DO UPDATE SET amount_paise = EXCLUDED.amount_paise, token = EXCLUDED.token, reserved_at = now()
       WHERE r.reserved_at < now() - make_interval(secs => $4)
     RETURNING family_id`,
    [reservation.familyId, reservation.amountPaise, reservation.token, reservation.staleSeconds],
  );
  return rows.length > 0;
}

/** Ends this request's reservation (its link kept, or Razorpay's call failed); another's is left alone. */
export async function releaseLinkRequest(db: Queryable, familyId: number, token: string): Promise<void> {
  await db.query('DELETE FROM payment_link_reservations WHERE family_id = $1 AND token = $2', [familyId, token]);
}

/** Whether some request holds the family's reservation now. */
export async function linkRequestPending(db: Queryable, familyId: number): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM payment_link_reservations WHERE family_id = $1', [familyId]);
  return rows.length > 0;
}
