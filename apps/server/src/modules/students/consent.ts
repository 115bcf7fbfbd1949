import type { ParentLanguage } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';

export type ConsentSource = 'staff' | 'import' | 'whatsapp_reply' | 'parent_app';

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
 * Sets the family's (phone's) WhatsApp opt-in on every student record with that parent phone, logs the
 * change, and answers whether it changed (false when it already was so, or no student has the phone).
 * The family's rows are locked in id order first, so two changes of one family take turns.
 */
export async function setFamilyWhatsappConsent(
  tx: Queryable,
  phone: string,
  optedIn: boolean,
  change: { source: ConsentSource; changedBy: string; userId?: number | null },
): Promise<boolean> {
  await lockFamily(tx, phone);
  const family = await tx.query<{ id: number; parent_whatsapp_opt_in: boolean }>(
    'SELECT id, parent_whatsapp_opt_in FROM students WHERE parent_phone = $1 ORDER BY id FOR UPDATE',
    [phone],
  );
  if (family.length === 0 || family.every((row) => row.parent_whatsapp_opt_in === optedIn)) return false;
  await tx.query(
    `UPDATE students SET parent_whatsapp_opt_in = $2, parent_whatsapp_opt_in_changed_at = now(),
            parent_whatsapp_opt_in_changed_by = $3, updated_at = now()
      WHERE parent_phone = $1`,
    [phone, optedIn, change.changedBy],
  );
  await tx.query(
    `INSERT INTO whatsapp_consent_log (phone, opted_in, source, changed_by, changed_by_user_id)
     VALUES ($1, $2, $3, $4, $5)`,
    [phone, optedIn, change.source, change.changedBy, change.userId ?? null],
  );
  return true;
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
 * and set in one turn. Answers how many families' consent changed.
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
