import { type ErrorWords, errorWords, type ParentLanguage } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';
import { ConflictError } from '../../lib/errors';

export type ConsentSource = 'staff' | 'import' | 'whatsapp_reply' | 'parent_app';

/** The parent's own ways of changing the family's consent: a WhatsApp reply (STOP, START) or the parent app. */
export type ParentSource = Extract<ConsentSource, 'whatsapp_reply' | 'parent_app'>;
const PARENT_SOURCES: readonly ParentSource[] = ['whatsapp_reply', 'parent_app'];

/** Advisory lock keys, in the two-key space: one per family (its phone's hash), one over all families. */
const FAMILY_LOCKS = 7_320;
const ALL_FAMILIES_LOCK = 7_321;

/**
 * Holds the family (its phone) for the rest of the transaction: whoever adds a child to it, moves one
 * into it or changes its consent or language takes turns, so its records never disagree. A lock on the
 * phone, not on rows: a family's first two records may be added at once. It also holds the lock over
 * all families in shared mode, so an import (lockAllFamilies) and single changes take turns too.
 */
export async function lockFamily(tx: Queryable, phone: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock_shared($1::int, 0)', [ALL_FAMILIES_LOCK]);
  await tx.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2::text))', [FAMILY_LOCKS, phone]);
}

/**
 * Holds every family for the rest of the transaction (an import, which adds children to and sets the
 * consent of many families at once): one lock however many phones, so a large file does not fill the
 * lock table; single changes already under way finish first, new ones wait for the import.
 */
export async function lockAllFamilies(tx: Queryable): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1::int, 0)', [ALL_FAMILIES_LOCK]);
}

/**
 * A parent's word stands (docs/whatsapp.md, section 5): once the parent turned WhatsApp off themselves
 * (a STOP reply, the parent app), only the parent turns it on again (START, the parent app); staff and
 * imports may still turn it off. These answer, for each phone, how the parent turned it off when the
 * parent's last word in the consent log is an opt-out; phones whose parent never spoke, or last opted
 * in, are left out. By id, not by time: the log is written under the family's lock, so ids follow the
 * order the changes took effect in (a transaction's now() is when it began, not when it got the lock).
 */
export async function parentOptOuts(db: Queryable, phones: readonly string[]): Promise<Map<string, ParentSource>> {
  if (phones.length === 0) return new Map();
  const rows = await db.query<{ phone: string; opted_in: boolean; source: ParentSource }>(
    `SELECT DISTINCT ON (phone) phone, opted_in, source FROM whatsapp_consent_log
      WHERE phone = ANY($1::text[]) AND source = ANY($2::text[])
      ORDER BY phone, id DESC`,
    [[...new Set(phones)], PARENT_SOURCES],
  );
  return new Map(rows.filter((row) => !row.opted_in).map((row) => [row.phone, row.source]));
}

/** Why staff or an import may not turn this family's WhatsApp on, as a field's failure: the parent said STOP. */
export function parentOptOutWords(field: string, how: ParentSource): ErrorWords {
  return errorWords('validation.parent_opted_out', { field, how });
}

/**
 * Sets the family's (phone's) WhatsApp opt-in on every student record with that parent phone, logs the
 * change, and answers whether it changed (false when it already was so, or no student has the phone).
 * The family's rows are locked in id order first, so two changes of one family take turns. Staff and
 * imports turning it on for a family whose parent turned it off are refused (409) under that lock, so a
 * STOP that arrives meanwhile is either seen (and the opt-in refused) or comes after it (and wins).
 */
export async function setFamilyWhatsappConsent(
  tx: Queryable,
  phone: string,
  optedIn: boolean,
  change: { source: ConsentSource; changedBy: string; userId?: number | null },
): Promise<boolean> {
  await lockFamily(tx, phone);
  if (optedIn && !isParentSource(change.source)) {
    const how = (await parentOptOuts(tx, [phone])).get(phone);
    if (how) throw new ConflictError(parentOptOutWords('parent_whatsapp_opt_in', how));
  }
  const family = await tx.query<{ id: number; parent_whatsapp_opt_in: boolean }>(
    'SELECT id, parent_whatsapp_opt_in FROM students WHERE parent_phone = $1 ORDER BY id FOR UPDATE',
    [phone],
  );
  if (family.length === 0 || family.every((row) => row.parent_whatsapp_opt_in === optedIn)) {
    if (!optedIn && isParentSource(change.source)) await keepParentWord(tx, phone, change);
    return false;
  }
  await tx.query(
    `UPDATE students SET parent_whatsapp_opt_in = $2, parent_whatsapp_opt_in_changed_at = now(),
            parent_whatsapp_opt_in_changed_by = $3, updated_at = now()
      WHERE parent_phone = $1`,
    [phone, optedIn, change.changedBy],
  );
  await logConsent(tx, phone, optedIn, change);
  return true;
}

async function logConsent(
  tx: Queryable,
  phone: string,
  optedIn: boolean,
  change: { source: ConsentSource; changedBy: string; userId?: number | null },
): Promise<void> {
  await tx.query(
    `INSERT INTO whatsapp_consent_log (phone, opted_in, source, changed_by, changed_by_user_id)
     VALUES ($1, $2, $3, $4, $5)`,
    [phone, optedIn, change.source, change.changedBy, change.userId ?? null],
  );
}

/**
 * A parent's STOP (or the app's switch turned off) when the family was off already (never opted in, or
 * turned off by staff) changes no consent, but it is the parent's word: it is logged, and the family's
 * records say who withdrew it and when, so staff cannot turn it on afterwards. Not logged twice running.
 */
async function keepParentWord(
  tx: Queryable,
  phone: string,
  change: { source: ConsentSource; changedBy: string; userId?: number | null },
): Promise<void> {
  if ((await parentOptOuts(tx, [phone])).has(phone)) return;
  await tx.query(
    `UPDATE students SET parent_whatsapp_opt_in_changed_at = now(), parent_whatsapp_opt_in_changed_by = $2,
            updated_at = now()
      WHERE parent_phone = $1`,
    [phone, change.changedBy],
  );
  await logConsent(tx, phone, false, change);
}

function isParentSource(source: ConsentSource): source is ParentSource {
  return (PARENT_SOURCES as readonly ConsentSource[]).includes(source);
}

/**
 * A record has just moved onto this phone (the family is the phone): when the phone's parent turned
 * WhatsApp off and has not turned it on again, the record does not bring consent of its own (given for
 * another phone) with it. It takes the parent's opt-out, with who and when from the log. Call it with
 * the family held (lockFamily); answers whether a record changed.
 */
export async function keepParentOptOut(tx: Queryable, phone: string): Promise<boolean> {
  const rows = await tx.query<{ id: number }>(
    `UPDATE students s SET parent_whatsapp_opt_in = false, parent_whatsapp_opt_in_changed_at = l.changed_at,
            parent_whatsapp_opt_in_changed_by = l.changed_by, updated_at = now()
       FROM (SELECT opted_in, changed_at, changed_by FROM whatsapp_consent_log
              WHERE phone = $1 AND source = ANY($2::text[]) ORDER BY id DESC LIMIT 1) l
      WHERE s.parent_phone = $1 AND s.parent_whatsapp_opt_in AND NOT l.opted_in
      RETURNING s.id`,
    [phone, PARENT_SOURCES],
  );
  return rows.length > 0;
}

/** Sets the family's language on every record with that phone. */
export async function setFamilyLanguage(tx: Queryable, phone: string, language: ParentLanguage): Promise<void> {
  await lockFamily(tx, phone);
  await tx.query(
    'UPDATE students SET parent_language = $2, updated_at = now() WHERE parent_phone = $1 AND parent_language <> $2',
    [phone, language],
  );
}

/**
 * The family's consent and language (from any of its records; they agree), or undefined when no student
 * has the phone. Should they ever disagree, consent is not assumed.
 */
export async function readFamily(
  db: Queryable,
  phone: string,
): Promise<{ opted_in: boolean; language: ParentLanguage } | undefined> {
  const rows = await db.query<{ opted_in: boolean; language: ParentLanguage }>(
    `SELECT bool_and(parent_whatsapp_opt_in) AS opted_in, (array_agg(parent_language ORDER BY id))[1] AS language
       FROM students WHERE parent_phone = $1 HAVING count(*) > 0`,
    [phone],
  );
  return rows[0];
}

export interface FamilyChoice {
  phone: string;
  optedIn?: boolean;
  language?: ParentLanguage;
}

/**
 * Many families' consent and language at once (an import): for each phone the last choice given wins,
 * every record with the phone takes it, and each change of consent is logged. Holds every family (see
 * lockAllFamilies); the caller takes that lock before adding the import's children, so they are added
 * and set in one turn, and has already refused the rows that would turn on WhatsApp for a family whose
 * parent turned it off (parentOptOuts): should one reach here all the same, the whole import is refused
 * (409), never applied. Answers how many families' consent changed.
 */
export async function setFamilyChoices(
  tx: Queryable,
  choices: readonly FamilyChoice[],
  change: { source: ConsentSource; changedBy: string; userId?: number | null },
): Promise<number> {
  const last = new Map<string, FamilyChoice>();
  for (const choice of choices) {
    if (choice.optedIn === undefined && choice.language === undefined) continue;
    const earlier = last.get(choice.phone);
    last.set(choice.phone, {
      phone: choice.phone,
      optedIn: choice.optedIn ?? earlier?.optedIn,
      language: choice.language ?? earlier?.language,
    });
  }
  const families = [...last.values()].sort((a, b) => a.phone.localeCompare(b.phone));
  if (families.length === 0) return 0;
  await lockAllFamilies(tx);
  if (!isParentSource(change.source)) {
    const optingIn = families.filter((family) => family.optedIn === true).map((family) => family.phone);
    const [refused] = await parentOptOuts(tx, optingIn);
    if (refused) throw new ConflictError(parentOptOutWords('parent_whatsapp_opt_in', refused[1]));
  }
  const changed = await tx.query<{ phone: string; opted_in: boolean }>(
    `WITH choice AS (
       SELECT * FROM unnest($1::text[], $2::boolean[], $3::text[]) AS c(phone, opted_in, language)
     ),
     before AS (
       SELECT s.parent_phone AS phone, bool_and(s.parent_whatsapp_opt_in) AS opted_in
         FROM students s JOIN choice c ON c.phone = s.parent_phone GROUP BY s.parent_phone
     ),
     updated AS (
       UPDATE students s SET
         parent_language = COALESCE(c.language, s.parent_language),
         parent_whatsapp_opt_in = COALESCE(c.opted_in, s.parent_whatsapp_opt_in),
         parent_whatsapp_opt_in_changed_at = CASE WHEN c.opted_in IS DISTINCT FROM b.opted_in AND c.opted_in IS NOT NULL
                                                  THEN now() ELSE s.parent_whatsapp_opt_in_changed_at END,
         parent_whatsapp_opt_in_changed_by = CASE WHEN c.opted_in IS DISTINCT FROM b.opted_in AND c.opted_in IS NOT NULL
                                                  THEN $4 ELSE s.parent_whatsapp_opt_in_changed_by END
         FROM choice c JOIN before b ON b.phone = c.phone
        WHERE s.parent_phone = c.phone
        RETURNING s.parent_phone
     )
     SELECT c.phone, c.opted_in FROM choice c JOIN before b ON b.phone = c.phone
      WHERE c.opted_in IS NOT NULL AND c.opted_in IS DISTINCT FROM b.opted_in
        AND EXISTS (SELECT 1 FROM updated u WHERE u.parent_phone = c.phone)`,
    [
      families.map((family) => family.phone),
      families.map((family) => family.optedIn ?? null),
      families.map((family) => family.language ?? null),
      change.changedBy,
    ],
  );
  if (changed.length > 0) {
    await tx.query(
      `INSERT INTO whatsapp_consent_log (phone, opted_in, source, changed_by, changed_by_user_id)
       SELECT phone, opted_in, $3, $4, $5 FROM unnest($1::text[], $2::boolean[]) AS c(phone, opted_in) ORDER BY phone`,
      [
        changed.map((row) => row.phone),
        changed.map((row) => row.opted_in),
        change.source,
        change.changedBy,
        change.userId ?? null,
      ],
    );
  }
  return changed.length;
}
