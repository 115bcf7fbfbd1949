import { describe, expect, it } from 'vitest';
import { today } from '../src/lib/time';
import {
  activities,
  admin,
  api,
  day,
  leave,
  leaversApp,
  left,
  listIds,
  mark,
  restore,
  rosterIds,
  type StudentAnswer,
  studentRow,
} from './helpers/students-left';
import { detailOf, uniquePhone } from './helpers/test-app';

/**
 * Students who leave: marked as having left on a day (not deleted), they leave the lists, the later
 * rosters, the parents' messages and the dashboard, keep their history, can be restored, and have
 * their personal data scrubbed scrub_left_after_months after leaving.
 */

// The scrub of personal data, and WhatsApp to a family that left: students-left-scrub.test.ts.
leaversApp();

describe('marking a student as left, and restoring them', () => {
  it('records the day, answers it on the student, and writes an activity row each way', async () => {
    const student = await api.student({ full_name: 'Meera Iyer' });
    const answer = await left(student.id, day(-3));
    expect(answer).toMatchObject({ id: student.id, left_on: day(-3), scrubbed_at: null, full_name: 'Meera Iyer' });
    expect((await admin.get(`/api/v1/students/${student.id}`)).json()).toMatchObject({ left_on: day(-3) });
    expect((await activities('student.left')).at(-1)?.description).toMatch(
      /^Administrator marked student Meera Iyer \(STU\d+\) as having left on \d+ \w{3} \d{4}$/,
    );

    const restored = await restore(student.id);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toMatchObject({ id: student.id, left_on: null });
    expect((await activities('student.restored')).at(-1)?.description).toContain('restored student Meera Iyer');
  });

  it('takes today when no day is given, and a day before any attendance', async () => {
    const student = await api.student({ full_name: 'Dev Nair' });
    const answer = await leave(student.id);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ left_on: today() });
    const other = await api.student({ full_name: 'Ravi Nair' });
    expect((await left(other.id, '2019-06-01')).left_on).toBe('2019-06-01');
  });

  it('refuses a second leaving and a restore of one who has not left (409), writing nothing', async () => {
    const student = await api.student({ full_name: 'Tara Singh' });
    const notLeft = await restore(student.id);
    expect(notLeft.statusCode).toBe(409);
    expect(detailOf(notLeft)).toBe('Tara Singh has not left, so cannot be restored');

    await left(student.id, day(-1));
    const before = (await activities('student.left')).length;
    const again = await leave(student.id, { left_on: day(-2) });
    expect(again.statusCode).toBe(409);
    expect(detailOf(again)).toMatch(/^Tara Singh already left on /);
    expect((await studentRow(student.id))?.left_on).toBe(day(-1));
    expect(await activities('student.left')).toHaveLength(before);
  });

  it('refuses a day in the future or not a date (422 naming left_on), an unknown id (404), a teacher (403)', async () => {
    const student = await api.student({ full_name: 'Kiran Rao' });
    for (const leftOn of [day(1), '2026-02-30', '25/11/2026', 20261125]) {
      const response = await leave(student.id, { left_on: leftOn });
      expect(response.statusCode, String(leftOn)).toBe(422);
      expect(detailOf(response)).toMatch(/^left_on: /);
    }
    expect(detailOf(await leave(student.id, { left_on: day(1) }))).toBe(
      'left_on: must be today or a day before, not in the future',
    );
    expect((await studentRow(student.id))?.left_on).toBeNull();

    expect((await leave(999_999, { left_on: day(0) })).statusCode).toBe(404);
    expect((await restore(999_999)).statusCode).toBe(404);
    const teacher = api.as('teacher');
    expect((await leave(student.id, {}, teacher)).statusCode).toBe(403);
    await left(student.id, day(0));
    expect((await restore(student.id, teacher)).statusCode).toBe(403);
    expect((await studentRow(student.id))?.left_on).toBe(day(0));
  });

  it('two admins marking one student at once: one succeeds, the other gets 409', async () => {
    const student = await api.student({ full_name: 'Ishaan Das' });
    const answers = await Promise.all([
      leave(student.id, { left_on: day(-1) }),
      leave(student.id, { left_on: day(-2) }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const winner = answers.find((a) => a.statusCode === 200)?.json() as StudentAnswer;
    expect((await studentRow(student.id))?.left_on).toBe(winner.left_on);
  });
});

describe('who sees a student who left', () => {
  it('leaves the default list; status=left shows only them, status=all both; a bad status is 422', async () => {
    const staying = await api.student({ full_name: 'Staying Student' });
    const going = await api.student({ full_name: 'Going Student' });
    await left(going.id, day(-1));

    const current = await listIds();
    expect(current).toContain(staying.id);
    expect(current).not.toContain(going.id);
    expect(await listIds('?status=current')).toEqual(current);
    const gone = await listIds('?status=left');
    expect(gone).toContain(going.id);
    expect(gone).not.toContain(staying.id);
    const all = await listIds('?status=all');
    expect(all).toEqual(expect.arrayContaining([staying.id, going.id]));

    const bad = await admin.get('/api/v1/students/?status=gone');
    expect(bad.statusCode).toBe(422);
    expect(detailOf(bad)).toMatch(/^status: must be current, left or all/);

    await restore(going.id);
    expect(await listIds()).toContain(going.id);
  });

  it('rosters show them up to their leaving day, later only where a record was kept', async () => {
    const stays = await api.student({ full_name: 'Roster Stays', class_name: '8' });
    const goes = await api.student({ full_name: 'Roster Goes', class_name: '8' });
    await mark(day(-2), [{ student_id: goes.id, status: 'present' }]);
    await left(goes.id, day(-5));

    expect(await rosterIds('8', day(-6))).toEqual(expect.arrayContaining([stays.id, goes.id]));
    expect(await rosterIds('8', day(-5))).toContain(goes.id);
    expect(await rosterIds('8', day(-4))).not.toContain(goes.id);
    expect(await rosterIds('8', day(0))).not.toContain(goes.id);
    // A day after leaving with a record: still on that day's roster, so the record can be corrected.
    expect(await rosterIds('8', day(-2))).toContain(goes.id);
    expect(await rosterIds('8', day(0))).toContain(stays.id);
  });

  it('is not marked for a day after leaving, unless that day has a record to correct', async () => {
    const student = await api.student({ full_name: 'Marked Leaver', class_name: '10' });
    const stays = await api.student({ full_name: 'Marked Stays', class_name: '10' });
    await mark(day(-3), [{ student_id: student.id, status: 'present' }]);
    await left(student.id, day(-5));
    const after = await admin.post('/api/v1/attendance/mark', {
      date: day(-2),
      records: [
        { student_id: stays.id, status: 'present' },
        { student_id: student.id, status: 'absent' },
      ],
    });
    expect(after.statusCode).toBe(409);
    expect(detailOf(after)).toMatch(/^Marked Leaver left the centre on .+: attendance for .+ cannot be marked$/);
    const rows = await api.db.query('SELECT 1 FROM attendance WHERE date = $1::date AND student_id = ANY($2::int[])', [
      day(-2),
      [student.id, stays.id],
    ]);
    expect(rows).toEqual([]);
    // Their own day, and a day after it that already has a record, can still be marked.
    await mark(day(-5), [{ student_id: student.id, status: 'late' }]);
    await mark(day(-3), [{ student_id: student.id, status: 'absent' }]);

    // From a device's queue: the others are saved, the student who left comes back with the reason.
    const queued = await admin.post('/api/v1/attendance/submissions', {
      submission_id: '5d6c3a86-5f55-4b84-9d4a-4b9a2f0b7e11',
      date: day(-1),
      records: [
        { student_id: stays.id, status: 'present' },
        { student_id: student.id, status: 'present' },
      ],
    });
    expect(queued.statusCode, queued.body).toBe(200);
    expect(queued.json()).toMatchObject({
      marked_count: 1,
      refused: [
        {
          student_id: student.id,
          student_name: 'Marked Leaver',
          reason: expect.stringMatching(/^Marked Leaver left the centre on .+ cannot be marked\.$/),
          code: 'attendance.mark_student_left',
          params: {
            name: 'Marked Leaver',
            left_on: expect.stringMatching(/^\d+ \w{3} \d{4}$/),
            date: expect.stringMatching(/^\d+ \w{3} \d{4}$/),
          },
        },
      ],
    });
  });

  it('keeps their attendance in history and pending lists, under their name', async () => {
    const student = await api.student({ full_name: 'History Kept', class_name: '9' });
    await mark(day(-4), [{ student_id: student.id, status: 'absent' }]);
    await left(student.id, day(-3));
    const pending = await admin.get(`/api/v1/attendance/pending-approval?attendance_date=${day(-4)}`);
    const record = (pending.json() as { id: number; student_id: number; student_name: string }[]).find(
      (r) => r.student_id === student.id,
    );
    expect(record?.student_name).toBe('History Kept');
    const history = await admin.get(`/api/v1/attendance/history?start_date=${day(-4)}&end_date=${day(-4)}`);
    expect(history.statusCode).toBe(200);
    expect(history.json() as { student_id: number; student_name: string }[]).toEqual(
      expect.arrayContaining([expect.objectContaining({ student_id: student.id, student_name: 'History Kept' })]),
    );
  });

  it('leaves the dashboard count and the classes waiting for marks', async () => {
    const summary = async () => (await admin.get('/api/v1/dashboard/summary')).json();
    const before = await summary();
    const student = await api.student({ full_name: 'Counted Once', class_name: '10' });
    expect((await summary()).total_students).toBe(before.total_students + 1);
    await left(student.id, day(0));
    const after = await summary();
    expect(after.total_students).toBe(before.total_students);
    const class10 = (after.classes_without_attendance as { class_name: string; students: number }[]).find(
      (c) => c.class_name === '10',
    );
    const class10Before = (before.classes_without_attendance as { class_name: string; students: number }[]).find(
      (c) => c.class_name === '10',
    );
    expect(class10?.students).toBe(class10Before?.students);
  });

  it('leaves the messages to all parents and to a class; a family with another child still gets one', async () => {
    const loneFamily = uniquePhone();
    const sharedFamily = uniquePhone();
    const lone = await api.student({ full_name: 'Lone Leaver', class_name: '7', parent_phone: loneFamily });
    const sibling = await api.student({ full_name: 'Sibling Leaver', class_name: '7', parent_phone: sharedFamily });
    await api.student({ full_name: 'Sibling Stays', class_name: '9', parent_phone: sharedFamily });
    await left(lone.id, day(-1));
    await left(sibling.id, day(-1));

    const all = await admin.post('/api/v1/messages/send-to-parents', {
      subject: 'Holiday',
      message: 'The centre is closed on Friday.',
      recipients: 'all_parents',
    });
    expect(all.statusCode, all.body).toBe(200);
    const toPhone = async (phone: string, subject: string) =>
      (
        await api.db.query<{ count: number }>(
          'SELECT count(*)::int AS count FROM messages WHERE recipient = $1 AND subject = $2',
          [phone, subject],
        )
      )[0]?.count;
    expect(await toPhone(loneFamily, 'Holiday')).toBe(0);
    expect(await toPhone(sharedFamily, 'Holiday')).toBe(1);

    const class7 = await admin.post('/api/v1/messages/send-to-parents', {
      subject: 'Class 7 test',
      message: 'Bring a pencil.',
      recipients: '7',
    });
    expect(class7.statusCode, class7.body).toBe(200);
    expect(await toPhone(loneFamily, 'Class 7 test')).toBe(0);
    // The family's child in class 7 left; its child in class 9 is not in class 7's scope.
    expect(await toPhone(sharedFamily, 'Class 7 test')).toBe(0);
  });

  it('sends no absence alert for a student who left, even for a day before they left', async () => {
    const phone = uniquePhone();
    const student = await api.student({ full_name: 'Alert Leaver', class_name: '7', parent_phone: phone });
    const staying = await api.student({ full_name: 'Alert Stays', class_name: '7' });
    await mark(day(-6), [
      { student_id: student.id, status: 'absent' },
      { student_id: staying.id, status: 'absent' },
    ]);
    await left(student.id, day(-1));
    const pending = await admin.get(`/api/v1/attendance/pending-approval?attendance_date=${day(-6)}`);
    const ids = (pending.json() as { id: number; student_id: number }[])
      .filter((r) => r.student_id === student.id || r.student_id === staying.id)
      .map((r) => r.id);
    const approved = await admin.post('/api/v1/attendance/approve', { attendance_ids: ids });
    expect(approved.statusCode, approved.body).toBe(200);
    const alerts = await api.db.query<{ student_id: number }>(
      "SELECT student_id FROM messages WHERE kind = 'absence_alert' AND student_id = ANY($1::int[])",
      [[student.id, staying.id]],
    );
    expect(alerts.map((a) => a.student_id)).toEqual([staying.id]);
  });
});

describe('the parent app of a family whose children left', () => {
  it('shows only the children still attending; when all left, sign-in is refused and sessions end', async () => {
    const created = await api.family({ full_name: 'Aarav Shah', class_name: '7' });
    const sibling = await api.student({ full_name: 'Diya Shah', class_name: '9', parent_phone: created.phone });
    const code = { phone: created.phone, code: created.code };
    const parent = api.as('parent', code);
    const names = async () =>
      ((await parent.get('/api/v1/parent/me')).json() as { children: { full_name: string }[] }).children.map(
        (c) => c.full_name,
      );
    expect(await names()).toEqual(['Aarav Shah', 'Diya Shah']);

    await left(sibling.id, day(-1));
    expect(await names()).toEqual(['Aarav Shah']);
    const siblingAttendance = await parent.get(`/api/v1/parent/children/${sibling.id}/attendance`);
    expect(siblingAttendance.statusCode).toBe(404);

    await left(created.studentId, day(0));
    expect((await parent.get('/api/v1/parent/me')).statusCode).toBe(401);
    const signIn = await api.anonymous().post('/api/v1/parent/login', code);
    expect(signIn.statusCode).toBe(403);
    expect(detailOf(signIn)).toBe('None of your children attends the centre any more, so this access has ended');
    // A wrong code is told nothing more than before.
    const wrong = await api.anonymous().post('/api/v1/parent/login', { phone: created.phone, code: 'AAAA-BBBB' });
    expect(wrong.statusCode).not.toBe(403);

    // No new code for a family through a child who left.
    const issue = await admin.post(`/api/v1/students/${created.studentId}/parent-access`, {});
    expect(issue.statusCode).toBe(409);

    await restore(created.studentId);
    const again = await api.anonymous().post('/api/v1/parent/login', code);
    expect(again.statusCode, again.body).toBe(200);
  });
});

describe('the setting: months after leaving when personal data is removed', () => {
  it('is 24 by default, admins change it (activity row), bad values are 422 and change nothing', async () => {
    expect((await api.as('teacher').get('/api/v1/settings/students')).json()).toEqual({ scrub_left_after_months: 24 });
    for (const value of [0, -1, 121, 2.5, '12', null]) {
      const response = await admin.put('/api/v1/settings/students', { scrub_left_after_months: value });
      expect(response.statusCode, String(value)).toBe(422);
      expect(detailOf(response)).toMatch(/^scrub_left_after_months: must be a whole number of months from 1 to 120/);
    }
    expect((await admin.put('/api/v1/settings/students', {})).statusCode).toBe(422);
    expect((await api.as('teacher').put('/api/v1/settings/students', { scrub_left_after_months: 6 })).statusCode).toBe(
      403,
    );
    expect((await admin.get('/api/v1/settings/students')).json()).toEqual({ scrub_left_after_months: 24 });

    const changed = await admin.put('/api/v1/settings/students', { scrub_left_after_months: 36 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({ scrub_left_after_months: 36 });
    expect((await activities('settings.updated')).at(-1)?.description).toBe(
      'Administrator set the personal data of students who left to be removed 36 months after they left (was 24)',
    );
    await admin.put('/api/v1/settings/students', { scrub_left_after_months: 24 });
  });
});
