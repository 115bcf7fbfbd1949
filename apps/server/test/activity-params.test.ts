/**
 * Activities in every language (ADR 038): each row a change writes carries, beside its English
 * description, the code of its text in the contract's catalogue and the params that fill it; the
 * description is exactly that text filled in English; the feed answers both; rows from before have
 * neither and keep their English.
 */
import {
  ACTIVITY_TEXTS,
  type ActivityTextCode,
  classLabelFallback,
  formatActivityText,
  withClassNames,
} from '@tuitiondesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, readableDate, today } from '../src/lib/time';
import { type TestClient, testClient } from './helpers/client';

let api: TestClient;
beforeAll(async () => {
  api = await testClient();
});
afterAll(async () => {
  await api?.close();
});

interface StoredRow {
  action: string;
  description: string;
  text_code: string | null;
  params: Record<string, string | number> | null;
}

async function newest(action: string): Promise<StoredRow | undefined> {
  const rows = await api.db.query<StoredRow>(
    'SELECT action, description, text_code, params FROM activities WHERE action = $1 ORDER BY id DESC LIMIT 1',
    [action],
  );
  return rows[0];
}

describe('an activity row', () => {
  const day = addDays(today(), -2);

  it('stores the code and params of attendance marked: the classes, the count and the ISO day', async () => {
    const nine = await api.student({ class_name: '9' });
    const ten = await api.student({ class_name: '10' });
    const marked = await api.as('admin').post('/api/v1/attendance/mark', {
      date: day,
      records: [
        { student_id: ten.id, status: 'absent' },
        { student_id: nine.id, status: 'present' },
      ],
    });
    expect(marked.statusCode).toBe(200);
    expect(await newest('attendance.marked')).toEqual({
      action: 'attendance.marked',
      description: `Administrator marked attendance for 2 students of Classes 9, 10 on ${readableDate(day)}`,
      text_code: 'attendance.marked',
      params: { actor: 'Administrator', count: 2, classes: '9, 10', class_count: 2, date: day },
    });
  });

  it('stores a student added, with names as written', async () => {
    const student = await api.student({ class_name: '7', full_name: 'Zoë Fernandes' });
    const row = await newest('student.created');
    expect(row).toMatchObject({
      text_code: 'student.created',
      params: { actor: 'Administrator', name: 'Zoë Fernandes', unique_id: student.unique_id, class_name: '7' },
    });
    expect(row?.description).toBe(`Administrator added student Zoë Fernandes (${student.unique_id}) to Class 7`);
  });

  it('gives one action several codes where its sentence differs: a setting turned off', async () => {
    const off = await api.as('admin').put('/api/v1/settings', { absence_alerts: false });
    expect(off.statusCode).toBe(200);
    expect(await newest('settings.updated')).toEqual({
      action: 'settings.updated',
      description: 'Administrator turned absence alerts to parents off',
      text_code: 'settings.absence_alerts',
      params: { actor: 'Administrator', state: 'off' },
    });
    await api.as('admin').put('/api/v1/settings', { absence_alerts: true });
  });

  it('stores teacher attendance locked with its day and count', async () => {
    const teacher = await api.teacher();
    await api.as('admin').post('/api/v1/teacher-attendance/mark', {
      date: day,
      teacher_records: [{ teacher_id: teacher.id, status: 'present' }],
    });
    const locked = await api.as('admin').post(`/api/v1/teacher-attendance/lock/${day}`);
    expect(locked.statusCode).toBe(200);
    const row = await newest('teacher_attendance.locked');
    expect(row).toMatchObject({ text_code: 'teacher_attendance.locked', params: { date: day } });
    expect(row?.description).toMatch(
      new RegExp(`locked teacher attendance for ${readableDate(day)} \\(\\d+ teachers? marked\\)$`),
    );
  });

  it('has, in every row with a code, the description its code and params write in English', async () => {
    const rows = await api.db.query<StoredRow>('SELECT * FROM activities WHERE text_code IS NOT NULL');
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) {
      const text = ACTIVITY_TEXTS[row.text_code as ActivityTextCode];
      expect(text, row.text_code ?? '').toBeDefined();
      // The centre has the spec's classes, so a class param ("9") reads by its label "Class 9" (ADR 054).
      const params = withClassNames(row.text_code ?? '', row.params ?? {}, classLabelFallback);
      expect(formatActivityText(text, params, { day: readableDate })).toBe(row.description);
    }
  });
});

describe('GET /activities/recent', () => {
  it('answers each activity with its code and params, and null for a row written before them', async () => {
    await api.db.query(
      "INSERT INTO activities (actor, action, description) VALUES ('Someone', 'student.created', 'Someone added student Old Row (S-1) to Class 9')",
    );
    const response = await api.as('admin').get('/api/v1/activities/recent?limit=100');
    expect(response.statusCode).toBe(200);
    const activities = response.json().activities as (StoredRow & { id: number })[];
    expect(activities[0]).toMatchObject({
      action: 'student.created',
      description: 'Someone added student Old Row (S-1) to Class 9',
      text_code: null,
      params: null,
    });
    expect(activities.find((activity) => activity.text_code === 'attendance.marked')).toMatchObject({
      action: 'attendance.marked',
      params: { actor: 'Administrator', count: 2, classes: '9, 10', class_count: 2 },
    });
  });
});
