import { randomUUID } from 'node:crypto';
import type { Database } from '../../src/db/database';
import { today } from '../../src/lib/time';
import { allocateAndRecordPayment, familyIdForPhone, postTransaction } from '../../src/modules/fees';

/**
 * The ledger's part of fees (ADR 051) in the walks over every operation: a family of `phone` with a
 * charge and two payments (one to reverse, one left), and a real request for each of its routes.
 */
export async function feesLedgerExamples(
  db: Database,
  student: { id: number; parent_phone: string },
): Promise<Record<string, { url: string; payload?: unknown }>> {
  const { familyId, paymentId } = await db.transaction(async (tx) => {
    const familyId = await familyIdForPhone(tx, student.parent_phone);
    await postTransaction(tx, {
      idempotencyKey: `walk-charge:${randomUUID()}`,
      kind: 'charge',
      familyId,
      occurredOn: today(),
      description: 'Tuition',
      createdBy: null,
      postings: [
        { account: 'receivable', amountPaise: 150_000, studentId: student.id },
        { account: 'tuition_income', amountPaise: -150_000 },
      ],
    });
    const payment = await allocateAndRecordPayment(tx, {
      idempotencyKey: `counter:${randomUUID()}`,
      familyId,
      amountPaise: 50_000,
      mode: 'cash',
      receivedOn: today(),
      reference: null,
      recordedBy: null,
      request: { walk: true },
    });
    return { familyId, paymentId: payment.payment_id };
  });
  return {
    'POST /api/v1/fees/payments': {
      url: '/api/v1/fees/payments',
      payload: {
        family_id: familyId,
        amount_paise: 25_000,
        mode: 'cash',
        received_on: today(),
        client_id: randomUUID(),
      },
    },
    'POST /api/v1/fees/payments/{payment_id}/reverse': {
      url: `/api/v1/fees/payments/${paymentId}/reverse`,
      payload: { reason: 'Entered twice' },
    },
    'GET /api/v1/fees/receipts/{payment_id}': { url: `/api/v1/fees/receipts/${paymentId}` },
    'GET /api/v1/fees/students/{student_id}/family': { url: `/api/v1/fees/students/${student.id}/family` },
    'GET /api/v1/fees/families/{family_id}': { url: `/api/v1/fees/families/${familyId}` },
    'GET /api/v1/fees/families/{family_id}/statement': { url: `/api/v1/fees/families/${familyId}/statement` },
    'GET /api/v1/fees/dues': { url: '/api/v1/fees/dues' },
    'GET /api/v1/fees/ageing': { url: '/api/v1/fees/ageing' },
    'GET /api/v1/fees/collections': { url: '/api/v1/fees/collections?period=month' },
    'GET /api/v1/fees/dues/export': { url: '/api/v1/fees/dues/export?format=csv' },
    'GET /api/v1/fees/collections/export': { url: '/api/v1/fees/collections/export?period=month&format=xlsx' },
    'GET /api/v1/fees/families/{family_id}/statement/export': {
      url: `/api/v1/fees/families/${familyId}/statement/export?format=csv`,
    },
  };
}
