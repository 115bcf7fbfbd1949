import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database';
import { familyIdForPhone, postTransaction } from '../src/modules/fees';
import { freshDatabase, uniquePhone } from './helpers/test-app';

// The database's balance check from the entries' side (migration 0035 rewrote how it finds the
// transaction): an entry added later to a transaction already posted, or in bulk beside balanced
// ones, is refused at commit, and nothing of its database transaction is kept.
let db: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ db, drop } = await freshDatabase());
});
afterAll(async () => {
  await drop?.();
});

const count = async (table: string) =>
  Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]?.n);

describe('the ledger balance check on entries', () => {
  it('refuses an entry added to a transaction already posted, and a bulk insert with one unbalanced among many', async () => {
    const familyId = await db.transaction((tx) => familyIdForPhone(tx, uniquePhone()));
    const posted = await db.transaction((tx) =>
      postTransaction(tx, {
        idempotencyKey: `test:balance:${process.pid}:${Date.now()}`,
        kind: 'charge',
        familyId,
        occurredOn: '2026-04-01',
        description: 'Tuition',
        createdBy: null,
        postings: [
          { account: 'receivable', amountPaise: 500, studentId: 1 },
          { account: 'tuition_income', amountPaise: -500 },
        ],
      }),
    );
    const before = { transactions: await count('ledger_transactions'), entries: await count('ledger_entries') };
    await expect(
      db.query(`INSERT INTO ledger_entries (transaction_id, account, amount_paise) VALUES ($1, 'receivable', 10)`, [
        posted.id,
      ]),
    ).rejects.toThrow(/does not balance/);
    // Two entries that cancel, added later, still balance it: the rule is the sum.
    await db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO ledger_entries (transaction_id, account, amount_paise) VALUES ($1, 'receivable', 10), ($1, 'tuition_income', -10)`,
        [posted.id],
      );
    });
    await expect(
      db.transaction(async (tx) => {
        const made = await tx.query<{ id: number }>(
          `INSERT INTO ledger_transactions (idempotency_key, kind, family_id, occurred_on, description)
           SELECT 'test:bulk:' || g || ':' || $2, 'charge', $1, '2026-04-01', 'bulk' FROM generate_series(1, 50) g
           RETURNING id`,
          [familyId, Date.now()],
        );
        const ids = made.map((row) => Number(row.id));
        await tx.query(
          `INSERT INTO ledger_entries (transaction_id, account, amount_paise)
           SELECT id, account, CASE WHEN account = 'receivable' THEN 100 WHEN id = $2 THEN -99 ELSE -100 END
             FROM unnest($1::bigint[]) id CROSS JOIN (VALUES ('receivable'), ('tuition_income')) a (account)`,
          [ids, ids[37]],
        );
      }),
    ).rejects.toThrow(/does not balance/);
    expect(await count('ledger_transactions')).toBe(before.transactions);
    expect(await count('ledger_entries')).toBe(before.entries + 2);
  });
});
