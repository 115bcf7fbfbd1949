import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, today } from '../src/lib/time';
import { type Caller, type FamilyCode, testClientForBlock } from './helpers/client';
import { detailOf, signInNewTeacher } from './helpers/test-app';

/**
 * Leave told in advance: a parent asks in the parent app, staff list it (teachers their classes),
 * admins approve or decline it, the roster shows it, and approved leave silences the absence alert.
 */

const api = testClientForBlock();
const admin = () => api().as('admin');

interface LeaveRow {
  id: number;
  student_id: number;
  student_name: string;
  class_name: string;
  from_date: string;
  to_date: string;
  days: number;
  reason: string;
  status: string;
  requested_at: string;
  decided_at: string | null;
  decided_by: string | null;
}

const day = (offset: number) => addDays(today(), offset);

/** A family with one child in `className`, signed in to the parent app. */
async function family(name: string, className = '7') {
  const created = await api().family({ full_name: name, class_name: className, parent_name: `Parent of ${name}` });
  const code: FamilyCode = { phone: created.phone, code: created.code };
  return { studentId: created.studentId, phone: created.phone, parent: api().as('parent', code) };
}

function ask(parent: Caller, body: Record<string, unknown>) {
  return parent.post('/api/v1/parent/leave-requests', body);
}

async function asked(parent: Caller, body: Record<string, unknown>): Promise<LeaveRow> {
  const response = await ask(parent, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as LeaveRow;
}

async function rowOf(id: number) {
  const [row] = await api().db.query<{ status: string; decided_by: string | null; decided_by_user_id: number | null }>(
    'SELECT status, decided_by, decided_by_user_id FROM leave_requests WHERE id = $1',
    [id],
  );
  return row;
}

async function activities(action: string) {
  return api().db.query<{ actor: string; description: string; user_id: number | null }>(
    'SELECT actor, description, user_id FROM activities WHERE action = $1 ORDER BY id',
    [action],
  );
}

async function leaveCount(): Promise<number> {
  const [row] = await api().db.query<{ count: number }>('SELECT count(*)::int AS count FROM leave_requests');
  return row?.count ?? 0;
}

describe('a parent tells the centre a child will be away', () => {
  it('asks for one child of several, sees it waiting, and withdraws it', async () => {
    const { phone, studentId, parent } = await family('Asha Verma');
    const sibling = await api().student({ full_name: 'Kabir Verma', class_name: '9', parent_phone: phone });

    const created = await asked(parent, {
      student_id: sibling.id,
      from_date: day(1),
      to_date: day(3),
      reason: '  Cousin’s wedding in Pune  ',
    });
    expect(created).toMatchObject({
      student_id: sibling.id,
      student_name: 'Kabir Verma',
      class_name: '9',
      from_date: day(1),
      to_date: day(3),
      days: 3,
      reason: 'Cousin’s wedding in Pune',
      status: 'pending',
      decided_at: null,
      decided_by: null,
    });

    // One day: to_date may be left out.
    const oneDay = await asked(parent, { student_id: studentId, from_date: day(0), reason: 'Doctor' });
    expect(oneDay).toMatchObject({ from_date: day(0), to_date: day(0), days: 1 });

    const list = await parent.get('/api/v1/parent/leave-requests');
    expect(list.statusCode).toBe(200);
    expect((list.json().requests as LeaveRow[]).map((r) => [r.id, r.status])).toEqual([
      [oneDay.id, 'pending'],
      [created.id, 'pending'],
    ]);

    const withdrawn = await parent.post(`/api/v1/parent/leave-requests/${created.id}/withdraw`);
    expect(withdrawn.statusCode).toBe(200);
    expect(withdrawn.json()).toMatchObject({
      id: created.id,
      status: 'withdrawn',
      decided_by: 'Parent of Asha Verma (parent)',
    });
    expect(withdrawn.json().decided_at).toEqual(expect.any(String));

    const again = await parent.post(`/api/v1/parent/leave-requests/${created.id}/withdraw`);
    expect(again.statusCode).toBe(409);
    expect(detailOf(again)).toBe('This leave request was already withdrawn and cannot be withdrawn.');

    // Withdrawn leave holds no days: the same dates can be asked again.
    await asked(parent, {
      student_id: sibling.id,
      from_date: day(2),
      to_date: day(2),
      reason: 'Wedding, one day only',
    });

    const rows = await activities('leave.requested');
    expect(rows.map((row) => row.description)).toContain(
      `Parent of Asha Verma (parent) asked for leave for Kabir Verma (Class 9) from ${spoken(day(1))} to ${spoken(day(3))}: Cousin’s wedding in Pune`,
    );
    expect(rows.every((row) => row.user_id === null)).toBe(true);
    expect((await activities('leave.withdrawn')).at(-1)?.description).toBe(
      `Parent of Asha Verma (parent) withdrew the leave request for Kabir Verma from ${spoken(day(1))} to ${spoken(day(3))}`,
    );
  });

  it('refuses bad dates and reasons with a 422 naming the field, writing nothing', async () => {
    const { studentId, parent } = await family('Ravi Nair');
    const before = await leaveCount();
    const cases: [Record<string, unknown>, string][] = [
      [
        { from_date: day(-1), reason: 'Late tell' },
        `from_date: must be today (${today()}) or later: leave is told in advance`,
      ],
      [{ from_date: day(3), to_date: day(2), reason: 'Backwards' }, 'to_date: must not be before from_date'],
      [
        { from_date: day(1), to_date: day(61), reason: 'Long trip' },
        'to_date: leave can cover at most 60 days in one request (this is 61); for a longer absence, please call the centre',
      ],
      [{ from_date: day(400), reason: 'Next year' }, `from_date: must be within a year from today (by ${day(366)})`],
      [{ from_date: day(1) }, 'reason: is required'],
      [{ from_date: day(1), reason: '   ' }, 'reason: must not be empty'],
      [{ from_date: day(1), reason: 'x'.repeat(201) }, 'reason: must be at most 200 characters'],
      [{ from_date: '2026-02-30', reason: 'No such day' }, 'from_date: is not a real calendar date'],
      [{ from_date: day(1), to_date: 'tomorrow', reason: 'Words' }, 'to_date: must be a date written yyyy-MM-dd'],
    ];
    for (const [body, detail] of cases) {
      const response = await ask(parent, { student_id: studentId, ...body });
      expect({ body, status: response.statusCode, detail: detailOf(response) }).toEqual({ body, status: 422, detail });
    }
    const noChild = await ask(parent, { from_date: day(1), reason: 'Who?' });
    expect(noChild.statusCode).toBe(422);
    expect(detailOf(noChild)).toMatch(/^student_id: /);
    // The longest allowed range passes.
    await asked(parent, { student_id: studentId, from_date: day(1), to_date: day(60), reason: 'Family abroad' });
    expect(await leaveCount()).toBe(before + 1);
  });

  it("answers another family's child exactly as an unknown one (404), and never lists or withdraws its requests", async () => {
    const mine = await family('Neha Singh');
    const theirs = await family('Omar Khan');
    const theirRequest = await asked(theirs.parent, { student_id: theirs.studentId, from_date: day(1), reason: 'Eid' });

    const other = await ask(mine.parent, { student_id: theirs.studentId, from_date: day(1), reason: 'Sneaky' });
    const unknown = await ask(mine.parent, { student_id: 1_999_999, from_date: day(1), reason: 'Nobody' });
    expect([other.statusCode, detailOf(other)]).toEqual([404, 'Student not found']);
    expect([unknown.statusCode, detailOf(unknown)]).toEqual([404, 'Student not found']);

    const list = await mine.parent.get('/api/v1/parent/leave-requests');
    expect((list.json().requests as LeaveRow[]).map((r) => r.id)).not.toContain(theirRequest.id);

    const withdraw = await mine.parent.post(`/api/v1/parent/leave-requests/${theirRequest.id}/withdraw`);
    expect([withdraw.statusCode, detailOf(withdraw)]).toEqual([404, 'Leave request not found']);
    expect((await rowOf(theirRequest.id))?.status).toBe('pending');
  });

  it('refuses a request overlapping a waiting or approved one for the same child (409), not a declined one', async () => {
    const { studentId, parent } = await family('Priya Das');
    const first = await asked(parent, { student_id: studentId, from_date: day(5), to_date: day(8), reason: 'Trip' });

    const overlapping = await ask(parent, {
      student_id: studentId,
      from_date: day(8),
      to_date: day(9),
      reason: 'More',
    });
    expect(overlapping.statusCode).toBe(409);
    expect(detailOf(overlapping)).toBe(
      `Priya Das already has a leave request from ${spoken(day(5))} to ${spoken(day(8))} (waiting for the centre) that overlaps these dates. Withdraw it first, or choose other dates.`,
    );
    // Next to it, not on it: fine.
    const next = await asked(parent, { student_id: studentId, from_date: day(9), reason: 'Rest day' });

    expect((await admin().post(`/api/v1/leave-requests/${first.id}/approve`)).statusCode).toBe(200);
    const onApproved = await ask(parent, { student_id: studentId, from_date: day(4), to_date: day(5), reason: 'x' });
    expect(onApproved.statusCode).toBe(409);
    expect(detailOf(onApproved)).toContain('(approved)');

    expect((await admin().post(`/api/v1/leave-requests/${next.id}/decline`)).statusCode).toBe(200);
    await asked(parent, { student_id: studentId, from_date: day(9), to_date: day(10), reason: 'Asked again' });
  });

  it('lets exactly one of two overlapping requests sent at once through', async () => {
    const { studentId, parent } = await family('Isha Rao');
    const before = await leaveCount();
    const answers = await Promise.all(
      [1, 2, 3].map((n) =>
        ask(parent, { student_id: studentId, from_date: day(n), to_date: day(n + 5), reason: `Try ${n}` }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409]);
    expect(await leaveCount()).toBe(before + 1);
  });

  it('leaves each request, withdrawal and decision in the audit log, with who did it', async () => {
    const { studentId, phone, parent } = await family('Audit Trail');
    const first = await asked(parent, { student_id: studentId, from_date: day(1), reason: 'Audited' });
    const second = await asked(parent, { student_id: studentId, from_date: day(2), reason: 'Audited too' });
    await parent.post(`/api/v1/parent/leave-requests/${first.id}/withdraw`);
    await admin().post(`/api/v1/leave-requests/${second.id}/approve`);
    const rows = await api().db.query<{
      record_id: string;
      action: string;
      way: string;
      actor_name: string | null;
      before: Record<string, unknown> | null;
      after: Record<string, unknown> | null;
    }>(
      `SELECT record_id, action, way, actor_name, before, after FROM audit_log
        WHERE entity = 'leave_requests' AND record_id = ANY($1::text[]) ORDER BY id`,
      [[String(first.id), String(second.id)]],
    );
    expect(
      rows.map((row) => [row.record_id, row.action, row.actor_name, row.before?.status, row.after?.status]),
    ).toEqual([
      [String(first.id), 'create', `Parent ${phone}`, undefined, 'pending'],
      [String(second.id), 'create', `Parent ${phone}`, undefined, 'pending'],
      [String(first.id), 'update', `Parent ${phone}`, 'pending', 'withdrawn'],
      [String(second.id), 'update', 'Administrator', 'pending', 'approved'],
    ]);
    expect(rows.at(-1)?.after).toMatchObject({ decided_by: 'Administrator', decided_at: expect.any(String) });
  });

  it("treats a child who left the centre as no longer the family's: no new request, none listed", async () => {
    const { phone, studentId, parent } = await family('Leaving Child');
    const staying = await api().student({ full_name: 'Staying Sibling', class_name: '9', parent_phone: phone });
    const before = await asked(parent, { student_id: studentId, from_date: day(3), reason: 'Before leaving' });
    await asked(parent, { student_id: staying.id, from_date: day(3), reason: 'Sibling stays' });
    const left = await admin().post(`/api/v1/students/${studentId}/leave`, { left_on: today() });
    expect(left.statusCode, left.body).toBe(200);

    const again = await ask(parent, { student_id: studentId, from_date: day(5), reason: 'After leaving' });
    expect([again.statusCode, detailOf(again)]).toEqual([404, 'Student not found']);
    const mine = (await parent.get('/api/v1/parent/leave-requests')).json().requests as LeaveRow[];
    expect(mine.map((r) => r.student_name)).toEqual(['Staying Sibling']);
    const withdraw = await parent.post(`/api/v1/parent/leave-requests/${before.id}/withdraw`);
    expect(withdraw.statusCode).toBe(404);
    const staff = (await admin().get('/api/v1/leave-requests?status=pending')).json().requests as LeaveRow[];
    expect(staff.map((r) => r.id)).not.toContain(before.id);
  });

  it('keeps parents and staff on their own sides', async () => {
    const { studentId, parent } = await family('Tara Menon');
    const request = await asked(parent, { student_id: studentId, from_date: day(1), reason: 'Fever' });
    expect((await parent.get('/api/v1/leave-requests')).statusCode).toBe(403);
    expect((await parent.post(`/api/v1/leave-requests/${request.id}/approve`)).statusCode).toBe(403);
    expect((await admin().get('/api/v1/parent/leave-requests')).statusCode).toBe(403);
    expect(
      (await admin().post('/api/v1/parent/leave-requests', { student_id: studentId, from_date: day(1), reason: 'x' }))
        .statusCode,
    ).toBe(403);
    expect((await api().anonymous().get('/api/v1/parent/leave-requests')).statusCode).toBe(401);
    expect((await api().anonymous().get('/api/v1/leave-requests')).statusCode).toBe(401);
  });
});

describe('staff see, admins decide', () => {
  let teacher: Caller;
  let seven: Awaited<ReturnType<typeof family>>;
  let eight: Awaited<ReturnType<typeof family>>;
  let sevenLeave: LeaveRow;
  let eightLeave: LeaveRow;

  beforeAll(async () => {
    // A centre of its own, so lists and counts hold only this block's requests.
    await api().db.query('DELETE FROM leave_requests');
    const signedIn = await signInNewTeacher(api().app, api().db, await api().adminToken(), {
      first_name: 'Meera',
      last_name: 'Iyer',
      classes_assigned: ['8'],
    });
    teacher = api().as('teacher', signedIn);
    seven = await family('Arjun Patel', '7');
    eight = await family('Diya Shah', '8');
    sevenLeave = await asked(seven.parent, {
      student_id: seven.studentId,
      from_date: day(2),
      to_date: day(4),
      reason: 'Trip',
    });
    eightLeave = await asked(eight.parent, {
      student_id: eight.studentId,
      from_date: day(10),
      reason: 'Exam elsewhere',
    });
  });

  it('shows a teacher the requests of the classes they mark, and an admin all of them', async () => {
    const mine = await teacher.get('/api/v1/leave-requests');
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual({
      requests: [expect.objectContaining({ id: eightLeave.id, class_name: '8' })],
      total: 1,
    });
    expect((await teacher.get('/api/v1/leave-requests/count')).json()).toEqual({ pending: 1 });

    const notMine = await teacher.get('/api/v1/leave-requests?class_name=7');
    expect([notMine.statusCode, detailOf(notMine)]).toEqual([
      403,
      'You can see leave requests only for your class (8).',
    ]);

    const all = await admin().get('/api/v1/leave-requests');
    expect((all.json().requests as LeaveRow[]).map((r) => r.id)).toEqual([eightLeave.id, sevenLeave.id]);
    expect(all.json().total).toBe(2);
    expect((await admin().get('/api/v1/leave-requests/count')).json()).toEqual({ pending: 2 });
    expect((await admin().get('/api/v1/leave-requests?class_name=Class 7')).json().total).toBe(1);
  });

  it('filters by state and by the days covered', async () => {
    const covering = await admin().get(`/api/v1/leave-requests?from_date=${day(4)}&to_date=${day(9)}`);
    expect((covering.json().requests as LeaveRow[]).map((r) => r.id)).toEqual([sevenLeave.id]);
    const later = await admin().get(`/api/v1/leave-requests?from_date=${day(5)}`);
    expect((later.json().requests as LeaveRow[]).map((r) => r.id)).toEqual([eightLeave.id]);
    expect((await admin().get('/api/v1/leave-requests?status=approved')).json()).toEqual({ requests: [], total: 0 });
    const page = await admin().get('/api/v1/leave-requests?limit=1&offset=1');
    expect(page.json()).toMatchObject({ requests: [{ id: sevenLeave.id }], total: 2 });

    const reversed = await admin().get(`/api/v1/leave-requests?from_date=${day(5)}&to_date=${day(4)}`);
    expect([reversed.statusCode, detailOf(reversed)]).toEqual([422, 'to_date: must not be before from_date']);
    const badStatus = await admin().get('/api/v1/leave-requests?status=maybe');
    expect([badStatus.statusCode, detailOf(badStatus)]).toEqual([
      422,
      'status: must be one of pending, approved, declined or withdrawn',
    ]);
  });

  it('lets only admins decide, once: the parent sees who decided and when', async () => {
    const byTeacher = await teacher.post(`/api/v1/leave-requests/${eightLeave.id}/approve`);
    expect(byTeacher.statusCode).toBe(403);
    expect((await rowOf(eightLeave.id))?.status).toBe('pending');

    const approved = await admin().post(`/api/v1/leave-requests/${eightLeave.id}/approve`);
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ id: eightLeave.id, status: 'approved', decided_by: 'Administrator' });

    const seen = (await eight.parent.get('/api/v1/parent/leave-requests')).json().requests as LeaveRow[];
    expect(seen.find((r) => r.id === eightLeave.id)).toMatchObject({ status: 'approved', decided_by: 'Administrator' });

    const twice = await admin().post(`/api/v1/leave-requests/${eightLeave.id}/decline`);
    expect([twice.statusCode, detailOf(twice)]).toEqual([
      409,
      'This leave request was already approved by Administrator.',
    ]);
    const withdraw = await eight.parent.post(`/api/v1/parent/leave-requests/${eightLeave.id}/withdraw`);
    expect([withdraw.statusCode, detailOf(withdraw)]).toEqual([
      409,
      'This leave request was already approved and cannot be withdrawn.',
    ]);
    const missing = await admin().post('/api/v1/leave-requests/1999999/approve');
    expect([missing.statusCode, detailOf(missing)]).toEqual([404, 'Leave request not found']);
    expect((await admin().post('/api/v1/leave-requests/abc/approve')).statusCode).toBe(422);

    expect((await activities('leave.approved')).at(-1)).toMatchObject({
      actor: 'Administrator',
      description: `Administrator approved leave for Diya Shah (Class 8) on ${spoken(day(10))} (1 day)`,
    });
    expect((await admin().get('/api/v1/leave-requests/count')).json()).toEqual({ pending: 1 });
  });

  it("tells the family in the parent app, in the family's language, with a push to its devices", async () => {
    const hindi = await family('Ira Rao', '8');
    expect((await hindi.parent.put('/api/v1/parent/language', { language: 'hi' })).statusCode).toBe(200);
    // A device of the family's, as the parent app's subscription leaves it.
    await api().db.query(
      `INSERT INTO push_subscriptions (phone, endpoint, p256dh, auth, user_agent)
       VALUES ($1, 'https://push.example.test/ira', 'key', 'auth', 'test')`,
      [hindi.phone],
    );
    const request = await asked(hindi.parent, {
      student_id: hindi.studentId,
      from_date: day(5),
      to_date: day(6),
      reason: 'Trip',
    });
    expect((await admin().post(`/api/v1/leave-requests/${request.id}/approve`)).statusCode).toBe(200);

    const inbox = (await hindi.parent.get('/api/v1/parent/messages')).json();
    const notice = inbox.messages.find((message: { kind: string }) => message.kind === 'leave_notice');
    expect(notice).toMatchObject({
      subject: 'छुट्टी स्वीकृत',
      message: expect.stringMatching(/^केंद्र ने Ira Rao की .+ से .+ तक की छुट्टी स्वीकृत कर दी है।$/),
      student_id: hindi.studentId,
    });
    const pushes = await api().db.query<{ id: number }>(
      'SELECT o.id FROM push_outbox o JOIN messages m ON m.id = o.message_id WHERE m.id = $1',
      [notice.id],
    );
    expect(pushes).toHaveLength(1);

    // English, one day, declined: the words say so and where to ask.
    const english = await family('Omar Khan', '8');
    const one = await asked(english.parent, { student_id: english.studentId, from_date: day(7), reason: 'Doctor' });
    expect((await admin().post(`/api/v1/leave-requests/${one.id}/decline`)).statusCode).toBe(200);
    const told = (await english.parent.get('/api/v1/parent/messages')).json().messages;
    expect(told).toEqual([
      expect.objectContaining({
        kind: 'leave_notice',
        subject: 'Leave not approved',
        message: `The centre did not approve Omar Khan's leave on ${spoken(day(7))}. If you have any questions, please call the centre.`,
      }),
    ]);
    // A notice in the server's own words: not a message staff sent, so not on the call list or in the counts.
    const calls = (await admin().get('/api/v1/communications/call-list')).json();
    expect(JSON.stringify(calls)).not.toContain('Omar Khan');
  });

  it('lets exactly one of an approve and a decline sent at once win', async () => {
    for (let round = 0; round < 4; round += 1) {
      const { studentId, parent } = await family(`Race ${round}`);
      const request = await asked(parent, { student_id: studentId, from_date: day(20), reason: 'Race' });
      const approvedBefore = (await activities('leave.approved')).length;
      const declinedBefore = (await activities('leave.declined')).length;
      const [approve, decline] = await Promise.all([
        admin().post(`/api/v1/leave-requests/${request.id}/approve`),
        admin().post(`/api/v1/leave-requests/${request.id}/decline`),
      ]);
      expect([approve.statusCode, decline.statusCode].sort()).toEqual([200, 409]);
      const winner = approve.statusCode === 200 ? 'approved' : 'declined';
      expect((await rowOf(request.id))?.status).toBe(winner);
      expect((await activities('leave.approved')).length - approvedBefore).toBe(winner === 'approved' ? 1 : 0);
      expect((await activities('leave.declined')).length - declinedBefore).toBe(winner === 'declined' ? 1 : 0);
      // The family hears once, of the decision that won.
      const notices = await api().db.query<{ subject: string }>(
        "SELECT subject FROM messages WHERE kind = 'leave_notice' AND student_id = $1",
        [studentId],
      );
      expect(notices).toEqual([{ subject: winner === 'approved' ? 'Leave approved' : 'Leave not approved' }]);
    }
  });

  it('shows nothing to a teacher with no class', async () => {
    const signedIn = await signInNewTeacher(api().app, api().db, await api().adminToken(), {
      first_name: 'No',
      last_name: 'Class',
      classes_assigned: [],
    });
    const nobody = api().as('teacher', signedIn);
    expect((await nobody.get('/api/v1/leave-requests')).json()).toEqual({ requests: [], total: 0 });
    expect((await nobody.get('/api/v1/leave-requests/count')).json()).toEqual({ pending: 0 });
  });
});

describe('the roster and the absence alert', () => {
  interface RosterLine {
    student_id: number;
    leave: null | { id: number; status: string; reason: string; from_date: string; to_date: string };
  }
  async function rosterLeave(className: string, date: string, studentId: number) {
    const response = await admin().get(`/api/v1/attendance/roster?class_name=${className}&date=${date}`);
    expect(response.statusCode).toBe(200);
    return (response.json().students as RosterLine[]).find((line) => line.student_id === studentId)?.leave;
  }

  it('carries the waiting or approved leave covering the date, and nothing for other days or declined leave', async () => {
    const { studentId, parent } = await family('Zara Ali', '10');
    const request = await asked(parent, {
      student_id: studentId,
      from_date: day(1),
      to_date: day(2),
      reason: 'Wedding',
    });
    const expected = { id: request.id, status: 'pending', reason: 'Wedding', from_date: day(1), to_date: day(2) };
    expect(await rosterLeave('10', day(1), studentId)).toEqual(expected);
    expect(await rosterLeave('10', day(2), studentId)).toEqual(expected);
    expect(await rosterLeave('10', day(0), studentId)).toBeNull();
    expect(await rosterLeave('10', day(3), studentId)).toBeNull();

    await admin().post(`/api/v1/leave-requests/${request.id}/approve`);
    expect(await rosterLeave('10', day(2), studentId)).toEqual({ ...expected, status: 'approved' });

    const other = await asked(parent, { student_id: studentId, from_date: day(5), reason: 'Declined one' });
    await admin().post(`/api/v1/leave-requests/${other.id}/decline`);
    expect(await rosterLeave('10', day(5), studentId)).toBeNull();
  });

  it('sends no absence or late alert for a day of approved leave, and still does for waiting leave', async () => {
    const onLeave = await family('Kiran Joshi', '9');
    const waiting = await family('Sana Mirza', '9');
    const late = await family('Dev Malhotra', '9');
    const plain = await family('Ira Bose', '9');
    const approvedLeave = await asked(onLeave.parent, {
      student_id: onLeave.studentId,
      from_date: day(0),
      reason: 'Surgery',
    });
    const lateLeave = await asked(late.parent, { student_id: late.studentId, from_date: day(0), reason: 'Dentist' });
    await asked(waiting.parent, { student_id: waiting.studentId, from_date: day(0), reason: 'Not yet decided' });
    expect((await admin().post(`/api/v1/leave-requests/${approvedLeave.id}/approve`)).statusCode).toBe(200);
    expect((await admin().post(`/api/v1/leave-requests/${lateLeave.id}/approve`)).statusCode).toBe(200);

    const marked = await admin().post('/api/v1/attendance/mark', {
      date: day(0),
      records: [
        { student_id: onLeave.studentId, status: 'absent' },
        { student_id: waiting.studentId, status: 'absent' },
        { student_id: late.studentId, status: 'late' },
        { student_id: plain.studentId, status: 'absent' },
      ],
    });
    expect(marked.statusCode).toBe(200);
    const pending = (await admin().get(`/api/v1/attendance/pending-approval?attendance_date=${day(0)}`)).json() as {
      id: number;
    }[];
    const approval = await admin().post('/api/v1/attendance/approve', { attendance_ids: pending.map((r) => r.id) });
    expect(approval.statusCode).toBe(200);

    const alerted = await api().db.query<{ student_id: number; kind: string }>(
      `SELECT student_id, kind FROM messages WHERE kind IN ('absence_alert', 'late_alert') AND student_id = ANY($1::int[])
        ORDER BY student_id`,
      [[onLeave.studentId, waiting.studentId, late.studentId, plain.studentId]],
    );
    expect(alerted).toEqual(
      [
        { student_id: waiting.studentId, kind: 'absence_alert' },
        { student_id: plain.studentId, kind: 'absence_alert' },
      ].sort((a, b) => a.student_id - b.student_id),
    );
    const [row] = await activities('attendance.approved').then((rows) => rows.slice(-1));
    expect(row?.description).toBe('Administrator approved 4 attendance records and sent 2 absence alerts to parents');
  });
});

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
function spoken(isoDate: string): string {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  return `${d} ${MONTHS[m - 1]} ${y}`;
}
