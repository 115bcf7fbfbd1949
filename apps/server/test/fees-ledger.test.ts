import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database';
import {
  familyBalance,
  familyIdForPhone,
  LedgerInputError,
  openCharges,
  postTransaction,
  reverseTransaction,
} from '../src/modules/fees';
import { postCharge } from './helpers/fees-ledger';
import { freshDatabase, uniquePhone } from './helpers/test-app';

/**
 * The fees ledger (ADR 051): the database itself refuses a transaction whose entries do not sum to
 * zero, and any change or removal of a ledger row; the same idempotency key posts once; a family's
 * credits pay its charges oldest due first.
 */
let db: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ db, drop } = await freshDatabase());
});
afterAll(async () => {
  await drop();
});

let keys = 0;
const key = (what: string) => `test:${what}:${++keys}`;

const count = async (table: string) =>
  Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]?.n);

describe('the fees ledger', () => {
  it('gives a phone one family id, also when asked twice at once', async () => {
    const phone = uniquePhone();
    const ids = await Promise.all(Array.from({ length: 5 }, () => db.transaction((tx) => familyIdForPhone(tx, phone))));
    expect(new Set(ids).size).toBe(1);
    expect(await db.transaction((tx) => familyIdForPhone(tx, uniquePhone()))).not.toBe(ids[0]);
  });

  it('posts a balanced transaction once per idempotency key', async () => {
    const familyId = await db.transaction((tx) => familyIdForPhone(tx, uniquePhone()));
    const input = {
      idempotencyKey: key('once'),
      kind: 'charge' as const,
      familyId,
      occurredOn: '2026-04-01',
      description: 'Tuition, April',
      createdBy: null,
      postings: [
        { account: 'receivable' as const, amountPaise: 150_000, studentId: 7 },
        { account: 'tuition_income' as const, amountPaise: -150_000 },
      ],
    };
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => db.transaction((tx) => postTransaction(tx, input))),
    );
    expect(answers.filter((a) => a.created)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.id)).size).toBe(1);
    expect(await familyBalance(db, familyId)).toBe(150_000);
    const rows = await db.query('SELECT due_on FROM ledger_transactions WHERE id = $1', [answers[0]?.id]);
    expect(rows).toEqual([{ due_on: '2026-04-01' }]);
  });

  it('refuses in code what does not balance, before touching the database', async () => {
    const familyId = await db.transaction((tx) => familyIdForPhone(tx, uniquePhone()));
    const before = await count('ledger_transactions');
    const base = { kind: 'charge' as const, familyId, occurredOn: '2026-04-01', description: 'x', createdBy: null };
    const bad = [
      [
        { account: 'receivable', amountPaise: 100 },
        { account: 'tuition_income', amountPaise: -99 },
      ],
      [
        { account: 'receivable', amountPaise: 0 },
        { account: 'tuition_income', amountPaise: 0 },
      ],
      [
        { account: 'receivable', amountPaise: 1.5 },
        { account: 'tuition_income', amountPaise: -1.5 },
      ],
      [{ account: 'receivable', amountPaise: 100 }],
      [
        { account: 'nowhere', amountPaise: 100 },
        { account: 'tuition_income', amountPaise: -100 },
      ],
    ] as const;
    for (const postings of bad) {
      await expect(
        db.transaction((tx) =>
          postTransaction(tx, { ...base, idempotencyKey: key('bad'), postings: postings as never }),
        ),
      ).rejects.toThrow(LedgerInputError);
    }
    expect(await count('ledger_transactions')).toBe(before);
  });

  it('is refused by the database when a transaction does not sum to zero or has one entry', async () => {
    const familyId = await db.transaction((tx) => familyIdForPhone(tx, uniquePhone()));
    const before = { transactions: await count('ledger_transactions'), entries: await count('ledger_entries') };
    const unbalanced = async (amounts: number[]) =>
      db.transaction(async (tx) => {
        const [t] = await tx.query<{ id: number }>(
          `INSERT INTO ledger_transactions (idempotency_key, kind, family_id, occurred_on, description)
           VALUES ($1, 'charge', $2, '2026-04-01', 'by hand') RETURNING id`,
          [key('raw'), familyId],
        );
        for (const amount of amounts) {
          await tx.query(
            `INSERT INTO ledger_entries (transaction_id, account, amount_paise) VALUES ($1, 'receivable', $2)`,
            [t?.id, amount],
          );
        }
      });
    await expect(unbalanced([100, -99])).rejects.toThrow(/does not balance/);
    await expect(unbalanced([100])).rejects.toThrow(/does not balance/);
    await expect(unbalanced([])).rejects.toThrow(/does not balance/);
    await expect(unbalanced([100, 0, -100])).rejects.toThrow(/amount_paise/);
    // Balanced by hand is accepted: the rule is the sum, not who wrote it.
    await unbalanced([250, -100, -150]);
    expect(await count('ledger_transactions')).toBe(before.transactions + 1);
    expect(await count('ledger_entries')).toBe(before.entries + 3);
  });

  it('refuses every UPDATE, DELETE and TRUNCATE of ledger rows', async () => {
    const familyId = await db.transaction((tx) => familyIdForPhone(tx, uniquePhone()));
    const id = await postCharge(db, familyId, 11, 90_000, '2026-05-01');
    const attempts = [
      'UPDATE ledger_entries SET amount_paise = amount_paise * 2 WHERE transaction_id = $1',
      'DELETE FROM ledger_entries WHERE transaction_id = $1',
      "UPDATE ledger_transactions SET description = 'changed' WHERE id = $1",
      'DELETE FROM ledger_transactions WHERE id = $1',
    ];
    for (const sql of attempts) {
      await expect(db.transaction((tx) => tx.query(sql, [id]))).rejects.toThrow(/append-only/);
    }
    await expect(db.transaction((tx) => tx.query('TRUNCATE ledger_entries'))).rejects.toThrow();
    expect(await familyBalance(db, familyId)).toBe(90_000);
    const rows = await db.query('SELECT description FROM ledger_transactions WHERE id = $1', [id]);
    expect(rows).toEqual([{ description: 'Tuition' }]);
  });

  it('reverses a transaction once, also when asked twice at once, and the balance goes back', async () => {
    const familyId = await db.transaction((tx) => familyIdForPhone(tx, uniquePhone()));
    const id = await postCharge(db, familyId, 12, 40_000, '2026-05-01');
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        db.transaction((tx) =>
          reverseTransaction(tx, id, { occurredOn: '2026-05-02', description: 'Charged by mistake', createdBy: null }),
        ),
      ),
    );
    expect(answers.filter((a) => a?.created)).toHaveLength(1);
    expect(await familyBalance(db, familyId)).toBe(0);
    expect(await openCharges(db, [familyId])).toEqual([]);
    const reversal = answers[0]?.id ?? 0;
    expect(
      await db.transaction((tx) =>
        reverseTransaction(tx, reversal, { occurredOn: '2026-05-02', description: 'x', createdBy: null }),
      ),
    ).toBeNull();
  });

  it('pays charges oldest due first across the children, and an advance pays later charges', async () => {
    const familyId = await db.transaction((tx) => familyIdForPhone(tx, uniquePhone()));
    const credit = (paise: number, studentId: number | null) =>
      db.transaction((tx) =>
        postTransaction(tx, {
          idempotencyKey: key('pay'),
          kind: 'payment',
          familyId,
          occurredOn: '2026-06-10',
          description: 'Payment',
          createdBy: null,
          paymentMode: 'cash',
          postings: [
            { account: 'cash', amountPaise: paise },
            { account: 'receivable', amountPaise: -paise, studentId },
          ],
        }),
      );
    await postCharge(db, familyId, 21, 100_000, '2026-06-05');
    await postCharge(db, familyId, 22, 60_000, '2026-05-05');
    await credit(80_000, null);
    const open = await openCharges(db, [familyId]);
    expect(open.map((c) => [c.studentId, c.dueOn, c.owedPaise])).toEqual([[21, '2026-06-05', 80_000]]);
    await credit(100_000, null);
    expect(await familyBalance(db, familyId)).toBe(-20_000);
    expect(await openCharges(db, [familyId])).toEqual([]);
    await postCharge(db, familyId, 22, 50_000, '2026-07-05');
    const later = await openCharges(db, [familyId]);
    expect(later.map((c) => [c.studentId, c.owedPaise])).toEqual([[22, 30_000]]);
    expect(await familyBalance(db, familyId)).toBe(30_000);
  });

  it('refuses an entry for a family that does not exist', async () => {
    await expect(
      db.transaction((tx) =>
        postTransaction(tx, {
          idempotencyKey: key('nobody'),
          kind: 'charge',
          familyId: 987_654,
          occurredOn: '2026-04-01',
          description: 'x',
          createdBy: null,
          postings: [
            { account: 'receivable', amountPaise: 1 },
            { account: 'tuition_income', amountPaise: -1 },
          ],
        }),
      ),
    ).rejects.toThrow(/foreign key/);
  });
});
