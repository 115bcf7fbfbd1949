import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, testClient } from './helpers/client';
import { lastActivity } from './helpers/imports';
import { detailOf } from './helpers/test-app';

// Fee plans, discounts and the automatic run's settings (issue 29, ADR 052): what an admin writes,
// what the database keeps, and every kind of bad input refused with nothing written.
let api: TestClient;
beforeAll(async () => {
  api = await testClient();
});
afterAll(async () => {
  await api?.close();
});

const PLANS = '/api/v1/fees/plans';
const admin = () => api.as('admin');

async function planCount(): Promise<number> {
  const [row] = await api.db.query<{ n: number }>('SELECT count(*)::int AS n FROM fee_plans');
  return row?.n ?? 0;
}

async function addPlan(body: Record<string, unknown>) {
  const response = await admin().post(PLANS, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: number; name: string; charges: number; archived: boolean };
}

describe('plans', () => {
  it('adds each kind, per class and per student, and lists them with their charges', async () => {
    const student = await api.student({ class_name: '8' });
    const monthly = await admin().post(PLANS, {
      name: 'Class 7 tuition',
      kind: 'monthly',
      amount_paise: 150_000,
      class_names: ['Class 7'],
      due_day: 5,
      late_fee_paise: 5_000,
    });
    expect(monthly.statusCode, monthly.body).toBe(201);
    expect(monthly.json()).toEqual({
      id: expect.any(Number),
      name: 'Class 7 tuition',
      kind: 'monthly',
      amount_paise: 150_000,
      class_names: ['7'],
      student_ids: [],
      due_day: 5,
      late_fee_paise: 5_000,
      sessions: null,
      instalments: [],
      archived: false,
      archived_at: null,
      charges: 0,
    });
    await addPlan({ name: 'Lab days', kind: 'per_day', amount_paise: 20_000, student_ids: [student.id] });
    await addPlan({ name: 'Ten classes', kind: 'package', amount_paise: 400_000, sessions: 10, class_names: ['8'] });
    const books = await addPlan({
      name: 'Admission',
      kind: 'one_time',
      amount_paise: 300_000,
      class_names: ['9'],
      instalments: [
        { due_on: '2026-12-10', amount_paise: 200_000 },
        { due_on: '2026-11-10', amount_paise: 100_000 },
      ],
    });
    const listed = (await admin().get(PLANS)).json() as { name: string; instalments: unknown[]; due_day: number }[];
    expect(listed.map((plan) => plan.name)).toEqual(['Admission', 'Class 7 tuition', 'Lab days', 'Ten classes']);
    // Parts are kept in date order; a plan written without a due day falls due on the 10th.
    expect(listed[0]?.instalments).toEqual([
      { due_on: '2026-11-10', amount_paise: 100_000 },
      { due_on: '2026-12-10', amount_paise: 200_000 },
    ]);
    expect(listed[2]?.due_day).toBe(10);
    expect(await lastActivity(api)).toEqual({
      action: 'fees.plan_created',
      description: 'Administrator added the fee plan Admission',
    });
    const audit = await api.db.query<{ action: string; after: { amount_paise: number } }>(
      `SELECT action, after FROM audit_log WHERE entity = 'fee_plans' AND record_id = $1`,
      [String(books.id)],
    );
    expect(audit).toEqual([
      expect.objectContaining({ action: 'create', after: expect.objectContaining({ amount_paise: 300_000 }) }),
    ]);
  });

  it('refuses bad input with a 422 or 404 naming the field, and writes nothing', async () => {
    const before = await planCount();
    const good = { name: 'Refused', kind: 'monthly', amount_paise: 1000 };
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...good, amount_paise: -5 }, 422, 'amount_paise: must be more than 0'],
      [{ ...good, amount_paise: 0 }, 422, 'amount_paise: must be more than 0'],
      [{ ...good, amount_paise: 12.5 }, 422, 'amount_paise: must be a whole number'],
      [{ ...good, amount_paise: 1_000_000_001 }, 422, 'amount_paise: must be at most'],
      [{ ...good, amount_paise: '1000' }, 422, 'amount_paise: must be the amount in paise'],
      [{ ...good, amount_paise: 1e300 }, 422, 'amount_paise:'],
      [{ ...good, kind: 'weekly' }, 422, 'kind: must be monthly, per_day, package or one_time'],
      [{ ...good, class_names: ['12'] }, 422, 'class_names[0]: must be one of 7, 8, 9 or 10'],
      [{ ...good, student_ids: [987_654] }, 404, 'Student with id 987654 was not found'],
      [{ ...good, due_day: 31 }, 422, 'due_day: must be a day of the month from 1 to 28'],
      [{ ...good, late_fee_paise: -1 }, 422, 'late_fee_paise: must be 0 or more'],
      [{ ...good, kind: 'package' }, 422, 'sessions: a package plan needs the number of sessions'],
      [{ ...good, sessions: 4 }, 422, 'sessions: only a package plan has it'],
      [
        { ...good, instalments: [{ due_on: '2026-12-01', amount_paise: 1000 }] },
        422,
        'instalments: only a one-time plan',
      ],
      [
        { ...good, kind: 'one_time', instalments: [{ due_on: '2026-12-01', amount_paise: 999 }] },
        422,
        "instalments: the parts add up to 999 paise, not the plan's amount_paise (1000)",
      ],
      [
        { ...good, kind: 'one_time', instalments: [{ due_on: '2026-02-30', amount_paise: 1000 }] },
        422,
        'instalments[0].due_on',
      ],
      [{ ...good, name: '   ' }, 422, 'name: must not be empty'],
      [{ ...good, name: 'class 7 TUITION' }, 409, 'name: there is already a fee plan named class 7 TUITION'],
    ];
    for (const [body, status, detail] of cases) {
      const response = await admin().post(PLANS, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(detailOf(response)).toContain(detail);
    }
    expect(await planCount()).toBe(before);
  });

  it('changes a plan but not its kind, and refuses an unknown one with 404', async () => {
    const plan = await addPlan({ name: 'Evening batch', kind: 'monthly', amount_paise: 90_000 });
    const changed = await admin().put(`${PLANS}/${plan.id}`, {
      amount_paise: 95_000,
      class_names: ['10'],
      kind: 'per_day',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ kind: 'monthly', amount_paise: 95_000, class_names: ['10'] });
    expect(await lastActivity(api)).toMatchObject({ action: 'fees.plan_updated' });
    const missing = await admin().put(`${PLANS}/999999`, { amount_paise: 1 });
    expect(missing.statusCode).toBe(404);
    expect(detailOf(missing)).toBe('No fee plan with id 999999');
    const bad = await admin().put(`${PLANS}/${plan.id}`, { due_day: 0 });
    expect(bad.statusCode).toBe(422);
    const [row] = await api.db.query<{ amount_paise: number; due_day: number }>(
      'SELECT amount_paise, due_day FROM fee_plans WHERE id = $1',
      [plan.id],
    );
    expect(row).toEqual({ amount_paise: 95_000, due_day: 10 });
  });

  it('deletes a plan that charged nothing, archives one that did and refuses to delete it (409)', async () => {
    const unused = await addPlan({ name: 'Never used', kind: 'one_time', amount_paise: 5_000 });
    expect((await admin().delete(`${PLANS}/${unused.id}`)).statusCode).toBe(200);
    expect(await api.db.query('SELECT 1 FROM fee_plans WHERE id = $1', [unused.id])).toEqual([]);
    expect(await lastActivity(api)).toMatchObject({ action: 'fees.plan_deleted' });

    const student = await api.student({ class_name: '10' });
    const used = await addPlan({ name: 'Books', kind: 'one_time', amount_paise: 70_000, student_ids: [student.id] });
    const run = await admin().post('/api/v1/fees/charges/run', { month: new Date().toISOString().slice(0, 7) });
    expect(run.statusCode, run.body).toBe(200);
    const refused = await admin().delete(`${PLANS}/${used.id}`);
    expect(refused.statusCode).toBe(409);
    expect(detailOf(refused)).toBe(
      'Books has raised 1 charge and cannot be deleted: archive it instead, so it charges nothing more',
    );
    const archived = await admin().post(`${PLANS}/${used.id}/archive`);
    expect(archived.statusCode).toBe(200);
    expect(archived.json()).toMatchObject({ archived: true, charges: 1, archived_at: expect.any(String) });
    // An archived plan's name is free for a new plan; unarchiving the old one then is refused.
    await addPlan({ name: 'Books', kind: 'one_time', amount_paise: 80_000 });
    expect((await admin().post(`${PLANS}/${used.id}/unarchive`)).statusCode).toBe(409);
  });

  it('two plans of one name at once: one is added, the other is told the name is taken', async () => {
    const body = { name: 'Raced name', kind: 'monthly', amount_paise: 1_000 };
    const answers = await Promise.all([
      admin().post(PLANS, body),
      admin().post(PLANS, body),
      admin().post(PLANS, body),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409]);
    expect(await api.db.query("SELECT id FROM fee_plans WHERE name = 'Raced name'")).toHaveLength(1);
  });

  it('two deletes at once delete once', async () => {
    const plan = await addPlan({ name: 'Twice deleted', kind: 'monthly', amount_paise: 1_000 });
    const answers = await Promise.all([admin().delete(`${PLANS}/${plan.id}`), admin().delete(`${PLANS}/${plan.id}`)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 404]);
  });

  it('is for admins only: a teacher gets 403 on every plan route', async () => {
    const teacher = api.as('teacher');
    for (const response of [
      await teacher.get(PLANS),
      await teacher.post(PLANS, { name: 'T', kind: 'monthly', amount_paise: 1 }),
      await teacher.get('/api/v1/fees/discounts'),
      await teacher.post('/api/v1/fees/charges/run', { month: '2026-01' }),
      await teacher.get('/api/v1/fees/charges/schedule'),
    ]) {
      expect(response.statusCode).toBe(403);
    }
  });
});

describe('discounts and the schedule', () => {
  it('starts with no discounts and the run on the 1st at 06:00', async () => {
    expect((await admin().get('/api/v1/fees/discounts')).json()).toEqual({
      sibling: { mode: 'none', value: 0 },
      staff_child: { mode: 'none', value: 0 },
      staff_child_ids: [],
    });
    expect((await admin().get('/api/v1/fees/charges/schedule')).json()).toMatchObject({
      automatic: true,
      day: 1,
      hour: 6,
    });
  });

  it('keeps the rules and the staff children, audited; refuses a percent over 100 and unknown students', async () => {
    const child = await api.student();
    const saved = await admin().put('/api/v1/fees/discounts', {
      sibling: { mode: 'percent', value: 10 },
      staff_child: { mode: 'flat', value: 50_000 },
      staff_child_ids: [child.id, child.id],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({
      sibling: { mode: 'percent', value: 10 },
      staff_child: { mode: 'flat', value: 50_000 },
      staff_child_ids: [child.id],
    });
    const audited = await api.db.query<{ record_id: string }>(
      `SELECT record_id FROM audit_log WHERE entity IN ('settings', 'fee_staff_children') ORDER BY id DESC LIMIT 3`,
    );
    expect(audited.map((row) => row.record_id)).toContain(String(child.id));
    const tooMuch = await admin().put('/api/v1/fees/discounts', { sibling: { mode: 'percent', value: 101 } });
    expect(tooMuch.statusCode).toBe(422);
    expect(detailOf(tooMuch)).toBe('sibling.value: a percent must be from 1 to 100');
    const unknown = await admin().put('/api/v1/fees/discounts', { staff_child_ids: [999_999] });
    expect(unknown.statusCode).toBe(404);
    expect((await admin().get('/api/v1/fees/discounts')).json()).toEqual(saved.json());
  });

  it('changes the schedule within 1–28 and 0–23 only', async () => {
    const saved = await admin().put('/api/v1/fees/charges/schedule', { day: 5, hour: 7 });
    expect(saved.json()).toMatchObject({ automatic: true, day: 5, hour: 7 });
    expect(await lastActivity(api)).toEqual({
      action: 'fees.schedule',
      description: "Administrator set the automatic charge run to raise each month's charges from day 5 at 07:00",
    });
    for (const body of [{ day: 29 }, { day: 0 }, { hour: 24 }, { automatic: 'yes' }]) {
      expect((await admin().put('/api/v1/fees/charges/schedule', body)).statusCode).toBe(422);
    }
    expect((await admin().get('/api/v1/fees/charges/schedule')).json()).toMatchObject({
      automatic: true,
      day: 5,
      hour: 7,
    });
  });
});
