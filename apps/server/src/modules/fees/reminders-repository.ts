/** SQL of fee reminders (ADR 061): the schedule's one row, the reminders sent, and the promises that pause them. */
import { FEE_REMINDER_DEFAULT_OFFSETS, type FeeReminderRun, type FeeReminderSettings } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';

interface SettingsRow extends FeeReminderSettings {
  last_run_at: Date | string | null;
  last_sent: number | null;
  last_skipped_paid: number | null;
  last_skipped_promised: number | null;
}

export interface ReminderSettingsRow {
  settings: FeeReminderSettings;
  lastRun: FeeReminderRun | null;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** Read afresh each time (never cached): a change applies to the next round, without a restart. */
export async function readReminderSettings(db: Queryable, lock = false): Promise<ReminderSettingsRow> {
  const [row] = await db.query<SettingsRow>(
    `SELECT enabled, offsets, hour, last_run_at, last_sent, last_skipped_paid, last_skipped_promised
       FROM fee_reminder_settings WHERE id = 1${lock ? ' FOR UPDATE' : ''}`,
  );
  if (!row) return { settings: { enabled: true, offsets: [...FEE_REMINDER_DEFAULT_OFFSETS], hour: 10 }, lastRun: null };
  return {
    settings: { enabled: row.enabled, offsets: row.offsets.map(Number), hour: Number(row.hour) },
    lastRun:
      row.last_run_at === null
        ? null
        : {
            at: iso(row.last_run_at),
            sent: Number(row.last_sent ?? 0),
            skipped_paid: Number(row.last_skipped_paid ?? 0),
            skipped_promised: Number(row.last_skipped_promised ?? 0),
          },
  };
}

export async function writeReminderSettings(tx: Queryable, settings: FeeReminderSettings): Promise<void> {
  await tx.query(
    `INSERT INTO fee_reminder_settings (id, enabled, offsets, hour, updated_at) VALUES (1, $1, $2::int[], $3, now())
     ON CONFLICT (id) DO UPDATE SET enabled = $1, offsets = $2::int[], hour = $3, updated_at = now()`,
    [settings.enabled, settings.offsets, settings.hour],
  );
}

/**
 * The automatic round claims the day: true for the one instance that moves `last_run_at` past `since`
 * (the set hour today), false when a round (automatic or by hand) already ran since then.
 */
export interface ReminderRoundClaim {
  /** When the last round ran before this claim (null: never): what a failed round hands back. */
  previous: string | null;
  at: string;
}

/**
 * Claims today's round: moves `last_run_at` to `now` unless a round ran since `since` (one instance
 * wins; the other's UPDATE finds the moved row no longer matching). Undefined when claimed already.
 */
export async function claimReminderRound(
  db: Queryable,
  since: Date,
  now: Date,
): Promise<ReminderRoundClaim | undefined> {
  const rows = await db.query<{ previous: string | null }>(
    `UPDATE fee_reminder_settings s SET last_run_at = $2::timestamptz
       FROM (SELECT id, last_run_at FROM fee_reminder_settings WHERE id = 1) before
      WHERE s.id = before.id AND (s.last_run_at IS NULL OR s.last_run_at < $1::timestamptz)
      RETURNING before.last_run_at AS previous`,
    [since.toISOString(), now.toISOString()],
  );
  const row = rows[0];
  if (!row) return undefined;
  const previous = row.previous === null ? null : new Date(row.previous).toISOString();
  return { previous, at: now.toISOString() };
}

/** A round that failed hands its day back, so the next look tries again (what it sent stays sent once). */
export async function releaseReminderRound(db: Queryable, claim: ReminderRoundClaim): Promise<void> {
  await db.query(
    'UPDATE fee_reminder_settings SET last_run_at = $1::timestamptz WHERE id = 1 AND last_run_at = $2::timestamptz',
    [claim.previous, claim.at],
  );
}

export async function storeLastRun(db: Queryable, run: Omit<FeeReminderRun, 'at'>, at: Date): Promise<FeeReminderRun> {
  await db.query(
    `UPDATE fee_reminder_settings SET last_run_at = $4::timestamptz, last_sent = $1, last_skipped_paid = $2,
            last_skipped_promised = $3
      WHERE id = 1`,
    [run.sent, run.skipped_paid, run.skipped_promised, at.toISOString()],
  );
  return { at: at.toISOString(), ...run };
}

export interface DueCharge {
  familyId: number;
  dueOn: string;
}

/**
 * Families with a charge (a debit of the receivable, not reversed) due on one of `dates`, with each
 * such due date: what a round looks at. Whether the charge is still unpaid is the ledger's allocation's
 * to say (openCharges, as the dues report reads it).
 */
export async function familiesWithChargesDueOn(db: Queryable, dates: readonly string[]): Promise<DueCharge[]> {
  const rows = await db.query<{ family_id: number; due_on: string }>(
    `SELECT DISTINCT t.family_id, coalesce(t.due_on, t.occurred_on)::text AS due_on FROM ledger_transactions t
      WHERE coalesce(t.due_on, t.occurred_on) = ANY($1::date[]) AND t.kind <> 'reversal'
        AND NOT EXISTS (SELECT 1 FROM ledger_transactions r WHERE r.reverses = t.id)
        AND EXISTS (SELECT 1 FROM ledger_entries e
                     WHERE e.transaction_id = t.id AND e.account = 'receivable' AND e.amount_paise > 0)
      ORDER BY 1, 2`,
    [dates],
  );
  return rows.map((row) => ({ familyId: Number(row.family_id), dueOn: row.due_on }));
}

/** The (family, due date, day of the schedule) reminders already sent among these families. */
export async function sentReminderKeys(db: Queryable, familyIds: readonly number[]): Promise<Set<string>> {
  const rows = await db.query<{ family_id: number; due_on: string; offset_days: number }>(
    'SELECT family_id, due_on::text AS due_on, offset_days FROM fee_reminders WHERE family_id = ANY($1::int[])',
    [familyIds],
  );
  return new Set(rows.map((row) => reminderKey(Number(row.family_id), row.due_on, Number(row.offset_days))));
}

export const reminderKey = (familyId: number, dueOn: string, offset: number) => `${familyId}|${dueOn}|${offset}`;

/** The family promised to pay on a day not yet past (`today` or later): its reminders wait. */
export async function hasActivePromise(db: Queryable, familyId: number, today: string): Promise<boolean> {
  const rows = await db.query(
    'SELECT 1 FROM fee_reminder_answers WHERE family_id = $1 AND promised_on >= $2::date LIMIT 1',
    [familyId, today],
  );
  return rows.length > 0;
}

/**
 * Takes the reminders for the family, once each (UNIQUE family, due date, day): answers the ids of
 * those this call inserted; none when another round took them first.
 */
export async function claimReminders(
  tx: Queryable,
  familyId: number,
  matches: readonly { dueOn: string; offset: number }[],
  balancePaise: number,
): Promise<number[]> {
  const rows = await tx.query<{ id: number }>(
    `INSERT INTO fee_reminders (family_id, due_on, offset_days, balance_paise)
     SELECT $1, unnest($2::date[]), unnest($3::int[]), $4
     ON CONFLICT (family_id, due_on, offset_days) DO NOTHING RETURNING id`,
    [familyId, matches.map((match) => match.dueOn), matches.map((match) => match.offset), balancePaise],
  );
  return rows.map((row) => Number(row.id));
}

export async function setReminderMessage(tx: Queryable, reminderIds: readonly number[], messageId: number | null) {
  await tx.query('UPDATE fee_reminders SET message_id = $2 WHERE id = ANY($1::bigint[])', [reminderIds, messageId]);
}
