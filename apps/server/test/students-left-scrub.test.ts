import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, today } from '../src/lib/time';
import { monthsBefore, scrubStudentsWhoLeft } from '../src/modules/students/leaving';
import { type TestClient, testClient } from './helpers/client';
import { APPROVED_TEMPLATES, type FakeCloudApi, startFakeCloudApi } from './helpers/fake-cloud-api';
import {
  activities,
  admin,
  api,
  day,
  leaversApp,
  left,
  mark,
  restore,
  type StudentAnswer,
  studentRow,
} from './helpers/students-left';
import { detailOf, uniquePhone } from './helpers/test-app';
import { WHATSAPP_TEST, whatsappConfig } from './helpers/whatsapp';
import { workbook } from './helpers/workbooks';

/**
 * Students who left: their personal data scrubbed scrub_left_after_months after leaving, and their
 * family no longer written to on WhatsApp.
 */

leaversApp();

describe('monthsBefore', () => {
  it('counts calendar months, the 31st falling back to the month end', () => {
    expect(monthsBefore('2026-11-25', 24)).toBe('2024-11-25');
    expect(monthsBefore('2026-03-31', 1)).toBe('2026-02-28');
    expect(monthsBefore('2026-01-15', 1)).toBe('2025-12-15');
  });
});

describe('the scrub of students who left long ago', () => {
  it('removes names and phones after N months, keeps attendance and the other students, ends the family access', async () => {
    await admin.put('/api/v1/settings/students', { scrub_left_after_months: 6 });
    await scrubStudentsWhoLeft(api.db); // earlier tests' students who left recently stay as they are

    const created = await api.family({ full_name: 'Old Leaver', class_name: '8', parent_name: 'Sunita Leaver' });
    const oldId = created.studentId;
    const longAgo = monthsBefore(today(), 7);
    await mark(addDays(longAgo, -1), [{ student_id: oldId, status: 'present' }]);
    await mark(addDays(longAgo, -2), [{ student_id: oldId, status: 'absent' }]);
    await api.db.query(
      `INSERT INTO push_subscriptions (phone, endpoint, p256dh, auth) VALUES ($1, 'https://push.invalid/old', 'k', 'a')`,
      [created.phone],
    );
    await api.db.query(
      `INSERT INTO messages (subject, message, recipient, recipient_name, student_id) VALUES ('Old', 'Hello', $1, 'Sunita Leaver', $2)`,
      [created.phone, oldId],
    );
    // The family signed in to the parent app once, and mistyped its code once: both are audited.
    expect(
      (await api.anonymous().post('/api/v1/parent/login', { phone: created.phone, code: created.code })).statusCode,
    ).toBe(200);
    expect(
      (await api.anonymous().post('/api/v1/parent/login', { phone: created.phone, code: 'WRONG-CODE' })).statusCode,
    ).toBe(401);
    await left(oldId, longAgo);
    // Left recently: kept. Left long ago with a sibling still attending: scrubbed, family kept.
    const recent = await api.student({ full_name: 'Recent Leaver', class_name: '8' });
    await left(recent.id, monthsBefore(today(), 5));
    const sharedPhone = uniquePhone();
    const oldSibling = await api.student({ full_name: 'Old Sibling', class_name: '9', parent_phone: sharedPhone });
    const currentSibling = await api.student({ full_name: 'Now Sibling', class_name: '9', parent_phone: sharedPhone });
    await left(oldSibling.id, monthsBefore(today(), 8));
    const countsBefore = await api.db.query(
      'SELECT status, count(*)::int AS n FROM attendance WHERE student_id = $1 GROUP BY status ORDER BY status',
      [oldId],
    );

    expect(await scrubStudentsWhoLeft(api.db)).toBe(2);
    const [{ last } = { last: 0 }] = await api.db.query<{ last: number }>('SELECT max(id)::int AS last FROM audit_log');

    const scrubbed = await studentRow(oldId);
    const uniqueId = ((await admin.get(`/api/v1/students/${oldId}`)).json() as StudentAnswer).unique_id;
    expect(scrubbed).toEqual({
      full_name: `Former student ${uniqueId}`,
      parent_name: '',
      parent_phone: '',
      left_on: longAgo,
      scrubbed: true,
    });
    expect((await admin.get(`/api/v1/students/${oldId}`)).json()).toMatchObject({
      full_name: `Former student ${uniqueId}`,
      parent_phone: '',
      scrubbed_at: expect.any(String),
    });
    expect(
      await api.db.query(
        'SELECT status, count(*)::int AS n FROM attendance WHERE student_id = $1 GROUP BY status ORDER BY status',
        [oldId],
      ),
    ).toEqual(countsBefore);
    const history = await admin.get(
      `/api/v1/attendance/history?start_date=${addDays(longAgo, -2)}&end_date=${addDays(longAgo, -1)}`,
    );
    const names = (history.json() as { student_id: number; student_name: string }[])
      .filter((r) => r.student_id === oldId)
      .map((r) => r.student_name);
    expect(names).toEqual([`Former student ${uniqueId}`, `Former student ${uniqueId}`]);

    // The family had no other child: its access, devices and phone are gone.
    expect(await api.db.query('SELECT 1 FROM parent_access WHERE phone = $1', [created.phone])).toEqual([]);
    expect(await api.db.query('SELECT 1 FROM push_subscriptions WHERE phone = $1', [created.phone])).toEqual([]);
    expect(await api.db.query('SELECT 1 FROM messages WHERE recipient = $1', [created.phone])).toEqual([]);
    // The message stays (it is counted), without its recipient or its words.
    const kept = await api.db.query<{ recipient: string; recipient_name: string }>(
      'SELECT recipient, recipient_name, subject, message FROM messages WHERE student_id = $1',
      [oldId],
    );
    expect(kept).toEqual([
      { recipient: '', recipient_name: 'Former family', subject: '[removed]', message: '[removed]' },
    ]);
    const signIn = await api.anonymous().post('/api/v1/parent/login', { phone: created.phone, code: created.code });
    expect(signIn.statusCode).toBe(401);

    // The sibling family keeps its phone through the child who attends.
    expect((await studentRow(oldSibling.id))?.parent_phone).toBe('');
    expect((await studentRow(currentSibling.id))?.parent_phone).toBe(sharedPhone);
    expect((await studentRow(recent.id))?.scrubbed).toBe(false);
    expect((await studentRow(recent.id))?.full_name).toBe('Recent Leaver');

    const rows = await activities('student.scrubbed');
    expect(rows.at(-1)).toEqual({
      actor: 'System',
      user_id: null,
      description:
        'The personal data of 2 students who left more than 6 months ago was removed (1 family no longer on record); their attendance is kept without names',
    });

    // The audit log holds the scrub as the server's own change (way system), without what it removed.
    const audit = await api.db.query<{ way: string; actor_id: number | null; before: unknown; after: unknown }>(
      `SELECT way, actor_id, before, after FROM audit_log
        WHERE entity = 'students' AND action = 'update' AND record_id = $1 ORDER BY id DESC LIMIT 1`,
      [String(oldId)],
    );
    expect(audit).toEqual([
      {
        way: 'system',
        actor_id: null,
        before: expect.objectContaining({ full_name: '[removed]', parent_phone: '[removed]', scrubbed_at: null }),
        after: expect.objectContaining({ full_name: `Former student ${uniqueId}`, parent_phone: '' }),
      },
    ]);
    // Nor does any earlier row keep the names or the phone of the family no longer on record: the
    // student's creation, the family's access code, its messages. The rows themselves stay.
    const traces = await api.db.query<{ entity: string; action: string }>(
      `SELECT entity, action FROM audit_log
        WHERE id <= $2 AND concat_ws(' ', record_id, actor_name, before::text, after::text) ~ $1`,
      [`Old Leaver|Sunita Leaver|${created.phone.replace('+', '\\+')}`, last],
    );
    expect(traces).toEqual([]);
    const erased = await api.db.query<{ entity: string; action: string }>(
      `SELECT DISTINCT entity, action FROM audit_log
        WHERE concat_ws(' ', record_id, actor_name, before::text, after::text) LIKE '%[removed]%' ORDER BY 1, 2`,
    );
    expect(erased).toEqual(
      expect.arrayContaining([
        { entity: 'parent_access', action: 'create' },
        { entity: 'parent_access', action: 'delete' },
        { entity: 'sign_in', action: 'sign_in' },
        { entity: 'sign_in', action: 'sign_in_failed' },
        { entity: 'students', action: 'create' },
        { entity: 'students', action: 'update' },
      ]),
    );
    // The sibling's family is still on record: its phone stays in the rows of the child who attends.
    const siblingRows = await api.db.query<{ after: { parent_phone?: string } }>(
      `SELECT after FROM audit_log WHERE entity = 'students' AND action = 'create' AND record_id = $1`,
      [String(currentSibling.id)],
    );
    expect(siblingRows.map((row) => row.after.parent_phone)).toEqual([sharedPhone]);

    // A scrubbed student cannot come back, be edited or give a family the app.
    const back = await restore(oldId);
    expect(back.statusCode).toBe(409);
    expect(detailOf(back)).toContain('their personal data was removed');
    const edit = await admin.put(`/api/v1/students/${oldId}`, { full_name: 'Old Leaver' });
    expect(edit.statusCode).toBe(409);
    expect((await admin.post(`/api/v1/students/${oldId}/parent-access`, {})).statusCode).toBe(409);
    expect((await studentRow(oldId))?.full_name).toBe(`Former student ${uniqueId}`);

    // Run again: nothing left to do, nothing written.
    expect(await scrubStudentsWhoLeft(api.db)).toBe(0);
    expect(await activities('student.scrubbed')).toHaveLength(rows.length);
  });

  it('two runs at once scrub each student exactly once', async () => {
    await admin.put('/api/v1/settings/students', { scrub_left_after_months: 6 });
    await scrubStudentsWhoLeft(api.db);
    const before = (await activities('student.scrubbed')).length;
    const ids: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const student = await api.student({ full_name: `Concurrent Leaver ${i}`, class_name: '10' });
      await left(student.id, monthsBefore(today(), 9 + i));
      ids.push(student.id);
    }
    const counts = await Promise.all([scrubStudentsWhoLeft(api.db), scrubStudentsWhoLeft(api.db)]);
    expect(counts[0] + counts[1]).toBe(6);
    const rows = await api.db.query<{ full_name: string; scrubbed: boolean }>(
      `SELECT full_name, scrubbed_at IS NOT NULL AS scrubbed FROM students WHERE id = ANY($1::int[]) ORDER BY id`,
      [ids],
    );
    expect(rows.every((row) => row.scrubbed && row.full_name.startsWith('Former student STU'))).toBe(true);
    const written = (await activities('student.scrubbed')).slice(before);
    const total = written.reduce((sum, row) => sum + Number(/of (\d+) students?/.exec(row.description)?.[1]), 0);
    expect(total).toBe(6);
  });

  it('a student restored before the scrub keeps their data', async () => {
    await admin.put('/api/v1/settings/students', { scrub_left_after_months: 6 });
    const student = await api.student({ full_name: 'Came Back' });
    await left(student.id, monthsBefore(today(), 12));
    await restore(student.id);
    await scrubStudentsWhoLeft(api.db);
    expect(await studentRow(student.id)).toMatchObject({ full_name: 'Came Back', scrubbed: false, left_on: null });
  });

  it('an import row matching a student who left is reported, not imported again', async () => {
    const phone = uniquePhone();
    const student = await api.student({ full_name: 'Import Leaver', class_name: '7', parent_phone: phone });
    await left(student.id, day(-1));
    const file = workbook([
      ['First Name', 'Last Name', 'Class', 'Parent Mobile'],
      ['Import', 'Leaver', '7', phone],
    ]);
    const response = await admin.upload('/api/v1/import/students/import', [
      { field: 'file', filename: 'students.xlsx', content: file },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { imported_count: number; errors: { row: number; error: string }[] };
    expect(body.imported_count).toBe(0);
    expect(body.errors).toEqual([
      {
        row: 2,
        error: expect.stringMatching(
          /^Import Leaver is on record as STU\d+, who left on .+ \(same parent phone\): restore them on the Students screen instead$/,
        ),
      },
    ]);
  });
});

describe('WhatsApp to the parent of a student who left', () => {
  let fake: FakeCloudApi;
  let withWhatsapp: TestClient;
  beforeAll(async () => {
    fake = await startFakeCloudApi({
      accessToken: WHATSAPP_TEST.accessToken,
      phoneNumberId: WHATSAPP_TEST.phoneNumberId,
      appSecret: WHATSAPP_TEST.appSecret,
      templates: APPROVED_TEMPLATES,
      autoStatuses: false,
    });
    withWhatsapp = await testClient({ config: { whatsapp: whatsappConfig(fake.baseUrl) } });
  });
  afterAll(async () => {
    await withWhatsapp?.close();
    await fake?.close();
  });

  it('is refused (409) by id or Student ID, and nothing reaches WhatsApp', async () => {
    const staff = withWhatsapp.as('admin');
    const student = await withWhatsapp.student({ full_name: 'Wa Leaver', parent_whatsapp_opt_in: true });
    expect((await staff.post(`/api/v1/students/${student.id}/leave`, {})).statusCode).toBe(200);
    fake.requests.length = 0;
    for (const target of [{ student_id: student.id }, { to: student.unique_id }]) {
      const response = await staff.post('/api/v1/communications/send-whatsapp', { ...target, message: 'Fees are due' });
      expect(response.statusCode, response.body).toBe(409);
      expect(detailOf(response)).toBe('Wa Leaver left the centre, so their parent is no longer written to');
    }
    expect(fake.requests).toEqual([]);
  });
});
