// The server runs in UTC here, whatever the machine's zone; the centre is in India (ADR 042).
process.env.TZ = 'UTC';

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { remindTeachers } from '../src/modules/reminders/service';
import { testClientForBlock } from './helpers/client';

/**
 * 2026-11-30T20:00Z is 1 Dec 01:30 in India: the server's date (30 Nov) and the centre's (1 Dec), and
 * even their months, differ from 18:30Z to midnight UTC. Everything here is asked at such an instant.
 */
const EVENING_UTC = new Date('2026-11-30T20:00:00Z');

function clockAt(instant: Date | string): void {
  vi.setSystemTime(new Date(instant));
}

describe("the centre's clock: the server in UTC, the centre in Asia/Kolkata", () => {
  const api = testClientForBlock();

  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: EVENING_UTC });
  });
  afterAll(() => {
    vi.useRealTimers();
  });
  afterEach(() => {
    clockAt(EVENING_UTC);
  });

  it('before the set-up, the centre is on the server zone and asks for the set-up; once set, every "today" is India\'s', async () => {
    const admin = api().as('admin');
    const before = (await admin.get('/api/v1/settings/centre')).json();
    expect(before).toMatchObject({ time_zone: 'UTC', today: '2026-11-30', needs_set_up: true, utc_offset_minutes: 0 });
    expect(before.fixed_by_server).toEqual({ name: false, time_zone: false });
    // The parent app reads the zone before anyone signs in: its "today" is the centre's too.
    expect((await api().anonymous().get('/api/v1/centre')).json().time_zone).toBe('UTC');

    const set = await admin.put('/api/v1/settings/centre', { time_zone: 'Asia/Kolkata' });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({
      time_zone: 'Asia/Kolkata',
      today: '2026-12-01',
      needs_set_up: false,
      utc_offset_minutes: 330,
    });
    // Every staff member reads it (the console's "today"), the change is in the feed.
    expect((await api().as('teacher').get('/api/v1/settings/centre')).json().today).toBe('2026-12-01');
    expect((await api().anonymous().get('/api/v1/centre')).json().time_zone).toBe('Asia/Kolkata');
    const feed = (await admin.get('/api/v1/activities/recent?limit=5')).json();
    expect(JSON.stringify(feed)).toContain("set the centre's time zone to Asia/Kolkata");
  });

  it("a teacher marks today's register under the centre's date, and it is pending, in history and on the dashboard under that date", async () => {
    const student = await api().student({ class_name: '7' });
    const teacher = api().as('teacher');

    const scope = (await teacher.get('/api/v1/attendance/marking-scope')).json();
    expect(scope.today).toBe('2026-12-01');
    const roster = (await teacher.get('/api/v1/attendance/roster?class_name=7')).json();
    expect(JSON.stringify(roster)).toContain('2026-12-01');

    // On the server's calendar 28 Nov is tomorrow: refused before this change, taken now.
    const marked = await teacher.post('/api/v1/attendance/mark', {
      date: '2026-12-01',
      records: [{ student_id: student.id, status: 'present' }],
    });
    expect(marked.statusCode).toBe(200);
    const tomorrow = await teacher.post('/api/v1/attendance/mark', {
      date: '2026-12-02',
      records: [{ student_id: student.id, status: 'present' }],
    });
    expect(tomorrow.statusCode).toBe(422);

    const admin = api().as('admin');
    expect((await admin.get('/api/v1/attendance/pending-days')).json()).toEqual([{ date: '2026-12-01', pending: 1 }]);
    const pending = (await admin.get('/api/v1/attendance/pending-approval')).json();
    const record = pending.find((row: { student_id: number }) => row.student_id === student.id);
    expect(record.attendance_date ?? record.date).toBe('2026-12-01');
    // The time it was marked, printed on the centre's clock (the database's now(): on PGlite the faked 01:30).
    expect(record.marked_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+05:30$/);
    if (api().db.kind === 'pglite') expect(record.marked_at).toMatch(/^2026-12-01T01:30:00\.\d{3}\+05:30$/);

    // The default range ends on the centre's today.
    const history = (await admin.get('/api/v1/attendance/history')).json();
    expect(history.map((row: { student_id: number; date: string }) => [row.student_id, row.date])).toContainEqual([
      student.id,
      '2026-12-01',
    ]);

    const dashboard = (await admin.get('/api/v1/dashboard/summary')).json();
    expect(dashboard.date).toBe('2026-12-01');
    expect(dashboard.pending_approval).toBeGreaterThanOrEqual(1);
  });

  it("reminds at 10:00 on the centre's clock (04:30 UTC), not at 10:00 UTC (15:30 in India)", async () => {
    await api().student({ class_name: '8' });
    const teacher = await api().teacher({ classes_assigned: ['8'] });
    expect(teacher.id).toBeGreaterThan(0);
    const db = api().db;
    clockAt('2026-12-01T04:29:00Z');
    expect(await remindTeachers(db, new Date('2026-12-01T04:29:00Z'))).toEqual([]);
    clockAt('2026-12-01T04:30:00Z');
    const claimed = await remindTeachers(db, new Date('2026-12-01T04:30:00Z'));
    expect(claimed.map((reminder) => reminder.class_name)).toContain('8');
    const rows = await db.query<{ date: string }>(
      "SELECT to_char(date, 'YYYY-MM-DD') AS date FROM marking_reminders WHERE class_name = '8'",
    );
    expect(rows).toEqual([{ date: '2026-12-01' }]);
  });

  it("the month's summary is the centre's: on 1 Dec in India, 30 Nov's records are last month's", async () => {
    const admin = api().as('admin');
    for (const className of ['9', '10']) {
      const student = await api().student({ class_name: className });
      const marked = await admin.post('/api/v1/attendance/mark', {
        date: '2026-11-30',
        records: [{ student_id: student.id, status: 'present' }],
      });
      expect(marked.statusCode).toBe(200);
    }
    // December's one record (1 Dec, above); on the server's calendar it would be November's two.
    const summary = (await admin.get('/api/v1/attendance/summary')).json();
    expect(summary.totals.total_records).toBe(1);
  });

  it('a change of zone takes effect at once, with no restart, and two changes at once leave one of them', async () => {
    const admin = api().as('admin');
    const [utc, kolkata] = await Promise.all([
      admin.put('/api/v1/settings/centre', { time_zone: 'UTC' }),
      admin.put('/api/v1/settings/centre', { time_zone: 'Asia/Kolkata' }),
    ]);
    expect([utc.statusCode, kolkata.statusCode]).toEqual([200, 200]);
    const raced = (await admin.get('/api/v1/settings/centre')).json();
    expect(['UTC', 'Asia/Kolkata']).toContain(raced.time_zone);

    await admin.put('/api/v1/settings/centre', { time_zone: 'Asia/Kolkata' });
    const before = (await admin.get('/api/v1/attendance/pending-approval')).json();
    expect(before.length).toBeGreaterThan(0);
    const changed = await admin.put('/api/v1/settings/centre', { time_zone: 'UTC' });
    expect(changed.json()).toMatchObject({ time_zone: 'UTC', today: '2026-11-30' });
    expect((await api().as('teacher').get('/api/v1/attendance/marking-scope')).json().today).toBe('2026-11-30');
    // The same instants, now printed on the new clock.
    const after = (await admin.get('/api/v1/attendance/pending-approval')).json();
    for (const [index, row] of (after as { marked_at: string }[]).entries()) {
      expect(row.marked_at).toMatch(/\+00:00$/);
      expect(Date.parse(row.marked_at)).toBe(Date.parse(before[index].marked_at));
    }

    const back = await admin.put('/api/v1/settings/centre', { time_zone: 'asia/kolkata' });
    expect(back.json()).toMatchObject({ time_zone: 'Asia/Kolkata', today: '2026-12-01' });
  });

  it('refuses a zone no one knows with 422 naming the field, and a teacher with 403, changing nothing', async () => {
    const admin = api().as('admin');
    for (const zone of ['Mars/Olympus_Mons', '+05:30', 'IST; DROP TABLE settings', '']) {
      const refused = await admin.put('/api/v1/settings/centre', { time_zone: zone });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().detail).toMatch(/^time_zone: /);
    }
    expect((await api().as('teacher').put('/api/v1/settings/centre', { time_zone: 'UTC' })).statusCode).toBe(403);
    expect((await admin.get('/api/v1/settings/centre')).json().time_zone).toBe('Asia/Kolkata');
  });
});

describe('a time zone the server fixes (TZ)', () => {
  const api = testClientForBlock({ config: { timeZone: 'Asia/Kolkata' } });

  it('is reported as fixed by the server; another zone is refused with 409 saying so, the same one is taken', async () => {
    const admin = api().as('admin');
    const centre = (await admin.get('/api/v1/settings/centre')).json();
    expect(centre).toMatchObject({ time_zone: 'Asia/Kolkata', needs_set_up: false });
    expect(centre.fixed_by_server.time_zone).toBe(true);
    expect((await api().anonymous().get('/api/v1/centre')).json().time_zone).toBe('Asia/Kolkata');

    const refused = await admin.put('/api/v1/settings/centre', { time_zone: 'Europe/London', name: 'Not Saved' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toContain('TZ=Asia/Kolkata');
    expect((await admin.get('/api/v1/settings/centre')).json().name).toBe('TuitionDesk');

    const same = await admin.put('/api/v1/settings/centre', { time_zone: 'Asia/Kolkata', name: 'Bright Minds' });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ name: 'Bright Minds', time_zone: 'Asia/Kolkata' });
  });
});
