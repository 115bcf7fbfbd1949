/**
 * The fees reports (ADR 051): dues, a family's statement, ageing and collections, each read from the
 * ledger alone, so they always agree with it and with each other.
 */
import {
  AGEING_BUCKETS,
  type Ageing,
  type Collections,
  type CollectionsQuery,
  type collectionsQuerySchema,
  type Due,
  type Statement,
} from '@tuitiondesk/contract';
import type { z } from 'zod';
import type { Queryable } from '../../db/database';
import { ValidationError } from '../../lib/errors';
import { firstDayOfMonth, today } from '../../lib/time';
import { familiesDetails, familyDetails } from './fee-families';
import { type LedgerKind, type OpenCharge, openCharges } from './ledger';

const DAY_MS = 86_400_000;
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** Families whose receivable entries sum to more than zero, with that sum. */
async function owingFamilies(db: Queryable): Promise<Map<number, number>> {
  const rows = await db.query<{ family_id: number; balance: number }>(
    `SELECT t.family_id, sum(e.amount_paise)::bigint AS balance
       FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
      WHERE e.account = 'receivable'
      GROUP BY t.family_id HAVING sum(e.amount_paise) > 0`,
  );
  return new Map(rows.map((r) => [Number(r.family_id), Number(r.balance)]));
}

async function openChargesByFamily(db: Queryable, familyIds: number[]): Promise<Map<number, OpenCharge[]>> {
  const byFamily = new Map<number, OpenCharge[]>();
  if (familyIds.length === 0) return byFamily;
  for (const charge of await openCharges(db, familyIds)) {
    const list = byFamily.get(charge.familyId) ?? [];
    list.push(charge);
    byFamily.set(charge.familyId, list);
  }
  return byFamily;
}

/** GET /fees/dues: the families that owe, oldest debt first. */
export async function getDues(db: Queryable): Promise<Due[]> {
  const balances = await owingFamilies(db);
  const ids = [...balances.keys()];
  const [charges, details] = await Promise.all([openChargesByFamily(db, ids), familiesDetails(db, ids)]);
  const now = today();
  const dues = ids.map((id): Due => {
    const oldest = charges.get(id)?.[0]?.dueOn ?? now;
    const family = details.get(id);
    return {
      family_id: id,
      parent_name: family?.parent_name ?? '',
      parent_phone: family?.parent_phone ?? '',
      students: family?.students ?? [],
      balance_paise: balances.get(id) ?? 0,
      oldest_due_date: oldest,
      days_overdue: Math.max(0, daysBetween(oldest, now)),
    };
  });
  return dues.sort(
    (a, b) =>
      a.oldest_due_date.localeCompare(b.oldest_due_date) ||
      b.balance_paise - a.balance_paise ||
      a.family_id - b.family_id,
  );
}

/** GET /fees/families/{id}/statement: every receivable entry, oldest first, with the running balance. */
export async function getStatement(db: Queryable, familyId: number): Promise<Statement> {
  await familyDetails(db, familyId);
  const rows = await db.query<{
    date: string;
    kind: LedgerKind;
    description: string;
    student_id: number | null;
    amount_paise: number;
    payment_id: number | null;
  }>(
    `SELECT t.occurred_on AS date, t.kind, t.description, e.student_id, e.amount_paise, p.transaction_id AS payment_id
       FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id AND e.account = 'receivable'
       LEFT JOIN fee_payments p
         ON p.transaction_id = CASE WHEN t.kind = 'payment' THEN t.id WHEN t.kind = 'reversal' THEN t.reverses END
      WHERE t.family_id = $1
      ORDER BY t.occurred_on, t.id, e.id`,
    [familyId],
  );
  let balance = 0;
  const entries = rows.map((row) => {
    const amount = Number(row.amount_paise);
    balance += amount;
    return {
      date: row.date,
      kind: row.kind,
      description: row.description,
      student_id: row.student_id === null ? null : Number(row.student_id),
      debit_paise: amount > 0 ? amount : 0,
      credit_paise: amount < 0 ? -amount : 0,
      balance_paise: balance,
      payment_id: row.payment_id === null ? null : Number(row.payment_id),
    };
  });
  return { family_id: familyId, balance_paise: balance, entries };
}

function bucketOf(daysOverdue: number): (typeof AGEING_BUCKETS)[number] {
  if (daysOverdue <= 30) return '0-30';
  if (daysOverdue <= 60) return '31-60';
  if (daysOverdue <= 90) return '61-90';
  return '90+';
}

/**
 * GET /fees/ageing: what families owe, by how long each unpaid part of a charge is past its due
 * date (a charge not yet due counts in 0-30).
 */
export async function getAgeing(db: Queryable): Promise<Ageing> {
  const balances = await owingFamilies(db);
  const charges = await openChargesByFamily(db, [...balances.keys()]);
  const now = today();
  const amounts = new Map(AGEING_BUCKETS.map((bucket) => [bucket, 0]));
  const families = new Map(AGEING_BUCKETS.map((bucket) => [bucket, new Set<number>()]));
  let overduePaise = 0;
  const overdueFamilies = new Set<number>();
  for (const [familyId, list] of charges) {
    for (const charge of list) {
      const daysPast = daysBetween(charge.dueOn, now);
      const bucket = bucketOf(daysPast);
      amounts.set(bucket, (amounts.get(bucket) ?? 0) + charge.owedPaise);
      families.get(bucket)?.add(familyId);
      if (daysPast > 0) {
        overduePaise += charge.owedPaise;
        overdueFamilies.add(familyId);
      }
    }
  }
  return {
    as_of: now,
    buckets: AGEING_BUCKETS.map((bucket) => ({
      bucket,
      amount_paise: amounts.get(bucket) ?? 0,
      families: families.get(bucket)?.size ?? 0,
    })),
    total_paise: [...amounts.values()].reduce((sum, amount) => sum + amount, 0),
    families: balances.size,
    overdue_paise: overduePaise,
    overdue_families: overdueFamilies.size,
  };
}

/** The longest period collections are asked for at once. */
export const COLLECTIONS_MAX_DAYS = 366;

type CollectionsFilter = z.output<typeof collectionsQuerySchema>;

function collectionsPeriod(query: CollectionsFilter): { from: string; to: string } {
  const now = today();
  if (query.period) {
    if (query.from || query.to) throw new ValidationError('period', 'validation.period_or_dates');
    return query.period === 'today' ? { from: now, to: now } : { from: firstDayOfMonth(now), to: now };
  }
  const from = query.from ?? now;
  const to = query.to ?? from;
  if (to < from) throw new ValidationError('to', 'validation.not_before_date', { from });
  if (daysBetween(from, to) >= COLLECTIONS_MAX_DAYS) {
    throw new ValidationError('to', 'validation.period_too_long', { days: COLLECTIONS_MAX_DAYS });
  }
  return { from, to };
}

/**
 * GET /fees/collections: money received in the period (payments by the day received) less payments
 * reversed in it (by the day reversed), in all, by mode and by the staff member who took it.
 */
export async function getCollections(db: Queryable, query: CollectionsFilter | CollectionsQuery): Promise<Collections> {
  const { from, to } = collectionsPeriod(query as CollectionsFilter);
  const rows = await db.query<{
    mode: Collections['by_mode'][number]['mode'];
    user_id: number | null;
    name: string | null;
    amount_paise: number;
    payments: number;
    reversals: number;
  }>(
    `WITH moves AS (
       SELECT p.mode, p.recorded_by, p.amount_paise, 1 AS payment, 0 AS reversal
         FROM fee_payments p WHERE p.received_on BETWEEN $1 AND $2
       UNION ALL
       SELECT p.mode, p.recorded_by, -p.amount_paise, 0, 1
         FROM ledger_transactions r JOIN fee_payments p ON p.transaction_id = r.reverses
        WHERE r.occurred_on BETWEEN $1 AND $2
     )
     SELECT m.mode, m.recorded_by AS user_id, u.full_name AS name, sum(m.amount_paise)::bigint AS amount_paise,
            sum(m.payment)::int AS payments, sum(m.reversal)::int AS reversals
       FROM moves m LEFT JOIN users u ON u.id = m.recorded_by
      GROUP BY m.mode, m.recorded_by, u.full_name`,
    [from, to],
  );
  type Totals = { amount_paise: number; payments: number; reversals: number };
  const add = (into: Totals, row: (typeof rows)[number]) => {
    into.amount_paise += Number(row.amount_paise);
    into.payments += Number(row.payments);
    into.reversals += Number(row.reversals);
  };
  const zero = (): Totals => ({ amount_paise: 0, payments: 0, reversals: 0 });
  const total = zero();
  const byMode = new Map<Collections['by_mode'][number]['mode'], Totals>();
  const byStaff = new Map<string, Totals & { user_id: number | null; name: string | null }>();
  for (const row of rows) {
    add(total, row);
    const mode = byMode.get(row.mode) ?? zero();
    add(mode, row);
    byMode.set(row.mode, mode);
    const userId = row.user_id === null ? null : Number(row.user_id);
    const key = String(userId);
    const staff = byStaff.get(key) ?? { user_id: userId, name: row.name, ...zero() };
    add(staff, row);
    byStaff.set(key, staff);
  }
  return {
    from,
    to,
    ...total,
    by_mode: [...byMode].map(([mode, totals]) => ({ mode, ...totals })).sort((a, b) => a.mode.localeCompare(b.mode)),
    by_staff: [...byStaff.values()].sort(
      (a, b) => b.amount_paise - a.amount_paise || (a.user_id ?? 0) - (b.user_id ?? 0),
    ),
  };
}
