/**
 * The fees ledger (ADR 051): append-only, double entry, integer paise. Every charge, discount,
 * payment, reversal, refund and gateway fee is one transaction whose postings sum to zero; the
 * database refuses any other (a deferred constraint trigger) and refuses to change or remove a row.
 * Every fees report is read from here. Only this file writes the ledger tables.
 */
import type { Queryable } from '../../db/database';

export type LedgerAccount =
  /** The family's account: > 0 it owes, < 0 an advance. Entries name the child (`studentId`) where one is meant. */
  | 'receivable'
  /** Income; `discounts` is a debit (contra-income). */
  | 'tuition_income'
  | 'late_fee_income'
  | 'discounts'
  | 'gst_cgst'
  | 'gst_sgst'
  | 'gst_igst'
  /** Money taken at the counter, by mode. */
  | 'cash'
  | 'upi'
  | 'cheque'
  | 'bank_transfer'
  | 'card'
  /** Money the gateway holds for the centre until it settles, and what it kept. */
  | 'gateway_clearing'
  | 'gateway_fees';

export const LEDGER_ACCOUNTS: readonly LedgerAccount[] = [
  'receivable',
  'tuition_income',
  'late_fee_income',
  'discounts',
  'gst_cgst',
  'gst_sgst',
  'gst_igst',
  'cash',
  'upi',
  'cheque',
  'bank_transfer',
  'card',
  'gateway_clearing',
  'gateway_fees',
];

export type LedgerKind =
  | 'charge'
  | 'discount'
  | 'late_fee'
  | 'payment'
  | 'reversal'
  | 'refund'
  | 'gateway_fee'
  | 'correction';

/** How money came in: the counter's five modes, and `online` for the payment gateway. */
export type PaymentMode = 'cash' | 'upi' | 'cheque' | 'bank_transfer' | 'card' | 'online';

export interface Posting {
  account: LedgerAccount;
  /** Debit > 0, credit < 0; never 0; a safe integer. */
  amountPaise: number;
  /** The child a `receivable` entry is about; null for the family as a whole (an advance). */
  studentId?: number | null;
}

export interface NewTransaction {
  /** Unique: the same key again answers the first transaction and posts nothing. */
  idempotencyKey: string;
  kind: LedgerKind;
  familyId: number;
  /** yyyy-MM-dd in the centre's zone. */
  occurredOn: string;
  /** When a charge falls due (yyyy-MM-dd); the dues and ageing count days overdue from it. Default: occurredOn. */
  dueOn?: string | null;
  /** Words for the statement. Never a person's name or phone: the ledger outlives erasure (ADR 051). */
  description: string;
  /** Postings summing to zero, at least two. */
  postings: Posting[];
  /** The transaction this one reverses (kind `reversal` only). */
  reverses?: number | null;
  /** users.id; null for the gateway or the scheduler. */
  createdBy: number | null;
  paymentMode?: PaymentMode | null;
  /** The payer's reference (a UPI reference, a cheque number, a gateway payment id). */
  reference?: string | null;
}

/** A programming mistake in what was asked to be posted (the routes validate people's input before). */
export class LedgerInputError extends Error {}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function checkInput(input: NewTransaction): void {
  const fail = (what: string) => {
    throw new LedgerInputError(`Ledger transaction ${input.idempotencyKey}: ${what}`);
  };
  if (input.idempotencyKey.length === 0 || input.idempotencyKey.length > 200) fail('the key must be 1-200 characters');
  if (!DATE.test(input.occurredOn)) fail('occurredOn must be yyyy-MM-dd');
  if (input.dueOn != null && !DATE.test(input.dueOn)) fail('dueOn must be yyyy-MM-dd');
  if (input.postings.length < 2) fail('at least two postings');
  let total = 0;
  for (const posting of input.postings) {
    if (!LEDGER_ACCOUNTS.includes(posting.account)) fail(`unknown account ${String(posting.account)}`);
    if (!Number.isSafeInteger(posting.amountPaise) || posting.amountPaise === 0)
      fail('every amount is a non-zero safe integer of paise');
    total += posting.amountPaise;
    if (!Number.isSafeInteger(total)) fail('the amounts overflow');
  }
  if (total !== 0) fail(`the postings sum to ${total}, not 0`);
  if ((input.kind === 'reversal') !== (input.reverses != null))
    fail('a reversal, and only one, names what it reverses');
}

/**
 * Posts one balanced transaction in `tx`. The same `idempotencyKey` again answers the first
 * transaction's id with `created: false` and posts nothing, also when two arrive at once (the second
 * waits for the first's commit on the key's unique index).
 */
export async function postTransaction(tx: Queryable, input: NewTransaction): Promise<{ id: number; created: boolean }> {
  const posted = (await postTransactions(tx, [input])).get(input.idempotencyKey);
  if (!posted) throw new Error(`Ledger transaction ${input.idempotencyKey} neither inserted nor found`);
  return posted;
}

/**
 * Posts balanced transactions in `tx`, a few statements for the whole lot (the charge run posts
 * thousands at once, ADR 052); `postTransaction` is this for one. Every input is checked first, so
 * a bad one posts nothing. A key already in the ledger (or twice in `inputs`) answers its first
 * transaction with `created: false` and posts nothing, also when two arrive at once. Answers each
 * key's transaction id and whether it was posted now.
 */
export async function postTransactions(
  tx: Queryable,
  inputs: readonly NewTransaction[],
): Promise<Map<string, { id: number; created: boolean }>> {
  const posted = new Map<string, { id: number; created: boolean }>();
  if (inputs.length === 0) return posted;
  for (const input of inputs) checkInput(input);
  const column = <T>(pick: (input: NewTransaction) => T) => inputs.map(pick);
  const inserted = await tx.query<{ id: number; idempotency_key: string }>(
    `INSERT INTO ledger_transactions
       (idempotency_key, kind, family_id, occurred_on, due_on, description, reverses, payment_mode, reference, created_by)
     SELECT * FROM unnest($1::text[], $2::text[], $3::integer[], $4::date[], $5::date[], $6::text[], $7::bigint[],
                          $8::text[], $9::text[], $10::integer[])
     ON CONFLICT (idempotency_key) DO NOTHING
     RETURNING id, idempotency_key`,
    [
      column((input) => input.idempotencyKey),
      column((input) => input.kind),
      column((input) => input.familyId),
      column((input) => input.occurredOn),
      column(
        (input) => input.dueOn ?? (input.kind === 'charge' || input.kind === 'late_fee' ? input.occurredOn : null),
      ),
      column((input) => input.description),
      column((input) => input.reverses ?? null),
      column((input) => input.paymentMode ?? null),
      column((input) => input.reference ?? null),
      column((input) => input.createdBy),
    ],
  );
  for (const row of inserted) posted.set(row.idempotency_key, { id: Number(row.id), created: true });
  // Each inserted key's postings once (a key repeated in `inputs` posted its first only).
  const entries: Array<Posting & { id: number }> = [];
  const entered = new Set<string>();
  for (const input of inputs) {
    const made = posted.get(input.idempotencyKey);
    if (!made || entered.has(input.idempotencyKey)) continue;
    entered.add(input.idempotencyKey);
    for (const posting of input.postings) entries.push({ id: made.id, ...posting });
  }
  if (entries.length > 0) {
    await tx.query(
      `INSERT INTO ledger_entries (transaction_id, account, student_id, amount_paise)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::integer[], $4::bigint[])`,
      [
        entries.map((entry) => entry.id),
        entries.map((entry) => entry.account),
        entries.map((entry) => entry.studentId ?? null),
        entries.map((entry) => entry.amountPaise),
      ],
    );
  }
  const earlier = [...new Set(inputs.map((input) => input.idempotencyKey).filter((key) => !posted.has(key)))];
  if (earlier.length > 0) {
    const found = await tx.query<{ id: number; idempotency_key: string }>(
      'SELECT id, idempotency_key FROM ledger_transactions WHERE idempotency_key = ANY($1::text[])',
      [earlier],
    );
    for (const row of found) posted.set(row.idempotency_key, { id: Number(row.id), created: false });
    const missing = earlier.find((key) => !posted.has(key));
    if (missing) throw new Error(`Ledger transaction ${missing} neither inserted nor found`);
  }
  return posted;
}

/**
 * The fee account of the family with this phone (E.164), made on first use. Safe when two make it
 * at once: both get the same id.
 */
export async function familyIdForPhone(tx: Queryable, phone: string): Promise<number> {
  const id = (await familiesForPhones(tx, [phone])).get(phone);
  if (id === undefined) throw new Error('fee family neither made nor found');
  return id;
}

/** The fee account of each phone, made on first use, in two statements for the lot (the charge run's). */
export async function familiesForPhones(tx: Queryable, phones: readonly string[]): Promise<Map<string, number>> {
  const distinct = [...new Set(phones)].sort();
  if (distinct.length === 0) return new Map();
  // In the phones' order, so two runs making overlapping families at once wait for each other, never deadlock.
  await tx.query(
    'INSERT INTO fee_families (phone) SELECT unnest($1::text[]) ORDER BY 1 ON CONFLICT (phone) DO NOTHING',
    [distinct],
  );
  const rows = await tx.query<{ id: number; phone: string }>(
    'SELECT id, phone FROM fee_families WHERE phone = ANY($1::text[])',
    [distinct],
  );
  return new Map(rows.map((row) => [row.phone, Number(row.id)]));
}

/**
 * Holds the family's fee account until `tx` ends, so that what is posted for it (a payment's
 * allocation, a charge) is worked out from a balance no one else changes meanwhile. False when no
 * such family exists.
 */
export async function lockFeeFamily(tx: Queryable, familyId: number): Promise<boolean> {
  const rows = await tx.query('SELECT id FROM fee_families WHERE id = $1 FOR UPDATE', [familyId]);
  return rows.length > 0;
}

/** The family's balance: the sum of its receivable entries (> 0 it owes, < 0 an advance). */
export async function familyBalance(tx: Queryable, familyId: number): Promise<number> {
  const [row] = await tx.query<{ balance: number }>(
    `SELECT coalesce(sum(e.amount_paise), 0)::bigint AS balance
       FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
      WHERE t.family_id = $1 AND e.account = 'receivable'`,
    [familyId],
  );
  return Number(row?.balance ?? 0);
}

/**
 * The family's open charges, oldest due first, and what each still owes. The family's credits (its
 * payments, discounts, advances) pay its debits oldest due first, across its children; a transaction
 * and its reversal are left out together, as they cancel. So an advance pays a later charge as soon
 * as the charge is posted, with nothing more posted (ADR 051).
 */
export const OPEN_CHARGES_SQL = `
  WITH live AS (
    SELECT t.id, t.family_id, t.kind, coalesce(t.due_on, t.occurred_on) AS due_on, t.occurred_on,
           e.id AS entry_id, e.student_id, e.amount_paise
      FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id AND e.account = 'receivable'
     WHERE t.family_id = ANY($1::integer[])
       AND t.kind <> 'reversal'
       AND NOT EXISTS (SELECT 1 FROM ledger_transactions r WHERE r.reverses = t.id)
  ),
  pool AS (
    SELECT family_id, -sum(amount_paise) AS credit FROM live WHERE amount_paise < 0 GROUP BY family_id
  ),
  debits AS (
    SELECT d.*, sum(d.amount_paise) OVER (PARTITION BY d.family_id ORDER BY d.due_on, d.occurred_on, d.id, d.entry_id
                                          ROWS UNBOUNDED PRECEDING) AS running
      FROM live d WHERE d.amount_paise > 0
  )
  SELECT d.family_id, d.id AS transaction_id, d.kind, d.student_id, d.due_on, d.amount_paise,
         least(d.amount_paise, d.running - coalesce(p.credit, 0))::bigint AS owed_paise
    FROM debits d LEFT JOIN pool p ON p.family_id = d.family_id
   WHERE d.running - coalesce(p.credit, 0) > 0
   ORDER BY d.family_id, d.due_on, d.occurred_on, d.id, d.entry_id`;

export interface OpenCharge {
  familyId: number;
  transactionId: number;
  kind: LedgerKind;
  studentId: number | null;
  dueOn: string;
  amountPaise: number;
  owedPaise: number;
}

export async function openCharges(tx: Queryable, familyIds: readonly number[]): Promise<OpenCharge[]> {
  const rows = await tx.query<{
    family_id: number;
    transaction_id: number;
    kind: LedgerKind;
    student_id: number | null;
    due_on: string;
    amount_paise: number;
    owed_paise: number;
  }>(OPEN_CHARGES_SQL, [familyIds]);
  return rows.map((r) => ({
    familyId: Number(r.family_id),
    transactionId: Number(r.transaction_id),
    kind: r.kind,
    studentId: r.student_id === null ? null : Number(r.student_id),
    dueOn: r.due_on,
    amountPaise: Number(r.amount_paise),
    owedPaise: Number(r.owed_paise),
  }));
}

export interface LedgerTransactionRow {
  id: number;
  kind: LedgerKind;
  family_id: number;
  occurred_on: string;
  description: string;
  reverses: number | null;
  payment_mode: PaymentMode | null;
  reference: string | null;
}

/**
 * Reverses transaction `id` with one transaction that negates each of its postings (kind
 * `reversal`, naming it). A transaction is reversed at most once: the second attempt, also when two
 * run at once, answers `created: false` with the first reversal's id. Null when there is no such
 * transaction; a reversal itself cannot be reversed (null too).
 */
export async function reverseTransaction(
  tx: Queryable,
  id: number,
  details: { occurredOn: string; description: string; createdBy: number | null },
): Promise<{ id: number; created: boolean } | null> {
  const [original] = await tx.query<LedgerTransactionRow>(
    `SELECT id, kind, family_id, occurred_on, description, reverses, payment_mode, reference
       FROM ledger_transactions WHERE id = $1`,
    [id],
  );
  if (!original || original.kind === 'reversal') return null;
  const entries = await tx.query<{ account: LedgerAccount; student_id: number | null; amount_paise: number }>(
    'SELECT account, student_id, amount_paise FROM ledger_entries WHERE transaction_id = $1 ORDER BY id',
    [id],
  );
  return postTransaction(tx, {
    idempotencyKey: `reversal:${id}`,
    kind: 'reversal',
    familyId: Number(original.family_id),
    occurredOn: details.occurredOn,
    description: details.description,
    reverses: id,
    createdBy: details.createdBy,
    paymentMode: original.payment_mode,
    reference: original.reference,
    postings: entries.map((e) => ({
      account: e.account,
      amountPaise: -Number(e.amount_paise),
      studentId: e.student_id === null ? null : Number(e.student_id),
    })),
  });
}
