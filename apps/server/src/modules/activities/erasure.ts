import {
  ACTIVITY_TEXTS,
  type ActivityParamValue,
  formatActivityText,
  isActivityTextCode,
  withClassNames,
} from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';
import { classLabelsOf, classValuesIn } from '../../lib/activity-log';
import { phoneForms, REMOVED, removeWords, type ScrubbedStudent } from '../../lib/erasure';
import { readableDate } from '../../lib/time';

/**
 * Erasure in the activity feed (ADR 027): the scrub of students who left removes, from the feed's
 * rows, the names of the children it scrubbed and everything that names a family no longer on record
 * (its phone, the parent's name, the parent as the one who did it), as "[removed]", in the same
 * transaction as the rest of the scrub. The rows stay: who on the staff did what, and when.
 *
 * A row is found by what it is about, not by a name alone (two children may share one):
 * - a student's own rows (added, changed, left, restored...) by their Student ID;
 * - a leave request's rows by the child's name and the request's days, a reply to an alert by the
 *   child's name and the day of the record, a consent change by the child's name and the phone;
 * - a family's rows (its access code, WhatsApp consent, messages, the call list) by its phone.
 * The English description is written again from the row's code and what is left of its params. Rows
 * from before texts had codes (migration 0025) hold only their English: there the names and phones
 * are replaced where they appear in the text.
 */

/** The feed's actions done by the parent, whose name (or "Parent of …", or phone) is the row's actor. */
const PARENT_ACTIONS = new Set([
  'messages.whatsapp_opt_in',
  'messages.whatsapp_opt_out',
  'messages.parent_replied',
  'leave.requested',
  'leave.withdrawn',
]);
const PHONE_KEYS = ['phone', 'old_phone', 'new_phone'];
/** Params that name the family itself (the parent, or "Parent of" its children). */
const FAMILY_KEYS = ['parent', 'family'];

interface ActivityRecord {
  id: number;
  user_id: number | null;
  actor: string | null;
  action: string;
  description: string;
  text_code: string | null;
  params: Record<string, ActivityParamValue> | null;
}

const escapeForRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export async function eraseFromActivities(
  tx: Queryable,
  students: readonly ScrubbedStudent[],
  forgottenPhones: readonly string[],
): Promise<void> {
  const childNames = [...new Set(students.map((student) => student.name.trim()).filter((name) => name !== ''))];
  if (childNames.length === 0 && forgottenPhones.length === 0) return;
  const gone = new Set(forgottenPhones);
  const goneForms = forgottenPhones.flatMap(phoneForms);
  const byUniqueId = new Map(students.map((student) => [student.unique_id, student]));
  const byName = new Map<string, ScrubbedStudent[]>();
  for (const student of students) byName.set(student.name, [...(byName.get(student.name) ?? []), student]);
  // The parents' names of the families no longer on record (each child's record held one, or none).
  const forgottenParents = [
    ...new Set(students.filter((student) => gone.has(student.phone)).map((student) => student.parent_name.trim())),
  ].filter((name) => name !== '');

  // Candidates: a param that is one of the Student IDs, names or phones (a hash join, not a scan per
  // word), and rows written with no code whose text holds one of the names or phones.
  const keys = [...byUniqueId.keys(), ...childNames, ...forgottenPhones];
  const pattern = [...childNames, ...goneForms].map(escapeForRegex).join('|');
  const rows = await tx.query<ActivityRecord>(
    `WITH words (word) AS (SELECT DISTINCT unnest($1::text[]))
     SELECT a.id, a.user_id, a.actor, a.action, a.description, a.text_code, a.params
       FROM activities a
      WHERE a.id IN (SELECT x.id FROM activities x
                      CROSS JOIN LATERAL jsonb_each_text(CASE WHEN jsonb_typeof(x.params) = 'object' THEN x.params END) e
                       JOIN words ON words.word = e.value)
         OR ($2::text <> '' AND (a.text_code IS NULL OR a.params IS NULL)
             AND (a.description ~ $2::text OR coalesce(a.actor, '') ~ $2::text))
      ORDER BY a.id`,
    [keys, pattern],
  );
  if (rows.length === 0) return;

  // What decides the rows: the phones still held by a student, the scrubbed students' leave requests
  // and their attendance on the days of replies.
  const paramPhones = [
    ...new Set(rows.flatMap((row) => PHONE_KEYS.map((key) => row.params?.[key]).filter((v) => typeof v === 'string'))),
  ] as string[];
  const held = new Set(
    (
      await tx.query<{ phone: string }>(
        'SELECT DISTINCT parent_phone AS phone FROM students WHERE parent_phone = ANY($1::text[])',
        [paramPhones],
      )
    ).map((row) => row.phone),
  );
  const ids = students.map((student) => student.id);
  const leave = new Set(
    (
      await tx.query<{ key: string }>(
        `SELECT student_id || ' ' || to_char(from_date, 'YYYY-MM-DD') || ' ' || to_char(to_date, 'YYYY-MM-DD') AS key
           FROM leave_requests WHERE student_id = ANY($1::int[])`,
        [ids],
      )
    ).map((row) => row.key),
  );
  const replyDays = [
    ...new Set(
      rows
        .filter((row) => row.action === 'messages.parent_replied' && typeof row.params?.date === 'string')
        .map((row) => row.params?.date as string),
    ),
  ];
  const marked = new Set(
    replyDays.length === 0
      ? []
      : (
          await tx.query<{ key: string }>(
            `SELECT student_id || ' ' || to_char(date, 'YYYY-MM-DD') AS key FROM attendance
              WHERE student_id = ANY($1::int[]) AND date = ANY($2::date[])`,
            [ids, replyDays],
          )
        ).map((row) => row.key),
  );

  /** Is this row's `name` param one of the scrubbed children, by what else the row says? */
  const namesScrubbedChild = (row: ActivityRecord, params: Record<string, ActivityParamValue>): boolean => {
    const name = params.name;
    if (typeof name !== 'string') return false;
    return (byName.get(name) ?? []).some((student) => {
      if (row.action.startsWith('leave.')) {
        const from = String(params.from ?? params.date ?? '');
        const to = String(params.to ?? params.date ?? '');
        return leave.has(`${student.id} ${from} ${to}`);
      }
      if (row.action === 'messages.parent_replied') return marked.has(`${student.id} ${String(params.date ?? '')}`);
      return student.phone !== '' && params.phone === student.phone;
    });
  };

  const changed: { id: number; actor: string | null; description: string; params: string | null }[] = [];
  // The classes the rows name, by label, as their English said them (ADR 054): read once.
  const labelOf = await classLabelsOf(
    tx,
    rows.flatMap((row) => (row.text_code && row.params ? classValuesIn(row.text_code, row.params) : [])),
  );
  for (const row of rows) {
    const original = row.params;
    const params = original && typeof original === 'object' ? { ...original } : null;
    const mentionsGonePhone = goneForms.some(
      (form) => row.description.includes(form) || (row.actor ?? '').includes(form),
    );
    let aboutFamily = mentionsGonePhone;
    let aboutChild = false;
    if (params) {
      const student = typeof params.unique_id === 'string' ? byUniqueId.get(params.unique_id) : undefined;
      aboutChild = student !== undefined || namesScrubbedChild(row, params);
      for (const key of PHONE_KEYS) {
        const value = params[key];
        if (typeof value !== 'string' || value === '' || value === REMOVED) continue;
        if (gone.has(value)) {
          params[key] = REMOVED;
          aboutFamily = true;
        } else if (student && !held.has(value)) {
          // A phone the scrubbed child's family had before, which no student holds now.
          params[key] = REMOVED;
        }
      }
      // The child's name goes from rows about them, and from a forgotten family's rows that are not
      // about one student still on record (a phone change of a child who moved to another family).
      const ofStudentOnRecord = typeof params.unique_id === 'string' && student === undefined;
      if ('name' in params && (aboutChild || (aboutFamily && !ofStudentOnRecord))) params.name = REMOVED;
      if (aboutChild && row.action.startsWith('leave.') && 'reason' in params) params.reason = REMOVED;
      if (aboutFamily) for (const key of FAMILY_KEYS) if (key in params) params[key] = REMOVED;
    } else {
      aboutChild = childNames.some((name) => removeWords(row.description, [name]) !== row.description);
    }
    const byParent = PARENT_ACTIONS.has(row.action) && (aboutChild || aboutFamily);
    if (params && byParent && 'actor' in params) params.actor = REMOVED;
    const actor = byParent ? REMOVED : row.actor;

    let description: string;
    if (params && row.text_code && isActivityTextCode(row.text_code)) {
      description = formatActivityText(ACTIVITY_TEXTS[row.text_code], withClassNames(row.text_code, params, labelOf), {
        day: readableDate,
      });
    } else {
      // Only the English was kept: the names and phones are replaced where they stand.
      const names = [...childNames];
      if (aboutFamily || aboutChild) names.push(...forgottenParents);
      if (byParent && row.actor) names.push(row.actor);
      description = removeWords(row.description, names, forgottenPhones);
    }
    const paramsText = params ? JSON.stringify(params) : null;
    if (
      actor !== row.actor ||
      description !== row.description ||
      paramsText !== (original ? JSON.stringify(original) : null)
    ) {
      changed.push({ id: row.id, actor, description, params: paramsText });
    }
  }
  if (changed.length === 0) return;
  await tx.query(
    `UPDATE activities a SET actor = c.actor, description = c.description, params = c.params::jsonb
       FROM unnest($1::int[], $2::text[], $3::text[], $4::text[]) AS c(id, actor, description, params)
      WHERE a.id = c.id`,
    [
      changed.map((row) => row.id),
      changed.map((row) => row.actor),
      changed.map((row) => row.description),
      changed.map((row) => row.params),
    ],
  );
}
