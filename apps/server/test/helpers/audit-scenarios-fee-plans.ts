import { today } from '../../src/lib/time';
import { admin, adminActor, api, type Scenario } from './audit';
import { uniquePhone } from './test-app';

/**
 * The audit walk's scenarios for fee plans, discounts and the charge run (ADR 052): each change leaves
 * its row in `fee_plans` or `settings`, and a run the charges it raised with their ledger transactions.
 */
let made = 0;
async function plan(fields: Record<string, unknown> = {}): Promise<{ id: number; name: string }> {
  made += 1;
  const response = await admin.post('/api/v1/fees/plans', {
    name: `Audit plan ${made}`,
    kind: 'monthly',
    amount_paise: 100_000,
    ...fields,
  });
  return response.json() as { id: number; name: string };
}

async function setting(key: string): Promise<string | undefined> {
  const [row] = await api.db.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [key]);
  return row?.value;
}

export const FEE_PLAN_SCENARIOS: Record<string, () => Promise<Scenario>> = {
  'POST /api/v1/fees/plans': async () => ({
    actor: adminActor(),
    way: 'console',
    send: (options) =>
      admin.post('/api/v1/fees/plans', { name: 'Walked plan', kind: 'per_day', amount_paise: 25_000 }, options),
    rows: [{ entity: 'fee_plans', action: 'create', after: { name: 'Walked plan', amount_paise: 25_000 } }],
  }),
  'PUT /api/v1/fees/plans/{id}': async () => {
    const walked = await plan();
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.put(`/api/v1/fees/plans/${walked.id}`, { amount_paise: 120_000 }, options),
      rows: [
        {
          entity: 'fee_plans',
          action: 'update',
          record_id: String(walked.id),
          before: { amount_paise: 100_000 },
          after: { amount_paise: 120_000 },
        },
      ],
    };
  },
  'POST /api/v1/fees/plans/{id}/archive': async () => {
    const walked = await plan();
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.post(`/api/v1/fees/plans/${walked.id}/archive`, undefined, options),
      rows: [{ entity: 'fee_plans', action: 'update', record_id: String(walked.id), before: { archived_at: null } }],
    };
  },
  'POST /api/v1/fees/plans/{id}/unarchive': async () => {
    const walked = await plan();
    await admin.post(`/api/v1/fees/plans/${walked.id}/archive`);
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.post(`/api/v1/fees/plans/${walked.id}/unarchive`, undefined, options),
      rows: [{ entity: 'fee_plans', action: 'update', record_id: String(walked.id), after: { archived_at: null } }],
    };
  },
  'DELETE /api/v1/fees/plans/{id}': async () => {
    const walked = await plan();
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.delete(`/api/v1/fees/plans/${walked.id}`, options),
      rows: [{ entity: 'fee_plans', action: 'delete', record_id: String(walked.id), before: { name: walked.name } }],
    };
  },
  'PUT /api/v1/fees/discounts': async () => {
    const before = (await setting('fees_sibling_discount_mode')) ?? 'none';
    const mode = before === 'percent' ? 'flat' : 'percent';
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.put('/api/v1/fees/discounts', { sibling: { mode, value: 10 } }, options),
      rows: [
        {
          entity: 'settings',
          action: 'update',
          record_id: 'fees_sibling_discount_mode',
          before: { value: before },
          after: { value: mode },
        },
      ],
    };
  },
  'PUT /api/v1/fees/charges/schedule': async () => {
    const before = (await setting('fees_charge_run_hour')) ?? '6';
    const hour = before === '7' ? 8 : 7;
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.put('/api/v1/fees/charges/schedule', { hour }, options),
      rows: [
        {
          entity: 'settings',
          action: 'update',
          record_id: 'fees_charge_run_hour',
          before: { value: before },
          after: { value: String(hour) },
        },
      ],
    };
  },
  'POST /api/v1/fees/charges/run': async () => {
    const created = await admin.post('/api/v1/students/', {
      full_name: 'Audit Charged',
      parent_name: 'Audit Parent',
      class_name: '7',
      parent_phone: uniquePhone(),
    });
    if (created.statusCode !== 201) throw new Error(created.body);
    const student = created.json() as { id: number };
    const walked = await plan({ kind: 'one_time', amount_paise: 45_000, student_ids: [student.id] });
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.post('/api/v1/fees/charges/run', { month: today().slice(0, 7) }, options),
      rows: [
        {
          entity: 'fee_charges',
          action: 'create',
          after: { plan_id: walked.id, student_id: student.id, amount_paise: 45_000 },
        },
        {
          entity: 'ledger_transactions',
          action: 'create',
          after: { kind: 'charge', description: `${walked.name}, once` },
        },
      ],
    };
  },
};
