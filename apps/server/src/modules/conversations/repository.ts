import type { ConversationEntry, ConversationSummary } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';

const CONVERSATION_LIMIT = 200;
const WINDOW = "interval '24 hours'";

/** The family's name on record for a phone: a parent name, else `Parent of` the children. */
const NAME_OF = (phone: string) => `(SELECT COALESCE(
    (array_agg(btrim(s.parent_name) ORDER BY s.id) FILTER (WHERE btrim(s.parent_name) <> ''))[1],
    'Parent of ' || string_agg(s.full_name, ', ' ORDER BY s.full_name, s.id))
   FROM students s WHERE s.parent_phone = ${phone})`;

/** One line per phone that wrote to the centre on WhatsApp, the latest conversation first. */
export async function listConversations(db: Queryable): Promise<ConversationSummary[]> {
  return db.query<ConversationSummary>(
    `WITH inbound AS (
       SELECT phone, max(received_at) AS last_in FROM whatsapp_inbound GROUP BY phone
     ),
     lines AS (
       SELECT i.phone, i.body AS text, i.received_at AS at FROM whatsapp_inbound i
       UNION ALL
       SELECT m.recipient, m.message, m.sent_at FROM messages m
        WHERE m.message_type = 'WHATSAPP' AND m.recipient IN (SELECT phone FROM inbound)
     ),
     latest AS (
       SELECT DISTINCT ON (phone) phone, text, at FROM lines ORDER BY phone, at DESC
     )
     SELECT l.phone, ${NAME_OF('l.phone')} AS recipient_name, l.text AS last_text, l.at AS last_at,
            CASE WHEN i.last_in + ${WINDOW} > now() THEN i.last_in + ${WINDOW} END AS window_open_until
       FROM latest l JOIN inbound i ON i.phone = l.phone
      ORDER BY l.at DESC
      LIMIT 500`,
  );
}

export async function findConversation(
  db: Queryable,
  phone: string,
): Promise<
  { recipient_name: string | null; window_open_until: string | null; entries: ConversationEntry[] } | undefined
> {
  const head = await db.query<{ recipient_name: string | null; window_open_until: string | null }>(
    `SELECT ${NAME_OF('$1')} AS recipient_name,
            CASE WHEN max(received_at) + ${WINDOW} > now() THEN max(received_at) + ${WINDOW} END AS window_open_until
       FROM whatsapp_inbound WHERE phone = $1 HAVING count(*) > 0`,
    [phone],
  );
  if (!head[0]) return undefined;
  const entries = await db.query<ConversationEntry>(
    `SELECT * FROM (
       SELECT 'in:' || i.id AS id, 'in' AS direction, i.body AS text, i.received_at AS at, NULL AS delivery_status, NULL AS sent_by
         FROM whatsapp_inbound i WHERE i.phone = $1
       UNION ALL
       SELECT 'out:' || m.id, 'out', m.message, m.sent_at, m.delivery_status, m.sent_by
         FROM messages m WHERE m.recipient = $1 AND m.message_type = 'WHATSAPP'
       ORDER BY at DESC
       LIMIT $2
     ) recent ORDER BY at`,
    [phone, CONVERSATION_LIMIT],
  );
  return { ...head[0], entries };
}

/**
 * Erasure (ADR 027): the WhatsApp conversations of families no longer on record go whole: what the
 * parent wrote, and with it the 24-hour window their last message opened (free text may no longer be
 * sent). The centre's messages to them stay, without recipient or text (`eraseFamilyTexts`).
 */
export async function forgetConversations(tx: Queryable, phones: readonly string[]): Promise<void> {
  if (phones.length === 0) return;
  await tx.query('DELETE FROM whatsapp_inbound WHERE phone = ANY($1::text[])', [[...phones]]);
}
