import type { FeeReminderAnswer, FeeReminderReply } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';

export type ReplyVia = 'parent_app' | 'whatsapp';

/** A fee reminder a family may answer, locked. */
export interface FeeReminderToAnswer {
  id: number;
  family_id: number;
  recipient_name: string | null;
  answered: boolean;
}

/**
 * The fee reminder `messageId` sent to `phone`, its message row locked (two answers at once wait for
 * each other); undefined when it is not a fee reminder to that phone.
 */
export async function lockFeeReminder(
  tx: Queryable,
  phone: string,
  messageId: number,
): Promise<FeeReminderToAnswer | undefined> {
  const rows = await tx.query<FeeReminderToAnswer>(
    `SELECT m.id, m.recipient_name, r.family_id,
            EXISTS (SELECT 1 FROM fee_reminder_answers a WHERE a.message_id = m.id) AS answered
       FROM messages m
       JOIN LATERAL (SELECT family_id FROM fee_reminders WHERE message_id = m.id ORDER BY id LIMIT 1) r ON true
      WHERE m.id = $1 AND m.recipient = $2 AND m.kind = 'fee_reminder'
      FOR UPDATE OF m`,
    [messageId, phone],
  );
  const row = rows[0];
  return row ? { ...row, family_id: Number(row.family_id) } : undefined;
}

export interface NewAnswer {
  messageId: number;
  familyId: number;
  reply: FeeReminderReply;
  reference: string | null;
  promisedOn: string | null;
  via: ReplyVia;
}

/** The family's answer to a reminder; false when the reminder was answered already. */
export async function insertAnswer(tx: Queryable, answer: NewAnswer): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO fee_reminder_answers (message_id, family_id, reply, reference, promised_on, via)
     VALUES ($1, $2, $3, $4, $5::date, $6)
     ON CONFLICT (message_id) DO NOTHING RETURNING message_id`,
    [answer.messageId, answer.familyId, answer.reply, answer.reference, answer.promisedOn, answer.via],
  );
  return rows.length > 0;
}

/** "Paid already": an open task for the admin, with the reference the family gave (or none yet). */
export async function insertMatchTask(
  tx: Queryable,
  task: { familyId: number; messageId: number; reference: string | null; via: ReplyVia },
): Promise<void> {
  await tx.query('INSERT INTO fee_match_tasks (family_id, message_id, reference, via) VALUES ($1, $2, $3, $4)', [
    task.familyId,
    task.messageId,
    task.reference,
    task.via,
  ]);
}

/**
 * "Please call me": the reminder goes on the call list as an alert's "call" reply puts it there. An
 * answer in the app also marks the reminder opened there.
 */
export async function requestCall(tx: Queryable, messageId: number, inApp: boolean): Promise<void> {
  await tx.query(
    `UPDATE messages SET call_requested_at = COALESCE(call_requested_at, now()),
            read_at = CASE WHEN $2 THEN COALESCE(read_at, now()) ELSE read_at END
      WHERE id = $1`,
    [messageId, inApp],
  );
}

/** Answering in the app shows the parent opened the reminder. */
export async function markOpened(tx: Queryable, messageId: number): Promise<void> {
  await tx.query('UPDATE messages SET read_at = COALESCE(read_at, now()) WHERE id = $1', [messageId]);
}

/** A family's answer to a reminder, as the parent app shows it. */
export async function findAnswer(db: Queryable, messageId: number): Promise<FeeReminderAnswer | undefined> {
  const rows = await db.query<FeeReminderAnswer>(
    `SELECT reply, reference, to_char(promised_on, 'YYYY-MM-DD') AS date, answered_at AS at
       FROM fee_reminder_answers WHERE message_id = $1`,
    [messageId],
  );
  return rows[0];
}

// ---- WhatsApp: the parent's next text after a tap ----

/** The latest fee button tapped from this phone within the day before `at`, with the texts since. */
export interface PendingTap {
  inbound_id: number;
  payload: string;
  texts_since: number;
}

/**
 * The last "Paid already" or "Will pay on …" button this phone tapped in the 24 hours before `at`,
 * and how many plain texts came after it (not counting the text being read). The taps are stored with their
 * payload in `whatsapp_inbound.reply`.
 */
export async function findPendingTap(
  tx: Queryable,
  phone: string,
  at: Date,
  currentProviderId: string,
): Promise<PendingTap | undefined> {
  const rows = await tx.query<PendingTap>(
    `SELECT i.id AS inbound_id, i.reply AS payload,
            (SELECT count(*)::int FROM whatsapp_inbound t
              WHERE t.phone = i.phone AND t.id > i.id AND t.provider_message_id <> $3 AND t.kind = 'text') AS texts_since
       FROM whatsapp_inbound i
      WHERE i.phone = $1 AND i.reply LIKE 'fee:%' AND i.provider_message_id <> $3
        AND i.received_at > $2::timestamptz - interval '24 hours'
      ORDER BY i.received_at DESC, i.id DESC LIMIT 1`,
    [phone, at.toISOString(), currentProviderId],
  );
  const row = rows[0];
  return row ? { ...row, inbound_id: Number(row.inbound_id) } : undefined;
}

/**
 * Fills the reference of the phone's family's open WhatsApp task that still waits for it (and the answer's),
 * claimed in the 24 hours before `at`; false when none waits. Of two texts at once, the first fills it
 * (the second waits for the row, then finds it filled).
 */
export async function fillWaitingReference(
  tx: Queryable,
  phone: string,
  reference: string,
  at: Date,
): Promise<boolean> {
  const rows = await tx.query<{ message_id: number | null }>(
    `UPDATE fee_match_tasks SET reference = $2
      WHERE id = (SELECT id FROM fee_match_tasks
                   WHERE family_id = (SELECT id FROM fee_families WHERE phone = $1) AND via = 'whatsapp' AND status = 'open' AND reference IS NULL
                     AND claimed_at > $3::timestamptz - interval '24 hours'
                   ORDER BY claimed_at DESC, id DESC LIMIT 1 FOR UPDATE)
        AND reference IS NULL
      RETURNING message_id`,
    [phone, reference, at.toISOString()],
  );
  if (rows.length === 0) return false;
  const messageId = rows[0]?.message_id;
  if (messageId !== null && messageId !== undefined) {
    await tx.query('UPDATE fee_reminder_answers SET reference = $2 WHERE message_id = $1 AND reference IS NULL', [
      messageId,
      reference,
    ]);
  }
  return true;
}
