import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centreInstant, today } from '../src/lib/time';
import { ChargeRunLoop } from '../src/modules/fees';
import { type TestClient, testClient } from './helpers/client';
import { addPlan, lastMonth, ownClass, studentEntries, studentJoined, thisMonth } from './helpers/fees-charges';

// The automatic charge run (ADR 052): at the set hour in the centre's zone, once a day whatever the
// number of instances, the month before and, from the set day, this month.
let api: TestClient;
beforeAll(async () => {
  api = await testClient();
});
afterAll(async () => {
  await api?.close();
});

async function roundAt(time: string, day = today()): Promise<void> {
  const loop = new ChargeRunLoop(api.db, 3_600_000, () => centreInstant(day, time));
  loop.start();
  await loop.settled();
  await loop.stop();
}

async function automaticRuns() {
  return api.db.query<{ month: string; created: number }>(
    'SELECT month, created FROM fee_charge_runs WHERE automatic ORDER BY id',
  );
}

describe('the automatic charge run', () => {
  it('waits for its hour, then charges last month and this one, once a day across instances', async () => {
    const classValue = await ownClass(api);
    const student = await studentJoined(api, '2025-01-01', { class_name: classValue });
    await addPlan(api, { name: 'Automatic', kind: 'monthly', amount_paise: 120_000, class_names: [classValue] });
    const schedule = await api.as('admin').put('/api/v1/fees/charges/schedule', { automatic: true, day: 1, hour: 6 });
    expect(schedule.statusCode).toBe(200);
    expect(schedule.json()).toEqual({ automatic: true, day: 1, hour: 6, last_run: null });

    await roundAt('05:59');
    expect(await automaticRuns()).toEqual([]);
    expect(await studentEntries(api, student.id)).toEqual([]);

    await roundAt('06:00');
    expect(await automaticRuns()).toEqual([{ month: thisMonth(), created: 2 }]);
    expect((await studentEntries(api, student.id)).map((e) => e.description)).toEqual([
      `Automatic, ${lastMonth()}`,
      `Automatic, ${thisMonth()}`,
    ]);
    const [activity] = await api.db.query<{ actor: string; description: string }>(
      'SELECT actor, description FROM activities ORDER BY id DESC LIMIT 1',
    );
    expect(activity).toEqual({
      actor: 'System',
      description: `The automatic charge run raised the charges for ${thisMonth()}: 2 entries posted`,
    });

    // The schedule says the run happened: which month, by itself, when and how many entries.
    const after = (await api.as('admin').get('/api/v1/fees/charges/schedule')).json();
    expect(after.last_run).toMatchObject({ month: thisMonth(), automatic: true, created: 2 });
    expect(Number.isNaN(Date.parse(after.last_run.at))).toBe(false);

    // Another instance, later the same day, and two at once: the day is claimed.
    await Promise.all([roundAt('09:00'), roundAt('09:00')]);
    expect(await automaticRuns()).toHaveLength(1);
    expect(await studentEntries(api, student.id)).toHaveLength(2);
  });

  it('does nothing when turned off', async () => {
    await api.as('admin').put('/api/v1/fees/charges/schedule', { automatic: false });
    const tomorrow = centreInstant(today(), '12:00');
    tomorrow.setUTCDate(tomorrow.getUTCDate() + 1);
    await roundAt('12:00', today(tomorrow));
    expect(await automaticRuns()).toHaveLength(1);
    expect(await lastActivityAction()).toBe('fees.schedule');
  });
});

async function lastActivityAction() {
  const [row] = await api.db.query<{ action: string }>('SELECT action FROM activities ORDER BY id DESC LIMIT 1');
  return row?.action;
}
