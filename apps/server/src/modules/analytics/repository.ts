import type { Queryable } from '../../db/database';

/** Counts for a group of family messages: how many, and how they fared. */
export interface ReachRow {
  families: number;
  in_app: number;
  whatsapp: number;
  delivered: number;
  read: number;
  replies: number;
  sent_by_hand: number;
  not_reached: number;
}

/**
 * One group of the count: the whole range (`level` 'total'), one day of it ('day'), or one send
 * ('send', with the send's own fields). Every row also carries the month's WhatsApp template messages.
 */
export interface ReachGroupRow extends ReachRow {
  level: 'total' | 'day' | 'send';
  day: string | null;
  send_id: number | null;
  kind: string | null;
  subject: string | null;
  recipients: string | null;
  sent_at: string | null;
  sent_by: string | null;
  template_messages: number;
}

export interface ReachQuery {
  /** First and last centre day of the range, yyyy-MM-dd. */
  from: string;
  to: string;
  /** The first day of the month whose WhatsApp template messages are counted, yyyy-MM-dd. */
  month: string;
  /** The centre's IANA time zone: days start at its midnight. */
  timeZone: string;
  /** A message sent before this and still unproven was not reached (the send list's minute, ISO). */
  notReachedBefore: string;
}

/**
 * Family messages (notices and alerts) sent in the range, counted in FAMILIES (distinct parent phones),
 * not rows, in one pass (GROUPING SETS): in total, per centre day and per send. Where a message stands
 * is the shared definition (`message_reach`, migration 0029, ADR 044), the one the send list and the
 * dashboard read: a family is reached when a message to it was delivered or read (in the app, the
 * inbox showing it, or on WhatsApp, by the channel that reached it), sent by hand when staff sent it
 * from their phone, and not reached when nothing reached it (failed, or unproven by `notReachedBefore`).
 * Messages without a send (stored before sends were recorded) count in the totals and days only. The
 * same statement counts the month's WhatsApp template messages, each of which Meta charges.
 */
export async function countReach(db: Queryable, query: ReachQuery): Promise<ReachGroupRow[]> {
  return db.query<ReachGroupRow>(
    `WITH family AS (
       SELECT to_char((m.sent_at AT TIME ZONE $3)::date, 'YYYY-MM-DD') AS day, m.send_id, m.recipient, m.message_type,
              message_reach(m.delivery_status, m.sent_by_hand_at, m.sent_at, $4::timestamptz) AS reach, m.reply
         FROM messages m
        WHERE m.sent_at >= ($1::date)::timestamp AT TIME ZONE $3
          AND m.sent_at < ($2::date + 1)::timestamp AT TIME ZONE $3
          AND m.kind IN ('notice', 'absence_alert', 'late_alert')
     ), grouped AS (
       SELECT CASE GROUPING(f.day, f.send_id) WHEN 1 THEN 'day' WHEN 2 THEN 'send' ELSE 'total' END AS level,
              f.day, f.send_id,
              count(DISTINCT f.recipient)::int AS families,
              count(DISTINCT f.recipient) FILTER (WHERE f.reach IN ('delivered', 'read') AND f.message_type = 'IN_APP')::int AS in_app,
              count(DISTINCT f.recipient) FILTER (WHERE f.reach IN ('delivered', 'read') AND f.message_type = 'WHATSAPP')::int AS whatsapp,
              count(DISTINCT f.recipient) FILTER (WHERE f.reach IN ('delivered', 'read'))::int AS delivered,
              count(DISTINCT f.recipient) FILTER (WHERE f.reach = 'read')::int AS read,
              count(DISTINCT f.recipient) FILTER (WHERE f.reply IS NOT NULL)::int AS replies,
              count(DISTINCT f.recipient) FILTER (WHERE f.reach = 'sent_by_hand')::int AS sent_by_hand,
              count(DISTINCT f.recipient) FILTER (WHERE f.reach = 'not_reached')::int AS not_reached
         FROM family f
        GROUP BY GROUPING SETS ((f.day), (f.send_id), ())
     ), template_messages AS (
       SELECT count(*)::int AS template_messages
         FROM message_attempts a
        WHERE a.channel = 'whatsapp' AND a.whatsapp_template IS NOT NULL
          AND a.sent_at >= ($5::date)::timestamp AT TIME ZONE $3
          AND a.sent_at < ($5::date + interval '1 month') AT TIME ZONE $3
     )
     SELECT g.*, s.kind, s.subject, s.recipients, s.sent_at, s.sent_by, t.template_messages
       FROM grouped g
       CROSS JOIN template_messages t
       LEFT JOIN message_sends s ON g.level = 'send' AND s.id = g.send_id
      WHERE g.level <> 'send' OR s.id IS NOT NULL
      ORDER BY g.level, g.day, s.sent_at DESC, s.id DESC`,
    [query.from, query.to, query.timeZone, query.notReachedBefore, query.month],
  );
}
