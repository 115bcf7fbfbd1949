/**
 * Marks queued on a teacher's device while offline reach the server later, perhaps twice, perhaps
 * after the rules changed: saved once, answered the same each time, and never dropped silently.
 */
import { randomUUID } from 'node:crypto';
import { ERROR_CODES, formatErrorText } from '@tuitiondesk/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addDays, today } from '../src/lib/time';
import { type Caller, type TestClient, testClient } from './helpers/client';
import { detailOf, signInNewTeacher } from './helpers/test-app';

let api: TestClient;
let admin: Caller;
let tess: Caller;
let tessTeacherId: number;
type Student = { id: number; full_name: string };
let asha: Student;
let bala: Student;
let chitra: Student;
let nine: Student;
/** Class 7: Asha, Bala and Chitra. */
let seven: Student[];

beforeAll(async () => {
  api = await testClient();
  admin = api.as('admin');
  asha = await api.student({ full_name: 'Asha Seven', class_name: '7' });
  bala = await api.student({ full_name: 'Bala Seven', class_name: '7' });
  chitra = await api.student({ full_name: 'Chitra Seven', class_name: '7' });
  seven = [asha, bala, chitra];
  nine = await api.student({ full_name: 'Dev Nine', class_name: '9' });
  const teacher = await signInNewTeacher(api.app, api.db, await api.adminToken(), {
    first_name: 'Tess',
    last_name: 'Queue',
    classes_assigned: ['7'],
  });
  tess = api.withToken(teacher.token);
  tessTeacherId = teacher.teacherId;
});
afterAll(async () => {
  await api?.close();
});
beforeEach(async () => {
  await api.db.query('DELETE FROM attendance');
  await admin.put(`/api/v1/teachers/${tessTeacherId}`, { classes_assigned: ['7'] });
});

function send(caller: Caller, body: Record<string, unknown>) {
  return caller.post('/api/v1/attendance/submissions', body);
}

function classSeven(status = 'present', absent: number[] = []) {
  return seven.map((student) => ({ student_id: student.id, status: absent.includes(student.id) ? 'absent' : status }));
}

async function recordsOf(date: string) {
  return api.db.query<{ student_id: number; status: string; marked_by: string }>(
    'SELECT student_id, status, marked_by FROM attendance WHERE date = $1 ORDER BY student_id',
    [date],
  );
}

async function queueActivities(): Promise<number> {
  const rows = await api.db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM activities WHERE action = 'attendance.marked' AND description LIKE '%queue%'",
  );
  return rows[0]?.n ?? 0;
}

type Refused = { reason: string; code: keyof typeof ERROR_CODES; params: Record<string, string | number> };

/** Each refused mark's English reason is its code's catalogue text filled with its params. */
function expectReasonsFromCodes(refused: Refused[]): void {
  for (const mark of refused) expect(formatErrorText(ERROR_CODES[mark.code], mark.params)).toBe(mark.reason);
}

describe('queued marks', () => {
  it('are saved and answered with who was marked, when, and nothing refused', async () => {
    const id = randomUUID();
    const response = await send(tess, {
      submission_id: id,
      date: today(),
      records: classSeven('present', [bala.id]),
    });
    expect(response.statusCode).toBe(200);
    const answer = response.json();
    expect(answer).toMatchObject({ submission_id: id, class_name: '7', date: today(), marked_count: 3, refused: [] });
    expect(answer.message).toBe('Attendance marked for 3 student(s)');
    expect(answer.message_words).toEqual({ code: 'attendance.queued_marked', params: { count: 3 } });
    expect(Date.parse(answer.saved_at)).not.toBeNaN();
    expect((await recordsOf(today())).map((row) => row.status)).toEqual(['present', 'absent', 'present']);
  });

  it('sent many times at once, are written once and every answer is the first one', async () => {
    const id = randomUUID();
    const body = { submission_id: id, date: today(), records: classSeven('late') };
    const before = await queueActivities();
    const answers = await Promise.all(Array.from({ length: 8 }, () => send(tess, body)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(200));
    const first = answers[0]?.json();
    for (const answer of answers) expect(answer.json()).toEqual(first);
    expect((await queueActivities()) - before).toBe(1);
    const kept = await api.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM attendance_submissions WHERE submission_id = $1',
      [id],
    );
    expect(kept[0]?.n).toBe(1);
  });

  it('replayed after someone changed a mark, does not put the old mark back', async () => {
    const id = randomUUID();
    const body = { submission_id: id, date: today(), records: classSeven('present') };
    expect((await send(tess, body)).statusCode).toBe(200);
    await admin.post('/api/v1/attendance/mark', {
      date: today(),
      records: [{ student_id: asha.id, status: 'absent' }],
    });
    const replay = await send(tess, body);
    expect(replay.statusCode).toBe(200);
    expect(replay.json().marked_count).toBe(3);
    expect((await recordsOf(today()))[0]).toMatchObject({ status: 'absent', marked_by: 'Administrator' });
  });

  it('refuses the same id used for other marks, and writes nothing', async () => {
    const id = randomUUID();
    expect((await send(tess, { submission_id: id, date: today(), records: classSeven('present') })).statusCode).toBe(
      200,
    );
    const other = await send(tess, { submission_id: id, date: today(), records: classSeven('absent') });
    expect(other.statusCode).toBe(422);
    expect(detailOf(other)).toBe('submission_id: was already used for other marks; send these marks with a new id');
    expect((await recordsOf(today())).every((row) => row.status === 'present')).toBe(true);
  });

  it("keeps one account's ids apart from another's", async () => {
    const id = randomUUID();
    expect((await send(tess, { submission_id: id, date: today(), records: classSeven('present') })).statusCode).toBe(
      200,
    );
    const byAdmin = await send(admin, { submission_id: id, date: today(), records: classSeven('absent') });
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json().marked_count).toBe(3);
    expect((await recordsOf(today())).every((row) => row.status === 'absent')).toBe(true);
  });

  it('saves the rest and names each student approved meanwhile, with who approved it and as what', async () => {
    await admin.post('/api/v1/attendance/mark', {
      date: today(),
      records: [{ student_id: chitra.id, status: 'late' }],
    });
    const pending = await api.db.query<{ id: number }>('SELECT id FROM attendance WHERE student_id = $1', [chitra.id]);
    expect(
      (await admin.post('/api/v1/attendance/approve', { attendance_ids: pending.map((row) => row.id) })).statusCode,
    ).toBe(200);

    const answer = (
      await send(tess, { submission_id: randomUUID(), date: today(), records: classSeven('absent') })
    ).json();
    expect(answer.marked_count).toBe(2);
    expect(answer.message).toBe('Attendance marked for 2 student(s); 1 mark could not be saved');
    expect(answer.message_words).toEqual({
      code: 'attendance.queued_marked_refused',
      params: { count: 2, refused: 1 },
    });
    expect(answer.refused).toEqual([
      {
        student_id: chitra.id,
        student_name: 'Chitra Seven',
        reason: expect.stringMatching(
          /^Already approved by Administrator for \d+ \w+ \d{4}, as Late: it was not changed\.$/,
        ),
        code: 'attendance.mark_already_approved_by',
        params: { name: 'Administrator', date: expect.stringMatching(/^\d+ \w{3} \d{4}$/), status: 'late' },
      },
    ]);
    expectReasonsFromCodes(answer.refused);
    expect((await recordsOf(today())).map((row) => row.status)).toEqual(['absent', 'absent', 'late']);
  });

  it('refuses per student a class taken away before the marks arrived, and students of others', async () => {
    await admin.put(`/api/v1/teachers/${tessTeacherId}`, { classes_assigned: ['8'] });
    const records = [...classSeven('present'), { student_id: nine.id, status: 'present' }];
    const answer = (await send(tess, { submission_id: randomUUID(), date: today(), records })).json();
    expect(answer.marked_count).toBe(0);
    expect(answer.class_name).toBeNull();
    expect(answer.refused).toHaveLength(4);
    expect(answer.refused[0]).toEqual({
      student_id: asha.id,
      student_name: 'Asha Seven',
      reason: 'You may no longer mark class 7.',
      code: 'attendance.mark_class_not_yours',
      params: { class_name: '7' },
    });
    expect(answer.refused[3].reason).toBe('You may no longer mark class 9.');
    expect(answer.refused[3].params).toEqual({ class_name: '9' });
    expectReasonsFromCodes(answer.refused);
    expect(await recordsOf(today())).toEqual([]);
  });

  it('refuses every student, with the reason as a code, when the teacher has no class left', async () => {
    await admin.put(`/api/v1/teachers/${tessTeacherId}`, { classes_assigned: [] });
    const answer = (await send(tess, { submission_id: randomUUID(), date: today(), records: classSeven() })).json();
    expect(answer.marked_count).toBe(0);
    expect(answer.refused).toHaveLength(3);
    expect(answer.refused[0]).toMatchObject({
      reason: expect.stringMatching(/^No class is assigned to you, so you cannot mark attendance\./),
      code: 'attendance.no_class_assigned',
      params: {},
    });
    expectReasonsFromCodes(answer.refused);
    expect(answer.message).toBe('Attendance marked for 0 student(s); 3 marks could not be saved');
    expect(answer.message_words).toEqual({
      code: 'attendance.queued_marked_refused',
      params: { count: 0, refused: 3 },
    });
  });

  it('refuses per student a day that left the window while the device waited', async () => {
    const old = addDays(today(), -5);
    const answer = (await send(tess, { submission_id: randomUUID(), date: old, records: classSeven() })).json();
    expect(answer.marked_count).toBe(0);
    expect(answer.refused.map((refusal: { reason: string }) => refusal.reason)).toEqual(
      Array(3).fill(
        `Teachers can mark attendance only from ${addDays(today(), -2)} to ${today()} (today and the 2 days before); an admin can mark earlier days.`,
      ),
    );
    expect(answer.refused[0]).toMatchObject({
      code: 'attendance.teacher_window',
      params: { earliest: addDays(today(), -2), today: today(), days: 2 },
    });
    expectReasonsFromCodes(answer.refused);
  });

  it('names a student deleted meanwhile, and saves the others', async () => {
    const gone = await api.student({ full_name: 'Gone Seven', class_name: '7' });
    expect((await admin.delete(`/api/v1/students/${gone.id}`)).statusCode).toBe(200);
    const records = [...classSeven(), { student_id: gone.id, status: 'absent' }];
    const answer = (await send(tess, { submission_id: randomUUID(), date: today(), records })).json();
    expect(answer.marked_count).toBe(3);
    expect(answer.refused).toEqual([
      {
        student_id: gone.id,
        student_name: null,
        reason: 'This student is no longer on the register (the record was deleted).',
        code: 'attendance.mark_student_deleted',
        params: {},
      },
    ]);
    expectReasonsFromCodes(answer.refused);
  });

  it('refuses what is malformed outright, naming the field', async () => {
    const future = await send(tess, { submission_id: randomUUID(), date: addDays(today(), 1), records: classSeven() });
    expect(future.statusCode).toBe(422);
    expect(detailOf(future)).toBe('date: cannot be in the future');
    const noId = await send(tess, { date: today(), records: classSeven() });
    expect(noId.statusCode).toBe(422);
    expect(detailOf(noId)).toMatch(/^submission_id: /);
    const badId = await send(tess, { submission_id: 'offline-1', date: today(), records: classSeven() });
    expect(detailOf(badId)).toBe('submission_id: must be the id the device gave these marks (a UUID)');
    const twice = await send(tess, {
      submission_id: randomUUID(),
      date: today(),
      records: [...classSeven(), { student_id: asha.id, status: 'absent' }],
    });
    expect(twice.statusCode).toBe(422);
    expect(await recordsOf(today())).toEqual([]);
  });

  it('needs a signed-in account', async () => {
    const response = await api.app.inject({
      method: 'POST',
      url: '/api/v1/attendance/submissions',
      payload: { submission_id: randomUUID(), date: today(), records: classSeven() },
    });
    expect(response.statusCode).toBe(401);
  });
});
