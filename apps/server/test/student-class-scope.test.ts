/**
 * A teacher's class scope on a student's class (issue 26, item 2; ADR 019): a teacher changes a
 * student's class only between two classes they may mark, the old and the new, else 403 as for a
 * phone change, and nothing is written. Otherwise a teacher could move another class's student into
 * theirs, mark them (an absence alert goes to the family) and move them back. Admins are unchanged.
 */
import { classLabelFallback, ERROR_CODES, formatErrorText, withClassNames } from '@tuitiondesk/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../src/lib/time';
import { type TestClient, testClient } from './helpers/client';
import { checkIntegrity } from './helpers/integrity';
import { signInNewTeacher } from './helpers/test-app';

let api: TestClient;
let admin: string;
beforeAll(async () => {
  api = await testClient();
  admin = await api.adminToken();
});
afterAll(async () => {
  expect(await checkIntegrity(api.db)).toEqual([]);
  await api.close();
});

let teacherCount = 0;
/** A teacher of these classes, signed in; answers their teacher record's id and their token. */
async function teacherOf(classes: string[]): Promise<{ id: number; token: string }> {
  teacherCount += 1;
  const teacher = await signInNewTeacher(api.app, api.db, admin, {
    first_name: 'Scope',
    last_name: `Teacher${teacherCount}`,
    classes_assigned: classes,
  });
  return { id: teacher.teacherId, token: teacher.token };
}

function edit(token: string, id: number, changes: Record<string, unknown>) {
  return api.withToken(token).put(`/api/v1/students/${id}`, changes);
}

async function classOf(id: number): Promise<string | undefined> {
  const [row] = await api.db.query<{ class_name: string }>('SELECT class_name FROM students WHERE id = $1', [id]);
  return row?.class_name;
}

async function lastActivityId(): Promise<number> {
  const [row] = await api.db.query<{ id: number | null }>('SELECT max(id) AS id FROM activities');
  return row?.id ?? 0;
}

async function activitiesAfter(id: number): Promise<string[]> {
  const rows = await api.db.query<{ action: string }>('SELECT action FROM activities WHERE id > $1 ORDER BY id', [id]);
  return rows.map((row) => row.action);
}

/** The 403: its code and params, and the detail made from them, a class by its label ("Class 9", ADR 054). */
function expectNotYours(
  response: LightMyRequestResponse,
  params: { from: string; to: string; count: number; classes: string },
): void {
  expect(response.statusCode, response.body).toBe(403);
  const body = response.json();
  expect(body).toEqual({
    detail: formatErrorText(
      ERROR_CODES['student.class_change_not_yours'],
      withClassNames('student.class_change_not_yours', params, classLabelFallback),
    ),
    code: 'student.class_change_not_yours',
    params,
  });
}

describe("a teacher's class change", () => {
  it('between two of their classes: allowed', async () => {
    const teacher = await teacherOf(['7', '8']);
    const student = await api.student({ full_name: 'Moving Within', class_name: '7' });
    const before = await lastActivityId();
    const moved = await edit(teacher.token, student.id, { class_name: '8' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ class_name: '8' });
    expect(await activitiesAfter(before)).toEqual(['student.updated']);
  });

  it("into their class from another's: 403, naming both classes and theirs; nothing written", async () => {
    const teacher = await teacherOf(['7']);
    const student = await api.student({ full_name: 'Other Class', class_name: '9' });
    const before = await lastActivityId();
    const refused = await edit(teacher.token, student.id, { class_name: '7', full_name: 'Renamed Meanwhile' });
    expectNotYours(refused, { from: '9', to: '7', count: 1, classes: '7' });
    expect(refused.json().detail).toBe(
      'Only an admin can move this student from Class 9 to Class 7: you mark only Class 7. Ask an admin to change the class.',
    );
    expect(await api.db.query('SELECT class_name, full_name FROM students WHERE id = $1', [student.id])).toEqual([
      { class_name: '9', full_name: 'Other Class' },
    ]);
    expect(await activitiesAfter(before)).toEqual([]);
  });

  it('out of their class into another, or between two classes not theirs: 403', async () => {
    const teacher = await teacherOf(['7', '8']);
    const own = await api.student({ full_name: 'Own Class', class_name: '8' });
    const foreign = await api.student({ full_name: 'Foreign Class', class_name: '9' });
    expectNotYours(await edit(teacher.token, own.id, { class_name: '10' }), {
      from: '8',
      to: '10',
      count: 2,
      classes: '7, 8',
    });
    expectNotYours(await edit(teacher.token, foreign.id, { class_name: '10' }), {
      from: '9',
      to: '10',
      count: 2,
      classes: '7, 8',
    });
    expect([await classOf(own.id), await classOf(foreign.id)]).toEqual(['8', '9']);
  });

  it("of another class's student, with a new phone too: refused whole", async () => {
    const teacher = await teacherOf(['7']);
    const student = await api.student({ full_name: 'Phone And Class', class_name: '10' });
    const refused = await edit(teacher.token, student.id, { class_name: '7', parent_phone: '+919800011122' });
    expect(refused.statusCode).toBe(403);
    expect(await api.db.query('SELECT class_name, parent_phone FROM students WHERE id = $1', [student.id])).toEqual([
      { class_name: '10', parent_phone: student.parent_phone },
    ]);
  });

  it('a teacher with no class: 403 saying so', async () => {
    const teacher = await teacherOf([]);
    const student = await api.student({ full_name: 'No Class Teacher', class_name: '7' });
    const refused = await edit(teacher.token, student.id, { class_name: '8' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      detail:
        'Only an admin can move this student from Class 7 to Class 8: you have no class to mark. Ask an admin to change the class.',
      code: 'student.class_change_no_class',
      params: { from: '7', to: '8' },
    });
    expect(await classOf(student.id)).toBe('7');
  });

  it("an edit of another class's student that keeps the class (the console sends the whole record): allowed", async () => {
    const teacher = await teacherOf(['7']);
    const student = await api.student({ full_name: 'Kept Class', class_name: '9' });
    const full = (await api.as('admin').get(`/api/v1/students/${student.id}`)).json();
    const renamed = await edit(teacher.token, student.id, { ...full, full_name: 'Kept Class Renamed' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ full_name: 'Kept Class Renamed', class_name: '9' });
    const withoutClass = await edit(teacher.token, student.id, { parent_name: 'New Parent Name' });
    expect(withoutClass.statusCode).toBe(200);
  });

  it('with every teacher allowed to mark every class: any class change is allowed', async () => {
    const teacher = await teacherOf(['7']);
    const student = await api.student({ full_name: 'Any Class', class_name: '9' });
    const rules = (await api.as('admin').get('/api/v1/settings/marking')).json();
    expect(
      (await api.as('admin').put('/api/v1/settings/marking', { ...rules, teachers_mark_any_class: true })).statusCode,
    ).toBe(200);
    try {
      const moved = await edit(teacher.token, student.id, { class_name: '10' });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(await classOf(student.id)).toBe('10');
    } finally {
      await api.as('admin').put('/api/v1/settings/marking', rules);
    }
  });

  it('an admin moves any student between any classes', async () => {
    const student = await api.student({ full_name: 'Admin Moves', class_name: '9' });
    for (const className of ['7', '10', '8']) {
      const moved = await api.as('admin').put(`/api/v1/students/${student.id}`, { class_name: className });
      expect(moved.statusCode).toBe(200);
      expect(await classOf(student.id)).toBe(className);
    }
  });

  it("cannot be used to mark another class's student: the move is refused, so is the mark, no alert goes", async () => {
    const teacher = await teacherOf(['7']);
    const student = await api.student({ full_name: 'Walked Around', class_name: '9' });
    expect((await edit(teacher.token, student.id, { class_name: '7' })).statusCode).toBe(403);
    const marked = await api.withToken(teacher.token).post('/api/v1/attendance/mark', {
      date: today(),
      records: [{ student_id: student.id, status: 'absent' }],
    });
    expect(marked.statusCode).toBe(403);
    expect(await api.db.query('SELECT id FROM attendance WHERE student_id = $1', [student.id])).toEqual([]);
    expect(
      await api.db.query("SELECT id FROM messages WHERE kind = 'absence_alert' AND recipient = $1", [
        student.parent_phone,
      ]),
    ).toEqual([]);
  });
});

describe('a class taken away from the teacher while they move a student into it', () => {
  it('the move comes whole before the change, or is refused whole with 403', async () => {
    const teacher = await teacherOf(['7', '8']);
    const student = await api.student({ full_name: 'Racing Move', class_name: '7' });
    const outcomes = new Set<number>();
    for (let round = 0; round < 8; round += 1) {
      await api.db.query("UPDATE students SET class_name = '7' WHERE id = $1", [student.id]);
      const restored = await api
        .withToken(admin)
        .put(`/api/v1/teachers/${teacher.id}`, { classes_assigned: ['7', '8'] });
      expect(restored.statusCode).toBe(200);
      const before = await lastActivityId();
      const moving = () => edit(teacher.token, student.id, { class_name: '8' });
      const unassigning = () => api.withToken(admin).put(`/api/v1/teachers/${teacher.id}`, { classes_assigned: ['7'] });
      const [moved, unassigned] =
        round % 2 === 0
          ? await Promise.all([moving(), unassigning()])
          : await Promise.all([unassigning(), moving()]).then(([u, m]) => [m, u] as const);
      expect(unassigned.statusCode).toBe(200);
      expect([200, 403]).toContain(moved.statusCode);
      outcomes.add(moved.statusCode);
      if (moved.statusCode === 200) {
        expect(await classOf(student.id)).toBe('8');
        expect(await activitiesAfter(before)).toEqual(['student.updated', 'teacher.updated']);
      } else {
        expectNotYours(moved, { from: '7', to: '8', count: 1, classes: '7' });
        expect(await classOf(student.id)).toBe('7');
        expect(await activitiesAfter(before)).toEqual(['teacher.updated']);
      }
    }
    expect(outcomes.size).toBeGreaterThan(0);
  });
});
