// A zone with a half-hour offset, set before anything reads the clock: timestamps that the database
// prints into JSON lists must carry the same offset as those this process formats.
process.env.TZ = 'Asia/Kolkata';

import type { AttendanceHistoryPage, AttendanceRecord } from '@tuitiondesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, today } from '../src/lib/time';
import { type TestClient, testClient } from './helpers/client';
import { detailOf } from './helpers/test-app';

let api: TestClient;
const day = (offset: number) => addDays(today(), -offset);
const STATUSES = ['present', 'absent', 'late', 'leave'] as const;

function get(url: string, who: 'admin' | 'teacher' = 'admin') {
  return api.as(who).get(`/api/v1${url}`);
}

beforeAll(async () => {
  api = await testClient();
  const names = ['Zara Khan', 'Arjun Nair', 'Meera Iyer', 'Kabir Das', 'Ira Sen', 'Om Prakash', 'Tara Bose'];
  const students = [];
  for (const [index, full_name] of names.entries()) {
    students.push(await api.student({ full_name, class_name: ['7', '8', '10'][index % 3] }));
  }
  // Five days, each student a status that varies by day; the older three days approved.
  for (let offset = 0; offset < 5; offset += 1) {
    const records = students.map((student, index) => ({
      student_id: student.id,
      status: STATUSES[(index + offset) % 4],
      remarks: index === 2 ? `note ${offset}` : undefined,
    }));
    const marked = await api.as('admin').post('/api/v1/attendance/mark', { date: day(offset), records });
    expect(marked.statusCode).toBe(200);
  }
  const pending: AttendanceRecord[] = (await get('/attendance/pending-approval')).json();
  const older = pending.filter((record) => record.date <= day(2)).map((record) => record.id);
  const approved = await api.as('admin').post('/api/v1/attendance/approve', { attendance_ids: older });
  expect(approved.statusCode).toBe(200);
});
afterAll(async () => {
  await api?.close();
});

async function fullHistory(start: string, end: string): Promise<AttendanceRecord[]> {
  const response = await get(`/attendance/history?start_date=${start}&end_date=${end}`);
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function page(query: string): Promise<AttendanceHistoryPage> {
  const response = await get(`/attendance/history/page?${query}`);
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return response.json();
}

describe('JSON lists built by the database', () => {
  it('print timestamps exactly as the rest of the API does, with the centre offset', async () => {
    const records = await fullHistory(day(4), day(0));
    const approved = records.find((record) => record.approved_at !== null) as AttendanceRecord;
    const [stored] = await api.db.query<{ marked_at: string; approved_at: string }>(
      'SELECT marked_at, approved_at FROM attendance WHERE id = $1',
      [approved.id],
    );
    expect(approved.marked_at).toBe(stored?.marked_at);
    expect(approved.approved_at).toBe(stored?.approved_at);
    expect(approved.approved_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+05:30$/);

    const students: { created_at: string; id: number }[] = (await get('/students/')).json();
    const [student] = await api.db.query<{ created_at: string }>('SELECT created_at FROM students WHERE id = $1', [
      students[0]?.id,
    ]);
    expect(students[0]?.created_at).toBe(student?.created_at);
  });

  it('answer an empty array when nothing matches', async () => {
    expect((await get('/attendance/history?start_date=2020-01-01&end_date=2020-01-31')).body).toBe('[]');
    expect((await get('/students/?class_name=9')).body).toBe('[]');
  });
});

describe('GET /attendance/history/page', () => {
  it('pages through the same records, in the same order, as the whole history', async () => {
    const all = await fullHistory(day(4), day(0));
    expect(all).toHaveLength(35);
    const seen: AttendanceRecord[] = [];
    for (let offset = 0; offset < all.length; offset += 10) {
      const result = await page(`start_date=${day(4)}&end_date=${day(0)}&limit=10&offset=${offset}`);
      expect(result.total).toBe(35);
      expect(result.period).toEqual({ start_date: day(4), end_date: day(0) });
      seen.push(...result.records);
    }
    expect(seen).toEqual(all);
  });

  it.each([
    ['class_name=8', (r: AttendanceRecord) => r.class_name === '8'],
    ['class_name=Class%207', (r: AttendanceRecord) => r.class_name === '7'],
    ['status=late', (r: AttendanceRecord) => r.status === 'late'],
    ['search=RA', (r: AttendanceRecord) => /ra/i.test(r.student_name)],
    ['search=stu', () => true],
    ['search=%25', () => false],
    ['class_name=10&status=absent&search=a', (r: AttendanceRecord) => r.class_name === '10' && r.status === 'absent'],
  ])('filters by ?%s on the server, counting the whole filtered range', async (query, keep) => {
    const all = await fullHistory(day(4), day(0));
    const expected = all.filter(keep);
    const result = await page(`start_date=${day(4)}&end_date=${day(0)}&${query}&limit=500`);
    expect(result.records).toEqual(expected);
    expect(result.total).toBe(expected.length);
    expect(result.counts).toEqual(
      Object.fromEntries(STATUSES.map((status) => [status, expected.filter((r) => r.status === status).length])),
    );
  });

  it('searches student IDs too, ignoring case and surrounding spaces', async () => {
    const all = await fullHistory(day(4), day(0));
    const id = (all[0] as AttendanceRecord).student_unique_id;
    const result = await page(`start_date=${day(4)}&end_date=${day(0)}&search=%20${id.toLowerCase()}%20`);
    expect(result.total).toBe(5);
    expect(result.records.every((record) => record.student_unique_id === id)).toBe(true);
  });

  it('defaults to the last 7 days and 25 records, and answers an empty page past the end', async () => {
    const first = await page('');
    expect(first.period).toEqual({ start_date: day(7), end_date: day(0) });
    expect(first.records).toHaveLength(25);
    expect(first.total).toBe(35);
    const past = await page('offset=35');
    expect(past.records).toEqual([]);
    expect(past.total).toBe(35);
  });

  it.each([
    ['limit=0', 'limit: must be at least 1'],
    ['limit=501', 'limit: must be at most 500'],
    ['limit=ten', 'limit: must be a whole number'],
    ['offset=-1', 'offset: must not be negative'],
    ['status=gone', 'status: must be one of present, absent, late or leave'],
    ['class_name=12', 'class_name: must be one of 7, 8, 9 or 10'],
    [`search=${'x'.repeat(101)}`, 'search: must be at most 100 characters'],
    ['start_date=2026-03-10&end_date=2026-03-01', 'start_date: must not be after end_date'],
    ['start_date=2024-01-01&end_date=2025-01-01', 'end_date: the range must not span more than 366 days'],
  ])('refuses ?%s with 422 and says what to fix', async (query, detail) => {
    const response = await get(`/attendance/history/page?${query}`);
    expect(response.statusCode).toBe(422);
    expect(detailOf(response)).toBe(detail);
  });

  it('is for admins only, like the history', async () => {
    const teacher = await get('/attendance/history/page', 'teacher');
    expect(teacher.statusCode).toBe(403);
    const nobody = await api.anonymous().get('/api/v1/attendance/history/page');
    expect(nobody.statusCode).toBe(401);
  });
});
