import type { AttendanceStatus, MessageKind, MessageType, ParentLanguage } from '@tuitiondesk/contract';
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
}

const FAMILY_CHANNELS = `
  bool_and(s.parent_whatsapp_opt_in) AS opted_in,
  (array_agg(s.parent_language ORDER BY s.id))[1] AS language,
  EXISTS (SELECT 1 FROM push_subscriptions p WHERE p.phone = s.parent_phone AND p.revoked_at IS NULL) AS has_device`;

/**
 * The language a family reads (the one phone's records agree; if ever not, the first record's, as
 * every send reads it), or English for a phone with no student.
 */
export async function findFamilyLanguage(db: Queryable, phone: string): Promise<ParentLanguage> {
  const rows = await db.query<{ language: ParentLanguage }>(
    'SELECT parent_language AS language FROM students WHERE parent_phone = $1 ORDER BY id LIMIT 1',
    [phone],
  );
  return rows[0]?.language ?? 'en';
}

/**
 * The students whose families a notice to `$1` goes to: those of the class (every class when null)
 * who have not left (ADR 027). Sending and counting before sending read this one selection, so the
 * count shown in the send dialog is the number of families the send writes to.
 */
const NOTICE_STUDENTS = `FROM students s WHERE ($1::text IS NULL OR s.class_name = $1::text) AND s.left_on IS NULL`;

/** One family per distinct parent phone among the students of `className` (every class when null). */
export async function findFamilies(db: Queryable, className: string | null): Promise<FamilyChannels[]> {
  return db.query<FamilyChannels>(
    `SELECT s.parent_phone AS phone,
            COALESCE((array_agg(btrim(s.parent_name) ORDER BY s.id) FILTER (WHERE btrim(s.parent_name) <> ''))[1],
                     'Parent of ' || string_agg(s.full_name, ', ' ORDER BY s.full_name, s.id)) AS recipient_name,
            ${FAMILY_CHANNELS}
       ${NOTICE_STUDENTS}
      GROUP BY s.parent_phone
      ORDER BY s.parent_phone`,
    [className],
  );
}

/** How many families `findFamilies` finds for `className`, without building them. */
export async function countFamilies(db: Queryable, className: string | null): Promise<number> {
  const rows = await db.queryCached<{ families: number }>(
    `SELECT count(DISTINCT s.parent_phone)::int AS families ${NOTICE_STUDENTS}`,
    [className],
  );
  return rows[0]?.families ?? 0;
}

/** An approved absent or late record an alert is about, with its family's channels. */
export interface AlertSubject extends FamilyChannels {
  attendance_id: number;
  student_id: number;
  student_name: string;
  class_name: string;
  date: string;
  status: AttendanceStatus;
  remarks: string | null;
}

/** The records among `attendanceIds` whose status is one of `statuses`, by date then name. */
export async function findAlertSubjects(
  db: Queryable,
  attendanceIds: readonly number[],
  statuses: readonly string[],
): Promise<AlertSubject[]> {
  return db.query<AlertSubject>(
    `SELECT a.id AS attendance_id, a.student_id, st.full_name AS student_name, a.class_name,
            to_char(a.date, 'YYYY-MM-DD') AS date, a.status, a.remarks,
            st.parent_phone AS phone,
            COALESCE(NULLIF(btrim(st.parent_name), ''), 'Parent of ' || st.full_name) AS recipient_name,
            f.opted_in, f.language, f.has_device
       FROM attendance a
       JOIN students st ON st.id = a.student_id
       JOIN LATERAL (
         SELECT ${FAMILY_CHANNELS} FROM students s WHERE s.parent_phone = st.parent_phone GROUP BY s.parent_phone
       ) f ON true
      WHERE a.id = ANY($1::int[]) AND a.status = ANY($2::text[])
        -- A student who left is no longer written about, even for a day before they left.
        AND st.left_on IS NULL
      ORDER BY a.date, lower(st.full_name), a.id`,
    [[...attendanceIds], [...statuses]],
  );
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
  delivery_status: 'queued' | 'failed';
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
