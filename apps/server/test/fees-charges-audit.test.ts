import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, testClient } from './helpers/client';
import { addPlan, lastMonth, ownClass, run, studentJoined } from './helpers/fees-charges';

// The audit rows of a charge run (issue 29, ADR 052): migration 0039 builds the row of a table with no
// secret column as its JSON less the ignored columns, instead of walking every column (the run's
// largest cost on the embedded database). What the log holds must not change: every row the run
// wrote, whole, by whoever ran it; a table's ignored columns still left out.
let api: TestClient;
beforeAll(async () => {
  api = await testClient();
});
afterAll(async () => {
  await api?.close();
});

describe('the charge run in the audit log', () => {
  it('records every ledger transaction and charge it wrote, whole, as created by the admin', async () => {
    const month = lastMonth();
    const classValue = await ownClass(api);
    const first = await studentJoined(api, '2025-01-01', { class_name: classValue });
    await studentJoined(api, '2025-01-01', { class_name: classValue, parent_phone: first.parent_phone });
    await studentJoined(api, '2025-01-01', { class_name: classValue });
    const discounts = await api.as('admin').put('/api/v1/fees/discounts', {
      sibling: { mode: 'percent', value: 10 },
    });
    expect(discounts.statusCode, discounts.body).toBe(200);
    const plan = await addPlan(api, {
      name: 'Audited tuition',
      kind: 'monthly',
      amount_paise: 120_000,
      class_names: [classValue],
    });
    // Three charges and the second sibling's discount.
    expect(await run(api, month)).toBe(4);

    const charges = await api.db.query<{ id: number; row: unknown; after: unknown; actor: string; action: string }>(
      `SELECT c.id, to_jsonb(c) AS row, a.after, a.actor_name AS actor, a.action
         FROM fee_charges c
         LEFT JOIN audit_log a ON a.entity = 'fee_charges' AND a.record_id = c.id::text
        WHERE c.plan_id = $1 ORDER BY c.id`,
      [plan.id],
    );
    expect(charges).toHaveLength(3);
    for (const charge of charges) {
      expect(charge.action).toBe('create');
      expect(charge.actor).toBe('Administrator');
      expect(charge.after).toEqual(charge.row);
    }
    const transactions = await api.db.query<{ kind: string; row: unknown; after: unknown }>(
      `SELECT t.kind, to_jsonb(t) AS row, a.after
         FROM ledger_transactions t
         LEFT JOIN audit_log a ON a.entity = 'ledger_transactions' AND a.record_id = t.id::text
        WHERE t.id IN (SELECT transaction_id FROM fee_charges WHERE plan_id = $1
                       UNION SELECT discount_transaction_id FROM fee_charges WHERE plan_id = $1)
        ORDER BY t.id`,
      [plan.id],
    );
    expect(transactions.map((t) => t.kind).sort()).toEqual(['charge', 'charge', 'charge', 'discount']);
    for (const transaction of transactions) expect(transaction.after).toEqual(transaction.row);
  });

  it("leaves a table's ignored columns out of its rows (a plan's updated_at)", async () => {
    const plan = await addPlan(api, { name: 'Audited lab', kind: 'per_day', amount_paise: 5_000, class_names: [] });
    const [logged] = await api.db.query<{ after: Record<string, unknown>; row: Record<string, unknown> }>(
      `SELECT a.after, to_jsonb(p) - 'updated_at' AS row
         FROM audit_log a JOIN fee_plans p ON a.record_id = p.id::text
        WHERE a.entity = 'fee_plans' AND a.action = 'create' AND p.id = $1`,
      [plan.id],
    );
    expect(logged?.after).toEqual(logged?.row);
    expect(Object.keys(logged?.after ?? {})).not.toContain('updated_at');
    expect(logged?.after.name).toBe('Audited lab');
  });
});
