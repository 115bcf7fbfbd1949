import { randomUUID } from 'node:crypto';
import { today } from '../../src/lib/time';
import { familyIdForPhone, postTransaction } from '../../src/modules/fees';
import { admin, adminActor, api, type Scenario } from './audit';
import { uniquePhone } from './test-app';

/**
 * The audit walk's scenarios for the ledger's money changes (ADR 051): a payment and a reversal each
 * leave the rows the triggers write (the ledger transaction, the payment) and the family's balance
 * before and after.
 */
async function owingFamily(paise: number): Promise<number> {
  const phone = uniquePhone();
  const student = (
    await admin.post('/api/v1/students/', { full_name: 'Audit Payer', class_name: '7', parent_phone: phone })
  ).json() as { id: number };
  return api.db.transaction(async (tx) => {
    const familyId = await familyIdForPhone(tx, phone);
    await postTransaction(tx, {
      idempotencyKey: `audit-charge:${randomUUID()}`,
      kind: 'charge',
      familyId,
      occurredOn: today(),
      description: 'Tuition',
      createdBy: null,
      postings: [
        { account: 'receivable', amountPaise: paise, studentId: student.id },
        { account: 'tuition_income', amountPaise: -paise },
      ],
    });
    return familyId;
  });
}

const payment = (familyId: number, paise: number) => ({
  family_id: familyId,
  amount_paise: paise,
  mode: 'upi',
  reference: '612345678901',
  received_on: today(),
  client_id: randomUUID(),
});

export const FEES_LEDGER_SCENARIOS: Record<string, () => Promise<Scenario>> = {
  'POST /api/v1/fees/payments': async () => {
    const familyId = await owingFamily(100_000);
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.post('/api/v1/fees/payments', payment(familyId, 40_000), options),
      rows: [
        { entity: 'ledger_transactions', action: 'create', after: { kind: 'payment', family_id: familyId } },
        { entity: 'fee_payments', action: 'create', after: { family_id: familyId, amount_paise: 40_000, mode: 'upi' } },
        {
          entity: 'fee_balance',
          action: 'update',
          record_id: String(familyId),
          before: { balance_paise: 100_000 },
          after: { balance_paise: 60_000 },
        },
      ],
    };
  },
  'POST /api/v1/fees/payments/{payment_id}/reverse': async () => {
    const familyId = await owingFamily(100_000);
    const paid = (await admin.post('/api/v1/fees/payments', payment(familyId, 100_000))).json() as {
      payment_id: number;
    };
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) =>
        admin.post(`/api/v1/fees/payments/${paid.payment_id}/reverse`, { reason: 'Cheque bounced' }, options),
      rows: [
        {
          entity: 'ledger_transactions',
          action: 'create',
          after: { kind: 'reversal', reverses: paid.payment_id, description: 'Cheque bounced' },
        },
        {
          entity: 'fee_balance',
          action: 'update',
          record_id: String(familyId),
          before: { balance_paise: 0 },
          after: { balance_paise: 100_000 },
        },
      ],
    };
  },
};
