import type { Queryable } from '../../db/database';

export interface InboundMessage {
  phone: string;
  providerMessageId: string;
  kind: string;
  body: string;
  reply: string | null;
  contextProviderMessageId: string | null;
  receivedAt: Date;
}

/** Stores what a parent wrote; false when this wamid was stored before (a callback delivered twice). */
export async function insertInbound(tx: Queryable, message: InboundMessage): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO whatsapp_inbound (phone, provider_message_id, kind, body, reply, context_provider_message_id, received_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7::timestamptz)
     ON CONFLICT (provider_message_id) DO NOTHING
     RETURNING id`,
    [
      message.phone,
      message.providerMessageId,
      message.kind,
      message.body,
      message.reply,
      message.contextProviderMessageId,
      message.receivedAt.toISOString(),
    ],
  );
  return rows.length > 0;
}

/** The message a button reply answers, found by the wamid of the template it was tapped on. */
export async function findMessageByProviderId(db: Queryable, providerMessageId: string): Promise<number | undefined> {
  const rows = await db.query<{ message_id: number }>(
    'SELECT message_id FROM message_attempts WHERE provider_message_id = $1',
    [providerMessageId],
  );
  return rows[0]?.message_id;
}

/** A family name for an activity line: the parent's name on record, else `Parent of` the children. */
export async function familyName(db: Queryable, phone: string): Promise<string> {
  const rows = await db.query<{ name: string | null }>(
    `SELECT COALESCE((array_agg(btrim(parent_name) ORDER BY id) FILTER (WHERE btrim(parent_name) <> ''))[1],
                     'Parent of ' || string_agg(full_name, ', ' ORDER BY full_name, id)) AS name
       FROM students WHERE parent_phone = $1`,
    [phone],
  );
  return rows[0]?.name ?? `WhatsApp ${phone}`;
}
