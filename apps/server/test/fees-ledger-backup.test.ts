import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { restoreBackup } from '../src/db/backup';
import type { Database } from '../src/db/database';
import { today } from '../src/lib/time';
import {
  allocateAndRecordPayment,
  familyBalance,
  familyIdForPhone,
  openCharges,
  postTransaction,
  reverseTransaction,
} from '../src/modules/fees';
import { backupToFile, fileSource } from './helpers/backup-files';
import { scratchSpace } from './helpers/scratch';
import { uniquePhone } from './helpers/test-app';

/**
 * The ledger in a backup (ADR 051): its append-only tables and the receipt counters restore into an
 * empty database whole (a restore only inserts), still balanced and still append-only, and the next
 * payment there takes the next receipt number.
 */
const { tempDir, emptyDatabase } = scratchSpace('tuitiondesk-fees-backup');

const pay = (db: Database, familyId: number, paise: number) =>
  db.transaction((tx) =>
    allocateAndRecordPayment(tx, {
      idempotencyKey: `counter:${randomUUID()}`,
      familyId,
      amountPaise: paise,
      mode: 'cash',
      receivedOn: today(),
      reference: null,
      recordedBy: null,
      request: { paise },
    }),
  );

const ledger = (db: Database) =>
  db.query(
    `SELECT t.id, t.idempotency_key, t.kind, t.family_id, t.reverses, e.account, e.student_id, e.amount_paise
       FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id ORDER BY e.id`,
  );

describe('the ledger in a backup', () => {
  it('restores whole, balanced and append-only, and numbers the next receipt after the last', async () => {
    const db = await emptyDatabase();
    const familyId = await db.transaction((tx) => familyIdForPhone(tx, uniquePhone()));
    await db.transaction((tx) =>
      postTransaction(tx, {
        idempotencyKey: `backup-charge:${randomUUID()}`,
        kind: 'charge',
        familyId,
        occurredOn: today(),
        description: 'Tuition',
        createdBy: null,
        postings: [
          { account: 'receivable', amountPaise: 90_000, studentId: 5 },
          { account: 'tuition_income', amountPaise: -90_000 },
        ],
      }),
    );
    const first = await pay(db, familyId, 30_000);
    const second = await pay(db, familyId, 10_000);
    await db.transaction((tx) =>
      reverseTransaction(tx, second.payment_id, { occurredOn: today(), description: 'Mistake', createdBy: null }),
    );
    const file = await backupToFile(tempDir(), db);

    const restored = await emptyDatabase();
    await restoreBackup(restored, fileSource(file), { label: file });
    expect(await ledger(restored)).toEqual(await ledger(db));
    expect(await familyBalance(restored, familyId)).toBe(60_000);
    expect(await openCharges(restored, [familyId])).toEqual(await openCharges(db, [familyId]));
    await expect(
      restored.transaction((tx) =>
        tx.query('DELETE FROM ledger_entries WHERE transaction_id = $1', [first.payment_id]),
      ),
    ).rejects.toThrow(/append-only/);

    const next = await pay(restored, familyId, 5_000);
    expect(Number(next.receipt_number.slice(-6))).toBe(Number(second.receipt_number.slice(-6)) + 1);
    expect(next.payment_id).toBeGreaterThan(second.payment_id);
    expect(next.balance_paise).toBe(55_000);
  });
});
