import { normaliseAccessCode, pushPayloadSchema } from '@tuitiondesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyAccessCode } from '../src/modules/families/access-codes';
import {
  ACCESS_NOTICE_SUBJECT,
  CODE_REPLACED_NOTICE,
  PHONE_CHANGE_NEEDS_ADMIN,
  phoneChangedNotice,
  REPLACE_NEEDS_ADMIN,
} from '../src/modules/families/family-access';
import { waitFor } from './helpers/async';
import type { TestClient } from './helpers/client';
import type { FakeDevice, FakePushService } from './helpers/fake-push-service';
import { loopbackPush, startPushApp, stopPushApp } from './helpers/push';
import { detailOf, uniquePhone } from './helpers/test-app';

/**
 * One staff account cannot take a family's app over (ADR 018). A teacher issues only a family's first
 * code; replacing a code and changing a coded family's phone are an admin's; each replacement or phone
 * change tells the family's devices, once, through the push outbox.
 */

let api: TestClient;
let fake: FakePushService;

beforeAll(async () => {
  ({ api, fake } = await startPushApp({ config: { push: loopbackPush() } }));
});

afterAll(() => stopPushApp(api, fake));

function issue(studentId: number, who: 'admin' | 'teacher') {
  return api.as(who).post(`/api/v1/students/${studentId}/parent-access`);
}

function editStudent(studentId: number, who: 'admin' | 'teacher', body: Record<string, unknown>) {
  return api.as(who).put(`/api/v1/students/${studentId}`, body);
}

/** Signs the family in through the parent app (each sign-in from an address of its own) and answers the token. */
function signIn(phone: string, code: string): Promise<string> {
  return api.as('parent', { phone, code }).token();
}

/** A device signed in with the family's code that turned notifications on, as the parent app does. */
async function subscribedDevice(token: string): Promise<FakeDevice> {
  const device = fake.createDevice();
  const response = await api
    .withToken(token)
    .post('/api/v1/parent/push/subscriptions', { endpoint: device.endpoint, keys: device.keys });
  expect(response.statusCode, response.body).toBe(201);
  return device;
}

/** A family whose first code an admin issued, signed in on `devices` devices with notifications on. */
async function codedFamily(devices = 2, childName = 'Kavya Menon') {
  const phone = uniquePhone();
  const student = await api.student({
    full_name: childName,
    parent_phone: phone,
    parent_name: 'Asha Menon',
  });
  const issued = await issue(student.id, 'admin');
  expect(issued.statusCode).toBe(201);
  const token = await signIn(phone, issued.json().code);
  const phones: FakeDevice[] = [];
  for (let index = 0; index < devices; index += 1) phones.push(await subscribedDevice(token));
  return { phone, student, token, devices: phones, code: issued.json().code as string };
}

async function accessRow(phone: string) {
  const rows = await api.db.query<{ code_hash: string; token_version: number; issued_by: string }>(
    'SELECT code_hash, token_version, issued_by FROM parent_access WHERE phone = $1',
    [phone],
  );
  return rows;
}

async function notices(phone: string) {
  return api.db.query<{ id: number; subject: string; message: string; sent_by: string; delivery_status: string }>(
    `SELECT id, subject, message, sent_by, delivery_status FROM messages
      WHERE recipient = $1 AND kind = 'access_notice' ORDER BY id`,
    [phone],
  );
}

async function activityCount(): Promise<number> {
  const [row] = await api.db.query<{ count: number }>('SELECT count(*)::int AS count FROM activities');
  return row?.count ?? 0;
}

/** Every push a device got, decrypted. */
function pushesTo(device: FakeDevice) {
  return fake.receivedBy(device.endpoint).map((push) => pushPayloadSchema.parse(JSON.parse(push.plaintext)));
}

async function quietOutbox(phone: string) {
  await waitFor('the outbox drained and the revoked devices forgotten', async () => {
    const [row] = await api.db.query<{ pending: number; revoked: number }>(
      `SELECT (SELECT count(*)::int FROM push_outbox o JOIN push_subscriptions s ON s.id = o.subscription_id
                WHERE s.phone = $1) AS pending,
              (SELECT count(*)::int FROM push_subscriptions WHERE phone = $1 AND revoked_at IS NOT NULL) AS revoked`,
      [phone],
    );
    return row?.pending === 0 && row.revoked === 0 ? true : undefined;
  });
}

describe('who may issue and replace a code', () => {
  it('a teacher issues the first code; replacing it is 403 for a teacher and changes nothing; an admin replaces it', async () => {
    const phone = uniquePhone();
    const student = await api.student({ parent_phone: phone, parent_name: 'Ravi Das' });
    const first = await issue(student.id, 'teacher');
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ has_code: true, issued_by: 'Tess Teacher', can_replace_code: false });
    const [before] = await accessRow(phone);
    const activitiesBefore = await activityCount();

    const replace = await issue(student.id, 'teacher');
    expect(replace.statusCode).toBe(403);
    expect(detailOf(replace)).toBe(REPLACE_NEEDS_ADMIN);
    expect(await accessRow(phone)).toEqual([before]);
    expect(await activityCount()).toBe(activitiesBefore);
    expect(await notices(phone)).toEqual([]);
    // The first code still works: nothing was replaced.
    await signIn(phone, first.json().code);

    const replaced = await issue(student.id, 'admin');
    expect(replaced.statusCode).toBe(201);
    expect(replaced.json()).toMatchObject({ issued_by: 'Administrator', can_replace_code: true });
    const [after] = await accessRow(phone);
    expect(after).toMatchObject({ token_version: 1, issued_by: 'Administrator' });
    const [activity] = await api.db.query<{ action: string; actor: string; description: string }>(
      'SELECT action, actor, description FROM activities ORDER BY id DESC LIMIT 1',
    );
    expect(activity).toMatchObject({ action: 'parents.access_reissued', actor: 'Administrator' });
    expect(activity?.description).toMatch(/^Administrator issued a new parent access code for Ravi Das/);
  });

  it('tells the status which caller may replace the code', async () => {
    const { student } = await codedFamily(0);
    const asTeacher = await api.as('teacher').get(`/api/v1/students/${student.id}/parent-access`);
    expect(asTeacher.json()).toMatchObject({ has_code: true, can_replace_code: false });
    const asAdmin = await api.as('admin').get(`/api/v1/students/${student.id}/parent-access`);
    expect(asAdmin.json()).toMatchObject({ has_code: true, can_replace_code: true });
  });
});

describe('a replaced code tells the family', () => {
  it('each signed-out device gets exactly one notice, then no ordinary message; old tokens answer 401', async () => {
    const family = await codedFamily(2);
    const other = await codedFamily(1, 'Ishaan Rao');

    const replaced = await issue(family.student.id, 'admin');
    expect(replaced.statusCode).toBe(201);
    expect(replaced.json().devices_with_notifications).toBe(0);
    for (const url of ['/api/v1/parent/me', '/api/v1/parent/messages']) {
      const response = await api.withToken(family.token).get(url);
      expect(response.statusCode).toBe(401);
    }
    const resubscribe = await api.withToken(family.token).post('/api/v1/parent/push/subscriptions', {
      endpoint: family.devices[0]?.endpoint,
      keys: family.devices[0]?.keys,
    });
    expect(resubscribe.statusCode).toBe(401);

    const [notice] = await notices(family.phone);
    expect(notice).toMatchObject({
      subject: ACCESS_NOTICE_SUBJECT,
      message: CODE_REPLACED_NOTICE,
      sent_by: 'Administrator',
    });
    for (const device of family.devices) {
      await waitFor('the notice', () => pushesTo(device)[0]);
    }
    await quietOutbox(family.phone);

    // Then an ordinary message: the other family gets it, the signed-out devices do not.
    const sent = await api.as('admin').post('/api/v1/messages/send-to-parents', {
      subject: 'Exam timetable',
      message: 'Exams start on Monday.',
      recipients: 'all_parents',
    });
    expect(sent.statusCode).toBe(200);
    await waitFor('the other family', () => pushesTo(other.devices[0] as FakeDevice)[0]);
    await quietOutbox(family.phone);
    for (const device of family.devices) {
      expect(pushesTo(device).map((push) => [push.message_id, push.title, push.body])).toEqual([
        [notice?.id, ACCESS_NOTICE_SUBJECT, CODE_REPLACED_NOTICE],
      ]);
    }
    expect(await api.db.query('SELECT 1 FROM push_subscriptions WHERE phone = $1', [family.phone])).toEqual([]);

    // The staff history shows the notice, sent by the admin; the device's receipt marks it delivered.
    const receipt = pushesTo(family.devices[0] as FakeDevice)[0]?.receipt as string;
    const confirmed = await api.anonymous().post('/api/v1/parent/receipts', { receipt });
    expect(confirmed.statusCode).toBe(200);
    const history = await api.as('teacher').get('/api/v1/communications/history?limit=100');
    expect(history.json().find((entry: { id: number }) => entry.id === notice?.id)).toMatchObject({
      message_type: 'IN_APP',
      kind: 'access_notice',
      recipient: family.phone,
      recipient_name: 'Asha Menon',
      sent_by: 'Administrator',
      subject: ACCESS_NOTICE_SUBJECT,
      delivery_status: 'delivered',
    });

    // With the new code the family signs in again and reads the notice in the inbox.
    const fresh = await signIn(family.phone, replaced.json().code);
    const inbox = await api.withToken(fresh).get('/api/v1/parent/messages');
    expect(inbox.json().messages.map((message: { subject: string }) => message.subject)).toContain(
      ACCESS_NOTICE_SUBJECT,
    );
  });

  it('is durable: queued while the worker is down, sent when it is back; earlier queued messages are dropped', async () => {
    const family = await codedFamily(1);
    const [device] = family.devices as [FakeDevice];
    await api.ctx.push.stop();
    try {
      const sent = await api.as('admin').post('/api/v1/messages/send-to-parents', {
        subject: 'Queued before',
        message: 'For the old devices.',
        recipients: 'all_parents',
      });
      expect(sent.statusCode).toBe(200);
      expect((await issue(family.student.id, 'admin')).statusCode).toBe(201);
      const queued = await api.db.query<{ kind: string; revoked: boolean }>(
        `SELECT m.kind, s.revoked_at IS NOT NULL AS revoked FROM push_outbox o
           JOIN messages m ON m.id = o.message_id JOIN push_subscriptions s ON s.id = o.subscription_id
          WHERE s.phone = $1`,
        [family.phone],
      );
      expect(queued).toEqual([{ kind: 'access_notice', revoked: true }]);
    } finally {
      api.ctx.push.start();
    }
    await waitFor('the notice', () => pushesTo(device)[0]);
    await quietOutbox(family.phone);
    expect(pushesTo(device).map((push) => push.title)).toEqual([ACCESS_NOTICE_SUBJECT]);
  });
});

describe("changing a coded family's phone", () => {
  it('is 403 for a teacher, naming why, and changes nothing; a teacher still edits the other fields', async () => {
    const family = await codedFamily(1, 'Meher Shah');
    const activitiesBefore = await activityCount();
    // The class stays the teacher's (7): a class change of their own is another rule (ADR 019).
    const body = {
      full_name: 'Meher A. Shah',
      class_name: '7',
      parent_name: 'Asha Menon',
      parent_phone: uniquePhone(),
    };
    const refused = await editStudent(family.student.id, 'teacher', body);
    expect(refused.statusCode).toBe(403);
    expect(detailOf(refused)).toBe(PHONE_CHANGE_NEEDS_ADMIN);
    const [row] = await api.db.query<{ full_name: string; class_name: string; parent_phone: string }>(
      'SELECT full_name, class_name, parent_phone FROM students WHERE id = $1',
      [family.student.id],
    );
    expect(row).toEqual({ full_name: 'Meher Shah', class_name: '7', parent_phone: family.phone });
    expect(await activityCount()).toBe(activitiesBefore);
    expect(await notices(family.phone)).toEqual([]);

    // The console sends the whole record: the same phone (in any format) is no change.
    const spaced = `00 ${family.phone.slice(1, 3)} ${family.phone.slice(3)}`;
    for (const parent_phone of [family.phone, spaced]) {
      const edited = await editStudent(family.student.id, 'teacher', { ...body, parent_phone });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json()).toMatchObject({ full_name: 'Meher A. Shah', class_name: '7', parent_phone: family.phone });
    }
    expect(await notices(family.phone)).toEqual([]);
    expect(pushesTo(family.devices[0] as FakeDevice)).toEqual([]);
  });

  it('a teacher may change the phone of a family without a code', async () => {
    const student = await api.student({ parent_phone: uniquePhone() });
    const moved = uniquePhone();
    const edited = await editStudent(student.id, 'teacher', { parent_phone: moved });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().parent_phone).toBe(moved);
  });

  it("an admin may; the family's devices get one notice and the activity row says who", async () => {
    const family = await codedFamily(2, 'Neel Varma');
    const sibling = await api.student({ full_name: 'Tara Varma', parent_phone: family.phone });
    const newPhone = uniquePhone();
    const edited = await editStudent(family.student.id, 'admin', { parent_phone: newPhone });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().parent_phone).toBe(newPhone);

    const [notice] = await notices(family.phone);
    expect(notice).toMatchObject({ message: phoneChangedNotice('Neel Varma'), sent_by: 'Administrator' });
    for (const device of family.devices) await waitFor('the notice', () => pushesTo(device)[0]);
    await quietOutbox(family.phone);
    for (const device of family.devices) {
      expect(pushesTo(device).map((push) => [push.message_id, push.body])).toEqual([
        [notice?.id, phoneChangedNotice('Neel Varma')],
      ]);
    }
    const [activity] = await api.db.query<{ action: string; actor: string; description: string }>(
      "SELECT action, actor, description FROM activities WHERE action = 'student.updated' ORDER BY id DESC LIMIT 1",
    );
    expect(activity?.actor).toBe('Administrator');
    expect(activity?.description).toContain(`from ${family.phone} to ${newPhone}`);

    // The family keeps its app (a sibling is still on the phone), without the child who moved.
    const me = await api.withToken(family.token).get('/api/v1/parent/me');
    expect(me.statusCode).toBe(200);
    expect(me.json().children.map((child: { id: number }) => child.id)).toEqual([sibling.id]);
    // The new phone has no code: a teacher may issue it one (the family at the door), not the old family's.
    expect((await issue(family.student.id, 'teacher')).statusCode).toBe(201);
  });
});

describe('bursts', () => {
  it('twenty teachers issuing a first code at once leave one code: one 201, the rest 403', async () => {
    const phone = uniquePhone();
    const student = await api.student({ parent_phone: phone });
    const answers = await Promise.all(Array.from({ length: 20 }, () => issue(student.id, 'teacher')));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([201, ...Array(19).fill(403)]);
    const rows = await accessRow(phone);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_version).toBe(0);
    const code = answers.find((answer) => answer.statusCode === 201)?.json().code as string;
    expect(await verifyAccessCode(normaliseAccessCode(code), rows[0]?.code_hash)).toBe(true);
    const [issued] = await api.db.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM activities WHERE action = 'parents.access_issued' AND description LIKE $1",
      [`%(${phone})%`],
    );
    expect(issued?.count).toBe(1);
  });

  it("ten teachers' and ten admins' replacements at once: teachers 403, one consistent row, one notice per device", async () => {
    const family = await codedFamily(2);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => issue(family.student.id, index % 2 === 0 ? 'teacher' : 'admin')),
    );
    const byRole = answers.map((answer, index) => [index % 2 === 0 ? 'teacher' : 'admin', answer.statusCode]);
    expect(byRole.filter(([role]) => role === 'teacher').every(([, status]) => status === 403)).toBe(true);
    expect(byRole.filter(([role]) => role === 'admin').every(([, status]) => status === 201)).toBe(true);

    const rows = await accessRow(family.phone);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_version).toBe(10);
    // Exactly one of the ten codes handed out works: the one whose replacement committed last.
    const codes = answers.filter((answer) => answer.statusCode === 201).map((answer) => answer.json().code as string);
    const working = [];
    for (const code of codes) {
      if (await verifyAccessCode(normaliseAccessCode(code), rows[0]?.code_hash)) working.push(code);
    }
    expect(working).toHaveLength(1);
    const [reissued] = await api.db.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM activities WHERE action = 'parents.access_reissued' AND description LIKE $1",
      [`%(${family.phone})%`],
    );
    expect(reissued?.count).toBe(10);
    // Ten notices in the history (ten replacements), but each device is told once: only the first
    // replacement found it still signed in.
    expect(await notices(family.phone)).toHaveLength(10);
    for (const device of family.devices) await waitFor('the notice', () => pushesTo(device)[0]);
    await quietOutbox(family.phone);
    for (const device of family.devices) expect(pushesTo(device)).toHaveLength(1);
  });
});
