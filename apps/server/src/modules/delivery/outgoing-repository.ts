import type { MessageKind, MessageType, ParentLanguage } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';
import type { Actor } from '../../lib/activity-log';

/** What the sender needs to know about a family to choose its channels. */
export interface FamilyChannels {
  phone: string;
  /** The first parent name on record, else `Parent of` the children. */
  recipient_name: string;
  language: ParentLanguage;
  /** Every record of the family says yes (they agree; if ever not, consent is not assumed). */
  opted_in: boolean;
  /** The family has a device that allowed notifications (a live push subscription). */
  has_device: boolean;
  /**
   * The family signed in to the parent app with its current code: its inbox shows what is sent, and
   * showing it counts as delivered (ADR 044), even without notifications.
   */
  has_inbox: boolean;
}

export async function insertSend(
  tx: Queryable,
  send: { kind: MessageKind; subject: string; recipients: string; templateId: number | null; sender: Actor },
): Promise<number> {
  const rows = await tx.query<{ id: number }>(
    `INSERT INTO message_sends (kind, subject, recipients, template_id, sent_by, sent_by_user_id)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [send.kind, send.subject, send.recipients, send.templateId, send.sender.full_name, send.sender.id],
  );
  return (rows[0] as { id: number }).id;
}

/** A message row to store: one family, one send. */
export interface NewMessage {
  message_type: MessageType;
  kind: MessageKind;
  subject: string;
  message: string;
  recipient: string;
  recipient_name: string;
  language: ParentLanguage;
  student_id: number | null;
  attendance_id: number | null;
  /** queued for a channel; sent: waiting in the parent app's inbox (no device to push to); failed: no channel. */
  delivery_status: 'queued' | 'sent' | 'failed';
  failure_reason: string | null;
}

/**
 * Stores the messages of one send in one statement (thousands of families cost one round trip), in the
 * given order. Answers the new ids in that order.
 */
export async function insertMessages(
  tx: Queryable,
  sendId: number | null,
  sender: Actor,
  messages: readonly NewMessage[],
): Promise<number[]> {
  if (messages.length === 0) return [];
  const column = <K extends keyof NewMessage>(key: K) => messages.map((message) => message[key]);
  // Each row takes its id from the sequence in the input's order, so the answer pairs ids with the
  // input without joining 5,000 inserted rows back to 5,000 input rows.
  const rows = await tx.query<{ id: number; ord: number }>(
    `WITH input AS MATERIALIZED (
       SELECT t.*, nextval(pg_get_serial_sequence('messages', 'id'))::int AS id
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                     $8::int[], $9::int[], $10::text[], $11::text[])
              WITH ORDINALITY AS t(message_type, kind, subject, message, recipient, recipient_name, language,
                                   student_id, attendance_id, delivery_status, failure_reason, ord)
     ),
     inserted AS (
       INSERT INTO messages
         (id, message_type, kind, subject, message, recipient, recipient_name, language, student_id, attendance_id,
          delivery_status, failure_reason, send_id, sent_by, sent_by_user_id)
       SELECT id, message_type, kind, subject, message, recipient, recipient_name, language, student_id,
              attendance_id, delivery_status, failure_reason, $12, $13, $14
         FROM input ORDER BY ord
     )
     SELECT id, ord::int AS ord FROM input`,
    [
      column('message_type'),
      column('kind'),
      column('subject'),
      column('message'),
      column('recipient'),
      column('recipient_name'),
      column('language'),
      column('student_id'),
      column('attendance_id'),
      column('delivery_status'),
      column('failure_reason'),
      sendId,
      sender.full_name,
      sender.id,
    ],
  );
  const ids = new Array<number>(messages.length);
  for (const row of rows) ids[row.ord - 1] = row.id;
  return ids;
}

/** A WhatsApp attempt to queue: a template, due after `delayMs`. */
export interface NewWhatsappAttempt {
  message_id: number;
  template: string;
  language: string;
  parameters: string[];
  buttons: boolean;
  delay_ms: number;
  waiting_reason: string | null;
}

export async function insertWhatsappAttempts(tx: Queryable, attempts: readonly NewWhatsappAttempt[]): Promise<void> {
  if (attempts.length === 0) return;
  await tx.query(
    `INSERT INTO message_attempts
       (message_id, channel, whatsapp_template, whatsapp_language, whatsapp_parameters, whatsapp_buttons,
        next_attempt_at, waiting_reason)
     SELECT message_id, 'whatsapp', template, language, parameters::jsonb, buttons,
            now() + delay_ms * interval '1 millisecond', waiting_reason
       FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::boolean[], $6::int[], $7::text[])
         AS t(message_id, template, language, parameters, buttons, delay_ms, waiting_reason)
      ORDER BY message_id`,
    [
      attempts.map((a) => a.message_id),
      attempts.map((a) => a.template),
      attempts.map((a) => a.language),
      attempts.map((a) => JSON.stringify(a.parameters)),
      attempts.map((a) => a.buttons),
      attempts.map((a) => a.delay_ms),
      attempts.map((a) => a.waiting_reason),
    ],
  );
}
