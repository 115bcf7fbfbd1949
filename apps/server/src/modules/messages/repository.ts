import type { Communication, DeliveryStatus } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';
import type { Actor } from '../../lib/activity-log';

const COMMUNICATION_COLUMNS = `id, message_type, subject, message, recipient, recipient_name, sent_at, sent_by,
  delivery_status, delivered_at, failure_reason`;

/**
 * Stores one in-app message per distinct parent phone among the students in scope (every student when
 * `className` is null), in a single statement so that thousands of parents cost one round trip. The
 * recipient name is the first non-empty parent name on record for that phone, else `Parent of` the
 * children in scope. Answers the new message ids.
 */
export async function insertParentMessages(
  tx: Queryable,
  message: { subject: string; body: string; className: string | null; sender: Actor },
): Promise<number[]> {
  const rows = await tx.query<{ id: number }>(
    `INSERT INTO messages
       (message_type, subject, message, recipient, recipient_name, sent_by, sent_by_user_id, delivery_status)
     SELECT 'IN_APP', $1, $2, parent.parent_phone,
            COALESCE(parent.parent_name, 'Parent of ' || parent.student_names),
            $3, $4, 'sent'
       FROM (
         SELECT s.parent_phone,
                (array_agg(btrim(s.parent_name) ORDER BY s.id) FILTER (WHERE btrim(s.parent_name) <> ''))[1]
                  AS parent_name,
                string_agg(s.full_name, ', ' ORDER BY s.full_name, s.id) AS student_names
           FROM students s
          WHERE $5::text IS NULL OR s.class_name = $5::text
          GROUP BY s.parent_phone
       ) AS parent
      ORDER BY parent.parent_phone
     RETURNING id`,
    [message.subject, message.body, message.sender.full_name, message.sender.id, message.className],
  );
  return rows.map((row) => row.id);
}

export async function insertWhatsappMessage(
  tx: Queryable,
  message: {
    body: string;
    recipient: string;
    recipientName: string | null;
    sender: Actor;
    status: DeliveryStatus;
    failureReason: string | null;
  },
): Promise<number> {
  const rows = await tx.query<{ id: number }>(
    `INSERT INTO messages
       (message_type, subject, message, recipient, recipient_name, sent_by, sent_by_user_id, delivery_status,
        failure_reason)
     VALUES ('WHATSAPP', 'WhatsApp message', $1, $2, $3, $4, $5, $6, $7)
     RETURNING id`,
    [
      message.body,
      message.recipient,
      message.recipientName,
      message.sender.full_name,
      message.sender.id,
      message.status,
      message.failureReason,
    ],
  );
  return (rows[0] as { id: number }).id;
}

/** Newest first; messages stored in one send share `sent_at`, so the id breaks the tie. */
export async function listCommunications(db: Queryable, limit: number, offset: number): Promise<Communication[]> {
  const rows = await db.queryCached<Communication>(
    `SELECT ${COMMUNICATION_COLUMNS} FROM messages ORDER BY sent_at DESC, id DESC LIMIT $1 OFFSET $2`,
    [limit, offset],
  );
  return [...rows];
}

export interface MessageStudent {
  id: number;
  unique_id: string;
  full_name: string;
  parent_name: string;
  parent_phone: string;
}

const STUDENT_COLUMNS = 'id, unique_id, full_name, parent_name, parent_phone';

export async function findStudentById(db: Queryable, id: number): Promise<MessageStudent | undefined> {
  const rows = await db.query<MessageStudent>(`SELECT ${STUDENT_COLUMNS} FROM students WHERE id = $1`, [id]);
  return rows[0];
}

export async function findStudentByUniqueId(db: Queryable, uniqueId: string): Promise<MessageStudent | undefined> {
  const rows = await db.query<MessageStudent>(`SELECT ${STUDENT_COLUMNS} FROM students WHERE unique_id = upper($1)`, [
    uniqueId,
  ]);
  return rows[0];
}
