import type { Database } from '../../src/db/database';
import { today } from '../../src/lib/time';

/**
 * The role walk's requests for fee plans, discounts and the charge run (ADR 052): real ones, so an
 * admin gets past the role check and validation with each, where a teacher gets 403.
 */
export async function feePlanExamples(db: Database): Promise<Record<string, { url: string; payload?: unknown }>> {
  const [kept, spare] = await db.query<{ id: number }>(
    `INSERT INTO fee_plans (name, kind, amount_paise) VALUES ('Role walk plan', 'monthly', 100000),
       ('Role walk spare plan', 'one_time', 5000) RETURNING id`,
  );
  return {
    'GET /api/v1/fees/plans': { url: '/api/v1/fees/plans' },
    'POST /api/v1/fees/plans': {
      url: '/api/v1/fees/plans',
      payload: { name: 'Role walk new plan', kind: 'monthly', amount_paise: 1_000, class_names: ['8'] },
    },
    'PUT /api/v1/fees/plans/{id}': { url: `/api/v1/fees/plans/${kept?.id}`, payload: { amount_paise: 2_000 } },
    'POST /api/v1/fees/plans/{id}/archive': { url: `/api/v1/fees/plans/${kept?.id}/archive` },
    'POST /api/v1/fees/plans/{id}/unarchive': { url: `/api/v1/fees/plans/${kept?.id}/unarchive` },
    'DELETE /api/v1/fees/plans/{id}': { url: `/api/v1/fees/plans/${spare?.id}` },
    'GET /api/v1/fees/discounts': { url: '/api/v1/fees/discounts' },
    'PUT /api/v1/fees/discounts': {
      url: '/api/v1/fees/discounts',
      payload: { sibling: { mode: 'percent', value: 5 } },
    },
    'POST /api/v1/fees/charges/run': { url: '/api/v1/fees/charges/run', payload: { month: today().slice(0, 7) } },
    'GET /api/v1/fees/charges/schedule': { url: '/api/v1/fees/charges/schedule' },
    'PUT /api/v1/fees/charges/schedule': { url: '/api/v1/fees/charges/schedule', payload: { hour: 7 } },
  };
}
