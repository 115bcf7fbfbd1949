import type { Communication, ParentLanguage } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';
import type { ActivityActor } from '../../lib/activity-log';
import { formatTimestamp, parsePostgresTimestamp } from '../../lib/time';
import type { WhatsappRequest } from '../delivery';

export const COMMUNICATION_COLUMNS = `m.id, m.message_type, m.kind, m.subject, m.message, m.recipient, m.recipient_name, m.sent_at,
  m.sent_by, m.delivery_status, m.delivered_at, m.failure_reason, m.language, m.reply,
  COALESCE((
    SELECT json_agg(json_build_object(
             'channel', a.channel, 'status', a.status, 'failure_reason', a.failure_reason,
             'error_code', a.error_code, 'waiting_reason', a.waiting_reason, 'created_at', a.created_at,
             'sent_at', a.sent_at, 'delivered_at', a.delivered_at, 'read_at', a.read_at) ORDER BY a.id)
      FROM message_attempts a WHERE a.message_id = m.id
  ), '[]'::json) AS attempts`;

/** Newest first; messages stored in one send share `sent_at`, so the id breaks the tie. */
export async function listCommunications(db: Queryable, limit: number, offset: number): Promise<Communication[]> {
  const rows = await db.queryCached<Communication>(
    `SELECT ${COMMUNICATION_COLUMNS} FROM messages m ORDER BY m.sent_at DESC, m.id DESC LIMIT $1 OFFSET $2`,
    [limit, offset],
  );
  return rows.map(withIsoTimes);
}

/** Times inside json_build_object are not read by the driver's parsers: printed the way every other time is. */
export function withIsoTimes<Row extends Communication>(row: Row): Row {
  return {
    ...row,
    attempts: row.attempts.map((attempt) => ({
      ...attempt,
      created_at: iso(attempt.created_at) as string,
      sent_at: iso(attempt.sent_at),
      delivered_at: iso(attempt.delivered_at),
      read_at: iso(attempt.read_at),
    })),
  };
}

function iso(value: string | null): string | null {
  return value === null ? null : formatTimestamp(parsePostgresTimestamp(value));
}

/**
 * A one-off WhatsApp message and its attempt: either being sent now (claimed, so no worker takes it
 * unless this sender dies before recording the outcome: then it goes once the lease runs out), or
 * waiting for the daily limit. Answers both ids.
 */
export async function insertOneOffWhatsapp(
  tx: Queryable,
  message: {
    body: string;
    recipient: string;
    recipientName: string | null;
    sender: ActivityActor;
    request: WhatsappRequest;
    state: { kind: 'sending'; counted: boolean; leaseMs: number } | { kind: 'waiting'; until: Date; reason: string };
    /** The language the text is in: English unless the server wrote it in the family's language. */
    language?: ParentLanguage;
  },
): Promise<{ messageId: number; attemptId: number }> {
  const { state, request } = message;
  const rows = await tx.query<{ id: number }>(
    `INSERT INTO messages
       (message_type, kind, subject, message, recipient, recipient_name, sent_by, sent_by_user_id, delivery_status, language)
     VALUES ('WHATSAPP', 'whatsapp', 'WhatsApp message', $1, $2, $3, $4, $5, 'queued', $6)
     RETURNING id`,
    [
      message.body,
      message.recipient,
      message.recipientName,
      message.sender.full_name,
      message.sender.id,
      message.language ?? 'en',
    ],
  );
  const messageId = (rows[0] as { id: number }).id;
  const attempt = await tx.query<{ id: number }>(
    `INSERT INTO message_attempts
       (message_id, channel, whatsapp_template, whatsapp_language, whatsapp_parameters, whatsapp_text,
        tries, next_attempt_at, waiting_reason, conversation_at)
     VALUES ($1, 'whatsapp', $2, $3, $4::jsonb, $5, $6,
             CASE WHEN $7::timestamptz IS NULL THEN now() + $8::int * interval '1 millisecond' ELSE $7::timestamptz END,
             $9, CASE WHEN $10 THEN now() END)
     RETURNING id`,
    [
      messageId,
      request.kind === 'template' ? request.template : null,
      request.kind === 'template' ? request.language : null,
      request.kind === 'template' ? JSON.stringify(request.parameters) : null,
      request.kind === 'text' ? request.body : null,
      state.kind === 'sending' ? 1 : 0,
      state.kind === 'waiting' ? state.until.toISOString() : null,
      state.kind === 'sending' ? state.leaseMs : 0,
      state.kind === 'waiting' ? state.reason : null,
      state.kind === 'sending' && state.counted,
    ],
  );
  return { messageId, attemptId: (attempt[0] as { id: number }).id };
}

/**
 * Where a phone stands with WhatsApp: the family agreed (every record with the phone says yes), or the
 * parent withdrew it themselves (their last consent change came from a STOP reply or the parent app).
 */
export async function whatsappStanding(
  db: Queryable,
  phone: string,
): Promise<{ optedIn: boolean; optedOutByParent: boolean }> {
  const rows = await db.query<{ opted_in: boolean | null; parent_withdrew: boolean | null }>(
    `SELECT (SELECT bool_and(parent_whatsapp_opt_in) FROM students WHERE parent_phone = $1) AS opted_in,
            (SELECT NOT l.opted_in AND l.source IN ('whatsapp_reply', 'parent_app')
               FROM whatsapp_consent_log l WHERE l.phone = $1 ORDER BY l.changed_at DESC, l.id DESC LIMIT 1)
              AS parent_withdrew`,
    [phone],
  );
  const row = rows[0];
  return { optedIn: row?.opted_in === true, optedOutByParent: row?.parent_withdrew === true };
}

export interface MessageStudent {
  id: number;
  unique_id: string;
  full_name: string;
  parent_name: string;
  parent_phone: string;
  left_on: string | null;
}

const STUDENT_COLUMNS =
  "id, unique_id, full_name, parent_name, parent_phone, to_char(left_on, 'YYYY-MM-DD') AS left_on";

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
