import type { Queryable } from '../db/database';

/**
 * Erasure (ADR 027): what the scrub of students who left writes in place of a name, a phone or a
 * text it removes, as the audit log's erasure does (migration 0021).
 */
export const REMOVED = '[removed]';

/** A student the scrub just removed, with what their record held before. */
export interface ScrubbedStudent {
  id: number;
  unique_id: string;
  /** The name the student had. */
  name: string;
  parent_name: string;
  /** The family's phone (E.164), or '' when the record had none. */
  phone: string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A phone as it may be written: +919876543210, and its digits alone as WhatsApp writes them. */
export function phoneForms(phone: string): string[] {
  const digits = phone.replace(/\D/g, '');
  return digits === '' ? [] : [phone, digits];
}

/**
 * `text` with each of `names` (whole words: "Asha Rao" but not inside "Ashar") and `phones` (in
 * their written forms, never inside a longer number) replaced by "[removed]".
 */
export function removeWords(text: string, names: readonly string[], phones: readonly string[] = []): string {
  const words = [...new Set(names.map((name) => name.trim()).filter((name) => name !== '' && name !== REMOVED))];
  const numbers = [...new Set(phones.flatMap(phoneForms))];
  if (words.length === 0 && numbers.length === 0) return text;
  // Longest first, so "Asha Rao" goes whole rather than leaving " Rao" after "Asha".
  const byLength = (a: string, b: string) => b.length - a.length;
  const parts = [
    ...words.sort(byLength).map((word) => `(?<![\\p{L}\\p{N}\\p{M}])${escapeRegExp(word)}(?![\\p{L}\\p{N}\\p{M}])`),
    ...numbers.sort(byLength).map((number) => `(?<![0-9])${escapeRegExp(number)}(?![0-9])`),
  ];
  return text.replace(new RegExp(parts.join('|'), 'gu'), REMOVED);
}

/** `value` (any JSON) with `removeWords` applied to every string in it. */
export function removeWordsDeep(value: unknown, names: readonly string[], phones: readonly string[] = []): unknown {
  if (typeof value === 'string') return removeWords(value, names, phones);
  if (Array.isArray(value)) return value.map((item) => removeWordsDeep(item, names, phones));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, removeWordsDeep(item, names, phones)]));
  }
  return value;
}

/**
 * Of these phones, those no student holds any more: the families no longer on record, whose access,
 * conversation and texts the scrub removes. Called after the students were scrubbed.
 */
export async function familiesNoLongerOnRecord(tx: Queryable, phones: readonly string[]): Promise<string[]> {
  const rows = await tx.query<{ phone: string }>(
    `SELECT p.phone FROM unnest($1::text[]) AS p(phone)
      WHERE p.phone <> '' AND NOT EXISTS (SELECT 1 FROM students s WHERE s.parent_phone = p.phone)
      ORDER BY p.phone`,
    [[...new Set(phones)]],
  );
  return rows.map((row) => row.phone);
}

/**
 * What the scrubbed students' own rows elsewhere hold about them, whatever their family: the free
 * text of their attendance remarks and leave reasons (which may name the child or the parent) becomes
 * "[removed]"; their name leaves the texts of the messages about them (an absence alert, a leave
 * notice) and of those messages' WhatsApp attempts, and the answers kept for queued marks that name
 * them. Dates, statuses and counts stay.
 */
export async function eraseStudentTexts(tx: Queryable, students: readonly ScrubbedStudent[]): Promise<void> {
  if (students.length === 0) return;
  const ids = students.map((student) => student.id);
  const nameOf = new Map(students.map((student) => [student.id, student.name]));
  await tx.query(
    `UPDATE attendance SET remarks = $2 WHERE student_id = ANY($1::int[]) AND btrim(coalesce(remarks, '')) <> ''
        AND remarks <> $2`,
    [ids, REMOVED],
  );
  await tx.query(`UPDATE leave_requests SET reason = $2 WHERE student_id = ANY($1::int[]) AND reason <> $2`, [
    ids,
    REMOVED,
  ]);

  const messages = await tx.query<{ id: number; student_id: number; subject: string; message: string }>(
    'SELECT id, student_id, subject, message FROM messages WHERE student_id = ANY($1::int[]) ORDER BY id',
    [ids],
  );
  const changed = messages.flatMap((row) => {
    const names = [nameOf.get(row.student_id) ?? ''];
    const subject = removeWords(row.subject, names);
    const message = removeWords(row.message, names);
    return subject === row.subject && message === row.message ? [] : [{ id: row.id, subject, message }];
  });
  if (changed.length > 0) {
    await tx.query(
      `UPDATE messages m SET subject = c.subject, message = c.message
         FROM unnest($1::int[], $2::text[], $3::text[]) AS c(id, subject, message) WHERE m.id = c.id`,
      [changed.map((row) => row.id), changed.map((row) => row.subject), changed.map((row) => row.message)],
    );
  }
  const attempts = await tx.query<{
    id: number;
    student_id: number;
    whatsapp_text: string | null;
    whatsapp_parameters: unknown;
  }>(
    `SELECT a.id, m.student_id, a.whatsapp_text, a.whatsapp_parameters
       FROM message_attempts a JOIN messages m ON m.id = a.message_id
      WHERE m.student_id = ANY($1::int[]) AND (a.whatsapp_text IS NOT NULL OR a.whatsapp_parameters IS NOT NULL)
      ORDER BY a.id`,
    [ids],
  );
  const changedAttempts = attempts.flatMap((row) => {
    const names = [nameOf.get(row.student_id) ?? ''];
    const text = row.whatsapp_text === null ? null : removeWords(row.whatsapp_text, names);
    const parameters = removeWordsDeep(row.whatsapp_parameters, names);
    return text === row.whatsapp_text && JSON.stringify(parameters) === JSON.stringify(row.whatsapp_parameters)
      ? []
      : [{ id: row.id, text, parameters: parameters === null ? null : JSON.stringify(parameters) }];
  });
  if (changedAttempts.length > 0) {
    await tx.query(
      `UPDATE message_attempts a SET whatsapp_text = c.text, whatsapp_parameters = c.parameters::jsonb
         FROM unnest($1::bigint[], $2::text[], $3::text[]) AS c(id, text, parameters) WHERE a.id = c.id`,
      [
        changedAttempts.map((row) => row.id),
        changedAttempts.map((row) => row.text),
        changedAttempts.map((row) => row.parameters),
      ],
    );
  }

  // A device's queued marks are answered again from what was kept (30 days): a refusal names the child.
  const answers = await tx.query<{ user_id: number; submission_id: string; answer: { refused?: unknown[] } }>(
    `SELECT user_id, submission_id, answer FROM attendance_submissions s
      WHERE jsonb_typeof(s.answer -> 'refused') = 'array'
        AND EXISTS (SELECT 1 FROM jsonb_array_elements(s.answer -> 'refused') r
                     WHERE r ->> 'student_id' = ANY($1::text[]))`,
    [ids.map(String)],
  );
  for (const row of answers) {
    const refused = (row.answer.refused ?? []).map((entry) => {
      const id = Number((entry as { student_id?: unknown }).student_id);
      const name = nameOf.get(id);
      return name === undefined ? entry : { ...(removeWordsDeep(entry, [name]) as object), student_name: REMOVED };
    });
    await tx.query('UPDATE attendance_submissions SET answer = $3::jsonb WHERE user_id = $1 AND submission_id = $2', [
      row.user_id,
      row.submission_id,
      JSON.stringify({ ...row.answer, refused }),
    ]);
  }
}

/**
 * What still names a family no longer on record (no student holds its phone), besides its access,
 * devices and consent log (which `forgetFamilies` removes): the subjects and texts of the messages it
 * was sent and of their WhatsApp attempts become "[removed]" (they may name any of its children, or
 * the parent, in any form), and a delivery reason that quotes its phone too; WhatsApp's ids of the
 * messages sent (which encode the number) are dropped; where the phone was a sign-in account (addresses it signed in from, throttle counts); leave
 * requests it sent for a child now in another family; Razorpay's events that name it. Answers the ids
 * of its messages, whose audit rows lose the same texts. Must run before `forgetFamilies`, which empties the messages' recipient.
 */
export async function eraseFamilyTexts(tx: Queryable, phones: readonly string[]): Promise<number[]> {
  if (phones.length === 0) return [];
  const forms = phones.flatMap(phoneForms);
  const messages = await tx.query<{ id: number }>(
    `UPDATE messages SET subject = $2, message = $2,
            failure_reason = CASE WHEN EXISTS (SELECT 1 FROM unnest($3::text[]) f WHERE strpos(failure_reason, f) > 0)
                                  THEN $2 ELSE failure_reason END
      WHERE recipient = ANY($1::text[])
      RETURNING id`,
    [phones, REMOVED, forms],
  );
  const ids = messages.map((row) => row.id).sort((a, b) => a - b);
  if (ids.length > 0) {
    await tx.query(
      `UPDATE message_attempts
          SET whatsapp_text = CASE WHEN whatsapp_text IS NULL THEN NULL ELSE $2 END,
              whatsapp_parameters = CASE WHEN jsonb_typeof(whatsapp_parameters) = 'array'
                                         THEN (SELECT coalesce(jsonb_agg(to_jsonb($2::text)), '[]'::jsonb)
                                                 FROM jsonb_array_elements(whatsapp_parameters))
                                         ELSE whatsapp_parameters END,
              failure_reason = CASE WHEN EXISTS (SELECT 1 FROM unnest($3::text[]) f WHERE strpos(failure_reason, f) > 0)
                                    THEN $2 ELSE failure_reason END,
              waiting_reason = CASE WHEN EXISTS (SELECT 1 FROM unnest($3::text[]) f WHERE strpos(waiting_reason, f) > 0)
                                    THEN $2 ELSE waiting_reason END,
              -- WhatsApp's id of a sent message encodes the number it went to.
              provider_message_id = NULL
        WHERE message_id = ANY($1::int[])`,
      [ids, REMOVED, forms],
    );
  }
  const accounts = phones.map((phone) => `parent:${phone}`);
  await tx.query('DELETE FROM sign_in_addresses WHERE account = ANY($1::text[])', [accounts]);
  // Throttle keys are `<policy>:parent:<phone>` and `<policy>:parent:<phone>@<address>`.
  await tx.query(
    `DELETE FROM login_throttle WHERE substring(split_part(key, '@', 1) FROM ':(parent:.*)$') = ANY($1::text[])`,
    [accounts],
  );
  await tx.query(`UPDATE leave_requests SET parent_phone = '' WHERE parent_phone = ANY($1::text[])`, [phones]);
  // Razorpay's webhook events, kept as they came, name the payer (its phone, name, e-mail): the whole
  // body goes; the payments recorded from them stay in the ledger by the gateway's ids (ADR 053).
  await tx.query(
    `UPDATE payment_gateway_events SET raw_body = $2
      WHERE raw_body <> $2 AND EXISTS (SELECT 1 FROM unnest($1::text[]) f WHERE strpos(raw_body, f) > 0)`,
    [forms, REMOVED],
  );
  return ids;
}
