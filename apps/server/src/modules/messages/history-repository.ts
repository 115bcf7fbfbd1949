import type { FamilyMessage, MessageGroup } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';
import { COMMUNICATION_COLUMNS, withIsoTimes } from './repository';

/**
 * Where message `m` stands with its family, by THE definition (migration 0029's `message_reach`,
 * ADR 044) that the send list, the analytics and the dashboard read; `$1` is the time before which a
 * message still unproven was not reached.
 */
const REACH = 'message_reach(m.delivery_status, m.sent_by_hand_at, m.sent_at, $1::timestamptz)';

/**
 * A family with two messages in one send (two children absent on one approval) counts once, where the
 * better of them stands: the reaches from best to worst.
 */
const BEST_FIRST = "ARRAY['read', 'delivered', 'sent_by_hand', 'waiting', 'not_reached']";

const FAMILY_MESSAGE_COLUMNS = `${COMMUNICATION_COLUMNS}, ${REACH} AS reach, m.sent_by_hand_at, m.sent_by_hand_by`;

/** The messages of one send, a row a family, by the family's name; undefined when there is no such send. */
export async function listSendFamilies(
  db: Queryable,
  sendId: number,
  notReachedBefore: string,
): Promise<FamilyMessage[] | undefined> {
  const sends = await db.query('SELECT 1 FROM message_sends WHERE id = $1', [sendId]);
  if (sends.length === 0) return undefined;
  const rows = await db.query<FamilyMessage>(
    `SELECT ${FAMILY_MESSAGE_COLUMNS} FROM messages m WHERE m.send_id = $2
      ORDER BY coalesce(m.recipient_name, m.recipient), m.recipient, m.id`,
    [notReachedBefore, sendId],
  );
  return rows.map(withIsoTimes);
}

async function listFamilyMessages(db: Queryable, ids: number[], notReachedBefore: string): Promise<FamilyMessage[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<FamilyMessage>(
    `SELECT ${FAMILY_MESSAGE_COLUMNS} FROM messages m WHERE m.id = ANY($2::int[])`,
    [notReachedBefore, ids],
  );
  return rows.map(withIsoTimes);
}

type GroupRow = Omit<MessageGroup, 'family'> & { message_id: number | null };

/**
 * The history a message at a time, newest first: a send (a notice, one approval's alerts) is one
 * group with its families counted by where the message stands with each; a message stored without a
 * send (a WhatsApp message, an access or leave notice) is a group of its one family. Each family is
 * counted once, in one of read, delivered, sent_by_hand, not_reached, waiting: they add up to `families`.
 * A send whose messages are all gone (erased with their students) is not listed.
 */
export async function listMessageGroups(
  db: Queryable,
  page: { limit: number; offset: number },
  notReachedBefore: string,
): Promise<MessageGroup[]> {
  const rows = await db.query<GroupRow>(
    `WITH page AS (
       SELECT g.send_id, g.message_id, g.sent_at
         FROM (
           SELECT s.id AS send_id, NULL::integer AS message_id, s.sent_at
             FROM message_sends s
            WHERE EXISTS (SELECT 1 FROM messages m WHERE m.send_id = s.id)
           UNION ALL
           SELECT NULL::integer, m.id, m.sent_at FROM messages m WHERE m.send_id IS NULL
         ) g
        ORDER BY g.sent_at DESC, g.send_id DESC NULLS LAST, g.message_id DESC
        LIMIT $2 OFFSET $3
     )
     SELECT p.send_id, p.message_id, coalesce(s.kind, one.kind) AS kind,
            coalesce(s.subject, one.subject) AS subject, one.message,
            s.recipients, p.sent_at, coalesce(s.sent_by, one.sent_by) AS sent_by, c.*
       FROM page p
       LEFT JOIN message_sends s ON s.id = p.send_id
       CROSS JOIN LATERAL (
         SELECT m.kind, m.subject, m.message, m.sent_by
           FROM messages m
          WHERE m.send_id = p.send_id OR m.id = p.message_id
          ORDER BY m.language <> 'en', m.id
          LIMIT 1
       ) one
       CROSS JOIN LATERAL (
         SELECT count(*)::int AS families,
                count(*) FILTER (WHERE f.reach = 'read')::int AS read,
                count(*) FILTER (WHERE f.reach = 'delivered')::int AS delivered,
                count(*) FILTER (WHERE f.reach = 'sent_by_hand')::int AS sent_by_hand,
                count(*) FILTER (WHERE f.reach = 'not_reached')::int AS not_reached,
                count(*) FILTER (WHERE f.reach = 'waiting')::int AS waiting,
                count(*) FILTER (WHERE f.replied)::int AS replies
           FROM (
             SELECT r.recipient, bool_or(r.reply IS NOT NULL) AS replied,
                    (array_agg(r.reach ORDER BY array_position(${BEST_FIRST}, r.reach)))[1] AS reach
               FROM (
                 SELECT m.recipient, m.reply, ${REACH} AS reach
                   FROM messages m
                  WHERE m.send_id = p.send_id OR m.id = p.message_id
               ) r
              GROUP BY r.recipient
           ) f
       ) c
      ORDER BY p.sent_at DESC, p.send_id DESC NULLS LAST, p.message_id DESC`,
    [notReachedBefore, page.limit, page.offset],
  );
  const lone = rows.flatMap((row) => (row.message_id === null ? [] : [row.message_id]));
  const families = new Map((await listFamilyMessages(db, lone, notReachedBefore)).map((item) => [item.id, item]));
  return rows.map(({ message_id, ...group }) => ({
    ...group,
    family: message_id === null ? null : (families.get(message_id) ?? null),
  }));
}
