import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, testClient } from './helpers/client';
import { detailOf } from './helpers/test-app';

// A class a fee plan names is not deleted (ADR 052): 409 as for a class with students, archiving still
// allowed; the classes module asks the fees module's registered check, as it imports no fees.
let api: TestClient;
beforeAll(async () => {
  api = await testClient();
});
afterAll(async () => {
  await api?.close();
});

const admin = () => api.as('admin');

async function addClass(value: string): Promise<number> {
  const response = await admin().post('/api/v1/classes', { value });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as number;
}

const classExists = async (id: number) => (await api.db.query('SELECT 1 FROM classes WHERE id = $1', [id])).length > 0;

describe('deleting a class that fee plans name', () => {
  it('is refused with 409 naming the plans; archiving is allowed; once no plan names it, it is deleted', async () => {
    const id = await addClass('21');
    const plan = await admin().post('/api/v1/fees/plans', {
      name: 'Batch 21 tuition',
      kind: 'monthly',
      amount_paise: 90_000,
      class_names: ['21'],
    });
    expect(plan.statusCode, plan.body).toBe(201);
    const archivedPlan = await admin().post('/api/v1/fees/plans', {
      name: 'Batch 21 books',
      kind: 'one_time',
      amount_paise: 20_000,
      class_names: ['21'],
    });
    expect(archivedPlan.statusCode, archivedPlan.body).toBe(201);
    expect((await admin().post(`/api/v1/fees/plans/${archivedPlan.json().id}/archive`)).statusCode).toBe(200);

    const refused = await admin().delete(`/api/v1/classes/${id}`);
    expect(refused.statusCode).toBe(409);
    expect(detailOf(refused)).toBe(
      'Class 21 is named by 2 fee plans (Batch 21 books, Batch 21 tuition) and cannot be deleted: archive it instead, so it is no longer offered',
    );
    expect(await classExists(id)).toBe(true);

    expect((await admin().post(`/api/v1/classes/${id}/archive`)).statusCode).toBe(200);
    expect((await admin().delete(`/api/v1/fees/plans/${plan.json().id}`)).statusCode).toBe(200);
    const stillOne = await admin().delete(`/api/v1/classes/${id}`);
    expect(stillOne.statusCode).toBe(409);
    expect(detailOf(stillOne)).toMatch(/^Class 21 is named by 1 fee plan \(Batch 21 books\)/);
    expect((await admin().delete(`/api/v1/fees/plans/${archivedPlan.json().id}`)).statusCode).toBe(200);
    expect((await admin().delete(`/api/v1/classes/${id}`)).statusCode).toBe(200);
    expect(await classExists(id)).toBe(false);
  });

  it('at the same instant as a plan naming it: either the plan is made and the class stays, or the class goes and the plan is refused', async () => {
    for (const value of ['22', '23', '24']) {
      const id = await addClass(value);
      const [removed, made] = await Promise.all([
        admin().delete(`/api/v1/classes/${id}`),
        admin().post('/api/v1/fees/plans', {
          name: `Batch ${value} tuition`,
          kind: 'monthly',
          amount_paise: 50_000,
          class_names: [value],
        }),
      ]);
      const plans = await api.db.query('SELECT id FROM fee_plans WHERE $1 = ANY (class_names)', [value]);
      if (made.statusCode === 201) {
        expect(removed.statusCode).toBe(409);
        expect(await classExists(id)).toBe(true);
        expect(plans).toHaveLength(1);
      } else {
        expect(made.statusCode, made.body).toBe(422);
        expect(removed.statusCode).toBe(200);
        expect(await classExists(id)).toBe(false);
        expect(plans).toHaveLength(0);
      }
    }
  });
});
