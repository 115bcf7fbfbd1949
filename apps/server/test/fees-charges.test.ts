import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { daysInMonth, shiftMonth } from '../src/modules/fees/charges-compute';
import { scrubStudentsWhoLeft } from '../src/modules/students/leaving';
import { type TestClient, testClient } from './helpers/client';
import {
  addPlan,
  archiveAllPlans,
  expectLedgerBalanced,
  lastMonth,
  mark,
  owedFor,
  ownClass,
  run,
  studentEntries,
  studentJoined,
  thisMonth,
} from './helpers/fees-charges';
import { lastActivity } from './helpers/imports';
import { detailOf } from './helpers/test-app';

// The monthly charge run (issue 29, ADR 052): what it charges, that it charges it once whatever the
// number of runs, and the corrections when what a month should charge changes after it was charged.
let api: TestClient;
beforeAll(async () => {
  api = await testClient();
});
afterEach(async () => {
  await archiveAllPlans(api);
});
afterAll(async () => {
  await api?.close();
});

const LONG_AGO = '2025-01-01';

async function chargeRows(planId: number) {
  return api.db.query<{ student_id: number; period: string; revision: number; units: number; amount_paise: number }>(
    'SELECT student_id, period, revision, units, amount_paise FROM fee_charges WHERE plan_id = $1 ORDER BY id',
    [planId],
  );
}

describe('monthly plans', () => {
  it('charges the month, prorated to the paisa for a mid-month join or leave, and nothing to others', async () => {
    const month = lastMonth();
    const days = daysInMonth(month);
    const classValue = await ownClass(api);
    const whole = await studentJoined(api, LONG_AGO, { class_name: classValue });
    const joined = await studentJoined(api, `${month}-16`, { class_name: classValue });
    const left = await studentJoined(api, LONG_AGO, { class_name: classValue });
    await api.db.query('UPDATE students SET left_on = $2 WHERE id = $1', [left.id, `${month}-10`]);
    const gone = await studentJoined(api, LONG_AGO, { class_name: classValue });
    await api.db.query('UPDATE students SET left_on = $2 WHERE id = $1', [gone.id, `${shiftMonth(month, -1)}-20`]);
    const later = await studentJoined(api, `${thisMonth()}-01`, { class_name: classValue });
    const plan = await addPlan(api, {
      name: 'Tuition',
      kind: 'monthly',
      amount_paise: 310_001,
      class_names: [classValue],
      due_day: 5,
    });

    expect(await run(api, month)).toBe(3);
    expect(await studentEntries(api, whole.id)).toEqual([
      { kind: 'charge', amount_paise: 310_001, due_on: `${month}-05`, description: `Tuition, ${month}` },
    ]);
    expect(await owedFor(api, joined.id)).toBe(Math.round((310_001 * (days - 15)) / days));
    expect(await owedFor(api, left.id)).toBe(Math.round((310_001 * 10) / days));
    expect(await studentEntries(api, gone.id)).toEqual([]);
    expect(await studentEntries(api, later.id)).toEqual([]);
    expect((await chargeRows(plan.id)).map((row) => row.units).sort()).toEqual([10, days, days - 15].sort());
    expect(await lastActivity(api)).toEqual({
      action: 'fees.charges_run',
      description: `Administrator ran the charges for ${month}: 3 entries posted`,
    });

    // Again: nothing more.
    expect(await run(api, month)).toBe(0);
    expect(await chargeRows(plan.id)).toHaveLength(3);
    expect(await owedFor(api, whole.id)).toBe(310_001);
    await expectLedgerBalanced(api);
  });

  it('two runs at once charge once', async () => {
    const classValue = await ownClass(api);
    const students = [];
    for (let i = 0; i < 4; i += 1) students.push(await studentJoined(api, LONG_AGO, { class_name: classValue }));
    await addPlan(api, { name: 'Raced', kind: 'monthly', amount_paise: 100_000, class_names: [classValue] });
    const answers = await Promise.all([
      api.as('admin').post('/api/v1/fees/charges/run', { month: lastMonth() }),
      api.as('admin').post('/api/v1/fees/charges/run', { month: lastMonth() }),
      api.as('admin').post('/api/v1/fees/charges/run', { month: lastMonth() }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    expect(answers.map((answer) => answer.json().created).sort()).toEqual([0, 0, 4]);
    for (const student of students) expect(await owedFor(api, student.id)).toBe(100_000);
  });

  it('corrects a month charged whole for a student who then left in it', async () => {
    const month = lastMonth();
    const classValue = await ownClass(api);
    const student = await studentJoined(api, LONG_AGO, { class_name: classValue });
    await addPlan(api, { name: 'Left later', kind: 'monthly', amount_paise: 300_000, class_names: [classValue] });
    expect(await run(api, month)).toBe(1);
    const left = await api.as('admin').post(`/api/v1/students/${student.id}/leave`, { left_on: `${month}-10` });
    expect(left.statusCode, left.body).toBe(200);
    expect(await run(api, month)).toBe(1);
    const entries = await studentEntries(api, student.id);
    const kept = Math.round((300_000 * 10) / daysInMonth(month));
    expect(entries.map((entry) => [entry.kind, entry.amount_paise])).toEqual([
      ['charge', 300_000],
      ['correction', kept - 300_000],
    ]);
    expect(await run(api, month)).toBe(0);
    await expectLedgerBalanced(api);
  });
});

describe('who a plan charges', () => {
  it('charges a student of its classes who is also named once, and nothing from an archived plan', async () => {
    const classValue = await ownClass(api);
    const student = await studentJoined(api, LONG_AGO, { class_name: classValue });
    const plan = await addPlan(api, {
      name: 'Both ways',
      kind: 'monthly',
      amount_paise: 90_000,
      class_names: [classValue],
      student_ids: [student.id],
    });
    expect(await run(api, lastMonth())).toBe(1);
    expect(await owedFor(api, student.id)).toBe(90_000);
    expect((await api.as('admin').post(`/api/v1/fees/plans/${plan.id}/archive`)).statusCode).toBe(200);
    expect(await run(api, thisMonth())).toBe(0);
    expect(await owedFor(api, student.id)).toBe(90_000);
  });

  it('keeps the charges of a student whose personal data was scrubbed, and charges them nothing more', async () => {
    const classValue = await ownClass(api);
    const student = await studentJoined(api, LONG_AGO, { class_name: classValue });
    const plan = await addPlan(api, {
      name: 'Scrubbed',
      kind: 'monthly',
      amount_paise: 70_000,
      class_names: [classValue],
    });
    expect(await run(api, '2025-06')).toBe(1);
    await api.db.query("UPDATE students SET left_on = '2025-06-30' WHERE id = $1", [student.id]);
    await api.db.query("UPDATE settings SET value = '1' WHERE key = 'scrub_left_after_months'");
    expect(await scrubStudentsWhoLeft(api.db)).toBeGreaterThanOrEqual(1);
    await api.db.query("UPDATE settings SET value = '24' WHERE key = 'scrub_left_after_months'");
    const [scrubbed] = await api.db.query<{ parent_phone: string }>('SELECT parent_phone FROM students WHERE id = $1', [
      student.id,
    ]);
    expect(scrubbed?.parent_phone).toBe('');
    expect(await owedFor(api, student.id)).toBe(70_000);
    expect(await chargeRows(plan.id)).toHaveLength(1);
    expect(await run(api, '2025-06')).toBe(0);
    expect(await run(api, lastMonth())).toBe(0);
  });
});

describe('per-day plans', () => {
  it('charge each approved attended day of a month that has ended, never a day of approved leave; a change after billing is one correction', async () => {
    const month = lastMonth();
    const classValue = await ownClass(api);
    const student = await studentJoined(api, LONG_AGO, { class_name: classValue });
    await mark(api, student, `${month}-01`, 'present');
    await mark(api, student, `${month}-02`, 'late');
    await mark(api, student, `${month}-03`, 'absent');
    await mark(api, student, `${month}-04`, 'present');
    await mark(api, student, `${month}-07`, 'leave');
    const pending = await mark(api, student, `${month}-06`, 'present', false);
    await api.db.query(
      `INSERT INTO leave_requests (student_id, parent_phone, from_date, to_date, reason, status, decided_at)
       VALUES ($1, $2, $3, $4, 'Wedding', 'approved', now())`,
      [student.id, student.parent_phone, `${month}-04`, `${month}-05`],
    );
    const plan = await addPlan(api, { name: 'Lab', kind: 'per_day', amount_paise: 20_000, class_names: [classValue] });

    // This month is still being marked: nothing yet.
    expect(await run(api, thisMonth())).toBe(0);
    expect(await run(api, month)).toBe(1);
    expect(await chargeRows(plan.id)).toEqual([
      { student_id: student.id, period: month, revision: 0, units: 2, amount_paise: 40_000 },
    ]);

    // The 6th is approved after the bill: the next run posts exactly one day, once.
    const approved = await api.as('admin').post('/api/v1/attendance/approve', { attendance_ids: [pending] });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await run(api, month)).toBe(1);
    expect(await run(api, month)).toBe(0);
    expect((await studentEntries(api, student.id)).map((entry) => [entry.kind, entry.amount_paise])).toEqual([
      ['charge', 40_000],
      ['correction', 20_000],
    ]);

    // Leave approved afterwards for the 1st: that day comes off.
    await api.db.query(
      `INSERT INTO leave_requests (student_id, parent_phone, from_date, to_date, reason, status, decided_at)
       VALUES ($1, $2, $3, $3, 'Fever', 'approved', now())`,
      [student.id, student.parent_phone, `${month}-01`],
    );
    expect(await run(api, month)).toBe(1);
    expect(await owedFor(api, student.id)).toBe(40_000);
    expect((await chargeRows(plan.id)).map((row) => [row.revision, row.units, row.amount_paise])).toEqual([
      [0, 2, 40_000],
      [1, 3, 20_000],
      [2, 2, -20_000],
    ]);
    await expectLedgerBalanced(api);
  });
});

describe('discounts', () => {
  afterEach(async () => {
    await api.as('admin').put('/api/v1/fees/discounts', {
      sibling: { mode: 'none', value: 0 },
      staff_child: { mode: 'none', value: 0 },
      staff_child_ids: [],
    });
  });

  it('gives a second child of a family the sibling discount and a staff child theirs, as their own balanced transactions', async () => {
    const classValue = await ownClass(api);
    const first = await studentJoined(api, '2025-01-01', { class_name: classValue });
    const second = await studentJoined(api, '2025-02-01', { class_name: classValue, parent_phone: first.parent_phone });
    const staffChild = await studentJoined(api, LONG_AGO, { class_name: classValue });
    const saved = await api.as('admin').put('/api/v1/fees/discounts', {
      sibling: { mode: 'percent', value: 10 },
      staff_child: { mode: 'flat', value: 30_000 },
      staff_child_ids: [staffChild.id],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await addPlan(api, { name: 'Discounted', kind: 'monthly', amount_paise: 100_000, class_names: [classValue] });
    expect(await run(api, lastMonth())).toBe(5);
    expect((await studentEntries(api, first.id)).map((e) => [e.kind, e.amount_paise])).toEqual([['charge', 100_000]]);
    expect((await studentEntries(api, second.id)).map((e) => [e.kind, e.amount_paise, e.description])).toEqual([
      ['charge', 100_000, `Discounted, ${lastMonth()}`],
      ['discount', -10_000, `Discounted, ${lastMonth()}: sibling discount`],
    ]);
    expect(await owedFor(api, staffChild.id)).toBe(70_000);
    const [discounts] = await api.db.query<{ total: number }>(
      `SELECT sum(amount_paise)::bigint AS total FROM ledger_entries WHERE account = 'discounts'`,
    );
    expect(discounts?.total).toBe(40_000);
    await expectLedgerBalanced(api);
  });
});

describe('packages and one-time plans', () => {
  it('charges a package on joining and the next when its sessions are used up', async () => {
    const month = lastMonth();
    const classValue = await ownClass(api);
    const student = await studentJoined(api, LONG_AGO, { class_name: classValue });
    const plan = await addPlan(api, {
      name: 'Two sessions',
      kind: 'package',
      amount_paise: 40_000,
      sessions: 2,
      class_names: [classValue],
    });
    expect(await run(api, month)).toBe(1);
    for (const day of ['02', '03', '04']) await mark(api, student, `${month}-${day}`, 'present');
    expect(await run(api, month)).toBe(1);
    await mark(api, student, `${month}-05`, 'present');
    expect(await run(api, month)).toBe(0);
    await mark(api, student, `${month}-06`, 'late');
    expect(await run(api, month)).toBe(1);
    expect((await chargeRows(plan.id)).map((row) => row.period)).toEqual(['package-1', 'package-2', 'package-3']);
    expect(await owedFor(api, student.id)).toBe(120_000);
  });

  it('charges a one-time plan once, and each instalment from the run of its month', async () => {
    const month = lastMonth();
    const next = shiftMonth(thisMonth(), 1);
    const classValue = await ownClass(api);
    const student = await studentJoined(api, LONG_AGO, { class_name: classValue });
    await addPlan(api, { name: 'Books', kind: 'one_time', amount_paise: 50_000, class_names: [classValue] });
    await addPlan(api, {
      name: 'Admission',
      kind: 'one_time',
      amount_paise: 300_000,
      class_names: [classValue],
      instalments: [
        { due_on: `${month}-15`, amount_paise: 100_000 },
        { due_on: `${next}-10`, amount_paise: 200_000 },
      ],
    });
    expect(await run(api, month)).toBe(2);
    expect(await run(api, thisMonth())).toBe(0);
    expect(await run(api, next)).toBe(1);
    expect(await run(api, next)).toBe(0);
    expect((await studentEntries(api, student.id)).map((e) => [e.description, e.amount_paise, e.due_on])).toEqual([
      ['Books, once', 50_000, `${month}-10`],
      ['Admission, part 1', 100_000, `${month}-15`],
      ['Admission, part 2', 200_000, `${next}-10`],
    ]);
  });
});

describe('late fees', () => {
  it('adds the plan’s late fee once to a charge unpaid after its due day, and none to one paid', async () => {
    const classValue = await ownClass(api);
    const unpaid = await studentJoined(api, LONG_AGO, { class_name: classValue });
    const paid = await studentJoined(api, LONG_AGO, { class_name: classValue });
    // The second family paid in advance at the counter.
    const { familyIdForPhone, postTransaction } = await import('../src/modules/fees/ledger');
    await api.db.transaction(async (tx) => {
      const familyId = await familyIdForPhone(tx, paid.parent_phone);
      await postTransaction(tx, {
        idempotencyKey: `test-advance-${paid.id}`,
        kind: 'payment',
        familyId,
        occurredOn: `${lastMonth()}-01`,
        description: 'Advance',
        createdBy: null,
        paymentMode: 'cash',
        postings: [
          { account: 'cash', amountPaise: 100_000 },
          { account: 'receivable', amountPaise: -100_000 },
        ],
      });
    });
    await addPlan(api, {
      name: 'Late',
      kind: 'monthly',
      amount_paise: 100_000,
      class_names: [classValue],
      due_day: 1,
      late_fee_paise: 5_000,
    });
    expect(await run(api, lastMonth())).toBe(3);
    expect((await studentEntries(api, unpaid.id)).map((e) => [e.kind, e.amount_paise])).toEqual([
      ['charge', 100_000],
      ['late_fee', 5_000],
    ]);
    expect((await studentEntries(api, paid.id)).map((e) => e.kind)).toEqual(['charge']);
    expect(await run(api, lastMonth())).toBe(0);
    await expectLedgerBalanced(api);
  });
});

describe('bad input', () => {
  it('refuses a malformed month or one beyond next month with a 422 naming it, and writes nothing', async () => {
    const count = async () =>
      (
        await api.db.query<{ n: number }>(
          'SELECT (SELECT count(*) FROM fee_charge_runs) + (SELECT count(*) FROM ledger_transactions) AS n',
        )
      )[0]?.n;
    const before = await count();
    const tooFar = shiftMonth(thisMonth(), 2);
    for (const [month, detail] of [
      ['2026-13', 'month: must be a month written yyyy-MM, e.g. 2026-11'],
      ['2026-1', 'month: must be a month written yyyy-MM, e.g. 2026-11'],
      [202611, 'month: must be a month written yyyy-MM'],
      ['', 'month: must be a month written yyyy-MM, e.g. 2026-11'],
      [tooFar, `month: must be ${shiftMonth(thisMonth(), 1)} or earlier: charges are raised at most one month ahead`],
    ] as const) {
      const response = await api.as('admin').post('/api/v1/fees/charges/run', { month });
      expect(response.statusCode, String(month)).toBe(422);
      expect(detailOf(response)).toBe(detail);
    }
    expect((await api.as('admin').post('/api/v1/fees/charges/run', {})).statusCode).toBe(422);
    expect(await count()).toBe(before);
  });
});
