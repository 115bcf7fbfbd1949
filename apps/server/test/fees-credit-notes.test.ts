import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../src/context';
import { restoreBackup } from '../src/db/backup';
import type { Database } from '../src/db/database';
import { today } from '../src/lib/time';
import { familyDate } from '../src/modules/families';
import {
  allocateAndRecordPayment,
  familyIdForPhone,
  financialYear,
  fixReceiptTax,
  reversePayment,
} from '../src/modules/fees';
import { layoutReceipt } from '../src/modules/fees/receipt-pdf';
import { creditNoteNumber } from '../src/modules/fees/receipts';
import { backupToFile, fileSource } from './helpers/backup-files';
import { type Caller, type TestClient, testClient } from './helpers/client';
import { feeFamily, pay } from './helpers/fees-ledger';
import { scratchSpace } from './helpers/scratch';
import { uniquePhone } from './helpers/test-app';

/**
 * Credit notes (ADR 057): reversing a payment whose receipt was a tax invoice issues a credit note
 * against it, in a gapless series of its own per financial year, its figures the invoice's negated,
 * fixed in the reversal's transaction, audited, shown on the receipt and its PDF; a plain receipt gets
 * none. Two reversals at once issue one.
 */
let api: TestClient;
let admin: Caller;
beforeAll(async () => {
  api = await testClient();
  admin = api.as('admin');
});
afterAll(async () => {
  await api?.close();
});

const GSTIN = '27AAPFU0939F1ZV';
const YEAR = financialYear(today());

async function register(registered: boolean) {
  const body = registered
    ? { registered, gstin: GSTIN, rate_basis_points: 1800, address: '14 MG Road, Pune' }
    : { registered, gstin: null };
  const response = await admin.put('/api/v1/fees/gst', body);
  expect(response.statusCode, response.body).toBe(200);
}

const reverse = (paymentId: number, reason = 'Cheque bounced') =>
  admin.post(`/api/v1/fees/payments/${paymentId}/reverse`, { reason });

interface ReceiptJson {
  receipt_number: string;
  reversed: boolean;
  tax: { taxable_paise: number; cgst_paise: number; sgst_paise: number; igst_paise: number } | null;
  credit_note: {
    number: string;
    issued_on: string;
    reason: string;
    taxable_paise: number;
    cgst_paise: number;
    sgst_paise: number;
    igst_paise: number;
  } | null;
}

async function receiptOf(paymentId: number): Promise<ReceiptJson> {
  const response = await admin.get(`/api/v1/fees/receipts/${paymentId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as ReceiptJson;
}

const serialOf = (number: string) => Number(number.split('/')[2]);
const lastCreditNote = async (db: Database = api.db) =>
  Number(
    (
      await db.query<{ last_number: number }>(
        'SELECT last_number FROM fee_credit_note_counters WHERE financial_year = $1',
        [YEAR],
      )
    )[0]?.last_number ?? 0,
  );

describe('a credit note', () => {
  it('is numbered CN/<year>/<5 digits>, at most 16 characters', () => {
    expect(creditNoteNumber('2026-27', 1)).toBe('CN/2026-27/00001');
    expect(creditNoteNumber('2026-27', 99_999).length).toBeLessThanOrEqual(16);
  });

  it('is issued when a tax invoice is reversed: the next of its series, the tax figures negated, on the receipt and its PDF', async () => {
    await register(true);
    const family = await feeFamily(api, 1);
    const first = await pay(api, family.familyId, 118_000);
    const second = await pay(api, family.familyId, 59_000);
    const before = await lastCreditNote();

    const reversed = await reverse(first.payment_id, 'Cheque bounced');
    expect(reversed.statusCode, reversed.body).toBe(200);
    const answered = reversed.json() as ReceiptJson;
    expect(answered.credit_note).toEqual({
      number: creditNoteNumber(YEAR, before + 1),
      issued_on: today(),
      reason: 'Cheque bounced',
      taxable_paise: -100_000,
      cgst_paise: -9_000,
      sgst_paise: -9_000,
      igst_paise: 0,
    });
    expect(await receiptOf(first.payment_id)).toEqual(answered);

    expect((await reverse(second.payment_id, 'Entered twice')).statusCode).toBe(200);
    const next = (await receiptOf(second.payment_id)).credit_note;
    expect(next?.number).toBe(creditNoteNumber(YEAR, before + 2));
    expect(next).toMatchObject({ taxable_paise: -50_000, cgst_paise: -4_500, sgst_paise: -4_500 });

    // The same words on paper, in every language, and the PDF made.
    const receipt = await receiptOf(first.payment_id);
    const lines = layoutReceipt(receipt as never, 'en', familyDate).lines.map((line) =>
      'label' in line ? `${line.label}: ${line.value}` : line.text,
    );
    const number = answered.credit_note?.number as string;
    expect(lines).toContain(
      `Credit note ${number} issued on ${familyDate(today(), 'en')} against invoice ${first.receipt_number}`,
    );
    expect(lines).toEqual(expect.arrayContaining([`Credit note ${number}`, 'Taxable value: -₹1,000.00']));
    for (const language of ['hi', 'ur'] as const) {
      const words = layoutReceipt(receipt as never, language, familyDate).lines.map((line) =>
        'text' in line ? line.text : '',
      );
      expect(words.some((text) => text.includes(number) && text.includes(first.receipt_number))).toBe(true);
      const pdf = await admin.get(`/api/v1/fees/receipts/${first.payment_id}?lang=${language}`, {
        headers: { accept: 'application/pdf' },
      });
      expect(pdf.statusCode).toBe(200);
      expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }
    await register(false);
  });

  it('is not issued for a plain receipt, which is marked reversed as before and takes no number', async () => {
    await register(false);
    const family = await feeFamily(api, 1);
    const paid = await pay(api, family.familyId, 20_000);
    const before = await lastCreditNote();
    const reversed = await reverse(paid.payment_id);
    expect(reversed.statusCode, reversed.body).toBe(200);
    expect(reversed.json()).toMatchObject({ reversed: true, tax: null, credit_note: null });
    expect(await lastCreditNote()).toBe(before);
    const rows = await api.db.query('SELECT 1 FROM fee_credit_notes WHERE payment_id = $1', [paid.payment_id]);
    expect(rows).toHaveLength(0);
    // An unreversed tax invoice has none either.
    await register(true);
    const invoice = await pay(api, family.familyId, 11_800);
    expect((await receiptOf(invoice.payment_id)).credit_note).toBeNull();
    await register(false);
  });

  it('is issued once when two reversals come at once, and the other takes no number (the series stays gapless)', async () => {
    await register(true);
    const family = await feeFamily(api, 1);
    const paid = await pay(api, family.familyId, 23_600);
    const before = await lastCreditNote();
    const answers = await Promise.all([reverse(paid.payment_id), reverse(paid.payment_id, 'Mistake')]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const notes = await api.db.query<{ credit_note_number: string }>(
      'SELECT credit_note_number FROM fee_credit_notes WHERE payment_id = $1',
      [paid.payment_id],
    );
    expect(notes.map((note) => serialOf(note.credit_note_number))).toEqual([before + 1]);
    expect(await lastCreditNote()).toBe(before + 1);
    await register(false);
  });

  it('is audited with the reversal, and can never be changed', async () => {
    await register(true);
    const family = await feeFamily(api, 1);
    const paid = await pay(api, family.familyId, 35_400);
    expect((await reverse(paid.payment_id)).statusCode).toBe(200);
    const [audited] = await api.db.query<{ action: string; after: Record<string, unknown> }>(
      "SELECT action, after FROM audit_log WHERE entity = 'fee_credit_notes' AND record_id = $1",
      [String(paid.payment_id)],
    );
    expect(audited?.action).toBe('create');
    expect(audited?.after).toMatchObject({ payment_id: paid.payment_id, taxable_paise: -30_000, cgst_paise: -2_700 });
    await expect(
      api.db.transaction((tx) =>
        tx.query('UPDATE fee_credit_notes SET cgst_paise = 0 WHERE payment_id = $1', [paid.payment_id]),
      ),
    ).rejects.toThrow(/append-only/);
    await register(false);
  });

  it('is refused to a teacher, and 404 for no such payment, issuing nothing', async () => {
    const before = await lastCreditNote();
    expect((await api.as('teacher').post('/api/v1/fees/payments/1/reverse', { reason: 'x' })).statusCode).toBe(403);
    expect((await reverse(987_654_321)).statusCode).toBe(404);
    expect(await lastCreditNote()).toBe(before);
  });
});

describe('credit notes in a backup', () => {
  const { tempDir, emptyDatabase } = scratchSpace('tuitiondesk-credit-notes-backup');
  let actor = { id: 0, full_name: 'Backup Admin' };

  async function reversedInvoice(db: Database) {
    const familyId = await db.transaction((tx) => familyIdForPhone(tx, uniquePhone()));
    const paid = await db.transaction(async (tx) => {
      const recorded = await allocateAndRecordPayment(tx, {
        idempotencyKey: `counter:${randomUUID()}`,
        familyId,
        amountPaise: 11_800,
        mode: 'cash',
        receivedOn: today(),
        reference: null,
        recordedBy: null,
        request: { n: randomUUID() },
      });
      await fixReceiptTax(tx, { paymentId: recorded.payment_id, familyId, amountPaise: 11_800 });
      return recorded;
    });
    return reversePayment({ db } as AppContext, actor, paid.payment_id, 'Mistake');
  }

  it('restores the series: the next credit note after a restore follows the last one before it', async () => {
    const db = await emptyDatabase();
    await db.query(`UPDATE fee_gst_settings SET registered = true, gstin = '${GSTIN}'`);
    // The admin who reverses, restored with the rest.
    const [admin] = await db.query<{ id: number }>(
      `INSERT INTO users (username, full_name, role, password_hash) VALUES ('backup-admin', $1, 'admin', 'x') RETURNING id`,
      [actor.full_name],
    );
    actor = { ...actor, id: Number(admin?.id) };
    await reversedInvoice(db);
    const last = await reversedInvoice(db);
    const file = await backupToFile(tempDir(), db);

    const restored = await emptyDatabase();
    await restoreBackup(restored, fileSource(file), { label: file });
    const next = await reversedInvoice(restored);
    expect(serialOf(next.credit_note?.number as string)).toBe(serialOf(last.credit_note?.number as string) + 1);
    expect(await lastCreditNote(restored)).toBe(2 + 1);
  });
});
