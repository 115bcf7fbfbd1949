import { myClassesSchema, staffPushPayloadSchema } from '@tuitiondesk/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { prepareContext } from '../src/bootstrap';
import type { AppContext } from '../src/context';
import { type Database, openPostgres } from '../src/db/database';
import { today } from '../src/lib/time';
import { ENDPOINT_PROBLEMS } from '../src/modules/delivery/endpoint-policy';
import { MarkingReminderLoop } from '../src/modules/reminders/loop';
import { remindTeachers } from '../src/modules/reminders/service';
import { expectRefusal } from './helpers/answers';
import { waitFor } from './helpers/async';
import { type Caller, callerOf } from './helpers/client';
import { type FakeDevice, FakePushService } from './helpers/fake-push-service';
import { loopbackPush } from './helpers/push';
import {
  ADMIN_PASSWORD,
  adminHasChosenPassword,
  createStudent,
  emptyServerDatabase,
  freshDatabase,
  login,
  type SignedInTeacher,
  signInNewTeacher,
  testConfig,
} from './helpers/test-app';

/**
 * Marking reminders and staff pushes, on two server instances sharing one database (on PGlite two
 * contexts on the one database; on PostgreSQL two pools, as two processes would have), with the fake
 * push service on loopback receiving what a teacher's phone would.
 */

const serverUrl = process.env.TEST_DATABASE_URL;

interface Instance {
  ctx: AppContext;
  app: FastifyInstance;
  db: Database;
}

let fake: FakePushService;
let instances: Instance[] = [];
let a: Instance;
let b: Instance;
let admin: Caller;
let adminToken: string;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  fake = await FakePushService.start();
  let databases: Database[];
  if (serverUrl) {
    const { url, drop } = await emptyServerDatabase(serverUrl);
    databases = [openPostgres(url, { max: 4, onError: () => {} }), openPostgres(url, { max: 4, onError: () => {} })];
    closers.push(async () => {
      for (const db of databases) await db.close();
      await drop();
    });
  } else {
    const fresh = await freshDatabase();
    databases = [fresh.db, fresh.db];
    closers.push(fresh.drop);
  }
  const config = testConfig({ push: loopbackPush() });
  for (const db of databases) {
    const { ctx } = await prepareContext(config, db);
    await adminHasChosenPassword(db);
    const app = await buildApp(ctx);
    await app.ready();
    instances.push({ ctx, app, db });
  }
  [a, b] = instances as [Instance, Instance];
  adminToken = await login(a.app, 'admin', ADMIN_PASSWORD);
  admin = callerOf(a.app, adminToken);
});

afterAll(async () => {
  for (const instance of instances) {
    await instance.ctx.push.stop(2000);
    await instance.app.close();
  }
  instances = [];
  await fake?.close();
  for (const close of closers) await close();
});

beforeEach(async () => {
  for (const instance of instances) await instance.ctx.push.stop(2000);
  await a.db.query('DELETE FROM attendance');
  await a.db.query('DELETE FROM students');
  await a.db.query('DELETE FROM marking_reminders');
  await a.db.query('DELETE FROM staff_push_subscriptions');
  await a.db.query('DELETE FROM teachers');
  await a.db.query("DELETE FROM users WHERE role = 'teacher'");
  await a.db.query(
    "UPDATE settings SET value = CASE key WHEN 'marking_reminders' THEN 'true' ELSE '10:00' END WHERE key IN ('marking_reminders', 'marking_reminder_time')",
  );
  fake.received.length = 0;
});

/** Today at hh:mm on the centre's clock (the process time zone). */
function at(hours: number, minutes: number): Date {
  const now = new Date();
  now.setHours(hours, minutes, 0, 0);
  return now;
}

async function teacher(classes: string[], name = 'Meena'): Promise<SignedInTeacher & { api: Caller }> {
  const signedIn = await signInNewTeacher(a.app, a.db, adminToken, { first_name: name, classes_assigned: classes });
  return { ...signedIn, api: callerOf(a.app, signedIn.token) };
}

async function students(className: string, count: number): Promise<number[]> {
  const made = await Promise.all(
    Array.from({ length: count }, () => createStudent(a.app, adminToken, { class_name: className })),
  );
  return made.map((student) => student.id);
}

async function subscribeDevice(who: Caller): Promise<FakeDevice> {
  const device = fake.createDevice();
  const response = await who.post('/api/v1/staff/push/subscriptions', {
    endpoint: device.endpoint,
    keys: device.keys,
  });
  expect(response.statusCode, response.body).toBe(201);
  return device;
}

async function reminderRows(): Promise<{ user_id: number; class_name: string; date: string }[]> {
  return a.db.query(
    "SELECT user_id, class_name, to_char(date, 'YYYY-MM-DD') AS date FROM marking_reminders ORDER BY user_id, class_name",
  );
}

async function myClasses(who: Caller) {
  const response = await who.get('/api/v1/dashboard/my-classes');
  expect(response.statusCode, response.body).toBe(200);
  return myClassesSchema.parse(response.json());
}

describe('GET/PUT /settings/reminders', () => {
  it('answers the defaults (on, 10:00) to staff; an admin changes either field; the change is in the activity feed', async () => {
    const meena = await teacher(['9']);
    expect((await meena.api.get('/api/v1/settings/reminders')).json()).toEqual({
      marking_reminders: true,
      reminder_time: '10:00',
    });
    const changed = await admin.put('/api/v1/settings/reminders', { reminder_time: '16:45' });
    expect(changed.json()).toEqual({ marking_reminders: true, reminder_time: '16:45' });
    const off = await admin.put('/api/v1/settings/reminders', { marking_reminders: false });
    expect(off.json()).toEqual({ marking_reminders: false, reminder_time: '16:45' });
    const [activity] = await a.db.query<{ description: string }>(
      'SELECT description FROM activities ORDER BY id DESC LIMIT 1',
    );
    expect(activity?.description).toMatch(/turned reminders to teachers of classes not marked off/);
    expect((await callerOf(b.app, adminToken).get('/api/v1/settings/reminders')).json()).toEqual({
      marking_reminders: false,
      reminder_time: '16:45',
    });
  });

  it('refuses a teacher (403) and bad times (422 naming the field), and writes nothing', async () => {
    const meena = await teacher(['9']);
    expect((await meena.api.put('/api/v1/settings/reminders', { reminder_time: '09:00' })).statusCode).toBe(403);
    for (const bad of ['24:00', '9:00', '10:60', '10.00', '', 'ten', '10:00:00', 1000]) {
      const response = await admin.put('/api/v1/settings/reminders', { reminder_time: bad });
      expectRefusal(response, 422, /^reminder_time: must be a time of day as HH:MM on the 24-hour clock/);
    }
    expectRefusal(
      await admin.put('/api/v1/settings/reminders', { marking_reminders: 'yes', reminder_time: '08:00' }),
      422,
      /^marking_reminders: /,
    );
    expect((await admin.get('/api/v1/settings/reminders')).json()).toEqual({
      marking_reminders: true,
      reminder_time: '10:00',
    });
  });
});

describe('who is reminded, and when', () => {
  it('nothing before the set time; at it, each teacher of each assigned class with students and no marks', async () => {
    const meena = await teacher(['9', '10'], 'Meena');
    const ravi = await teacher(['9', '7'], 'Ravi');
    await teacher(['8'], 'Empty');
    await students('9', 3);
    const class10 = await students('10', 2);
    await students('7', 1);
    // Class 10 is marked: nobody is reminded of it. Class 8 has no students: nothing to mark.
    expect(
      (
        await meena.api.post('/api/v1/attendance/mark', {
          date: today(),
          records: class10.map((id) => ({ student_id: id, status: 'present' })),
        })
      ).statusCode,
    ).toBe(200);

    expect(await remindTeachers(a.db, at(9, 59))).toEqual([]);
    expect(await reminderRows()).toEqual([]);

    const claimed = await remindTeachers(a.db, at(10, 0));
    expect(claimed).toHaveLength(3);
    expect(await reminderRows()).toEqual(
      [
        { user_id: meena.id, class_name: '9', date: today() },
        { user_id: ravi.id, class_name: '7', date: today() },
        { user_id: ravi.id, class_name: '9', date: today() },
      ].sort((x, y) => x.user_id - y.user_id || x.class_name.localeCompare(y.class_name)),
    );
    // Later rounds the same day remind nobody again.
    expect(await remindTeachers(a.db, at(10, 1))).toEqual([]);
    expect(await remindTeachers(b.db, at(18, 0))).toEqual([]);
    expect(await reminderRows()).toHaveLength(3);
  });

  it('follows the centre setting: a later time waits for it, and reminders turned off send none', async () => {
    await teacher(['9']);
    await students('9', 2);
    await admin.put('/api/v1/settings/reminders', { reminder_time: '14:30' });
    expect(await remindTeachers(a.db, at(10, 0))).toEqual([]);
    expect(await remindTeachers(a.db, at(14, 29))).toEqual([]);
    await admin.put('/api/v1/settings/reminders', { marking_reminders: false });
    expect(await remindTeachers(a.db, at(15, 0))).toEqual([]);
    expect(await reminderRows()).toEqual([]);
    await admin.put('/api/v1/settings/reminders', { marking_reminders: true });
    expect(await remindTeachers(a.db, at(14, 30))).toHaveLength(1);
  });

  it('two instances racing at the time (and again) remind each teacher of each class once', async () => {
    const teachers = await Promise.all(['9', '10', '7'].map((name, index) => teacher([name], `Racer${index}`)));
    await Promise.all(['9', '10', '7'].map((name) => students(name, 2)));
    const rounds = await Promise.all([
      remindTeachers(a.db, at(10, 0)),
      remindTeachers(b.db, at(10, 0)),
      remindTeachers(a.db, at(10, 0)),
      remindTeachers(b.db, at(10, 0)),
    ]);
    expect(rounds.flat()).toHaveLength(3);
    const rows = await reminderRows();
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((row) => row.user_id))).toEqual(new Set(teachers.map((one) => one.id)));
  });

  it('two loops started later that day catch up once, with one push per device; a day before is never reminded', async () => {
    const meena = await teacher(['9']);
    await students('9', 2);
    const phone = await subscribeDevice(meena.api);
    const laptop = await subscribeDevice(meena.api);
    // Yesterday went unmarked too, and these instances were down at its reminder time: it stays so.
    const loops = instances.map(
      (instance) =>
        new MarkingReminderLoop(
          instance.db,
          () => instance.ctx.push.wake(),
          20,
          () => at(15, 12),
        ),
    );
    for (const instance of instances) instance.ctx.push.start();
    for (const loop of loops) loop.start();
    try {
      await waitFor('both devices to get the reminder', () =>
        fake.receivedBy(phone.endpoint).length > 0 && fake.receivedBy(laptop.endpoint).length > 0 ? true : undefined,
      );
      // More rounds on both instances.
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      await Promise.all(loops.map((loop) => loop.stop(2000)));
    }
    expect(fake.receivedBy(phone.endpoint)).toHaveLength(1);
    expect(fake.receivedBy(laptop.endpoint)).toHaveLength(1);
    expect(await reminderRows()).toEqual([{ user_id: meena.id, class_name: '9', date: today() }]);
    expect(await a.db.query('SELECT 1 FROM marking_reminders WHERE date < $1::date', [today()])).toEqual([]);
    expect(await a.db.query('SELECT id FROM staff_push_outbox')).toEqual([]);
  });
});

describe('a restart', () => {
  it('back the next morning before the time, reminds nobody of yesterday, and today only once the time comes', async () => {
    const meena = await teacher(['9']);
    await students('9', 2);
    // Yesterday went unmarked and nothing ran at its reminder time: the loop starts this morning.
    let now = at(8, 0);
    const loop = new MarkingReminderLoop(
      a.db,
      () => a.ctx.push.wake(),
      20,
      () => now,
    );
    loop.start();
    try {
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(await reminderRows()).toEqual([]);
      now = at(10, 0);
      await waitFor('the reminder at the time', async () => ((await reminderRows()).length > 0 ? true : undefined));
    } finally {
      await loop.stop(2000);
    }
    expect(await reminderRows()).toEqual([{ user_id: meena.id, class_name: '9', date: today() }]);
  });
});

describe('a changed setting', () => {
  it('moved to a time already past, reminds at once on the instance that took it, not at the next round', async () => {
    const meena = await teacher(['9']);
    await students('9', 1);
    await admin.put('/api/v1/settings/reminders', { reminder_time: '16:00' });
    // Rounds an hour apart: only the wake can make this one.
    const loop = new MarkingReminderLoop(
      a.db,
      () => a.ctx.push.wake(),
      3_600_000,
      () => at(15, 0),
    );
    loop.start();
    a.ctx.reminders = loop;
    try {
      await loop.settled();
      expect(await reminderRows()).toEqual([]);
      expect((await admin.put('/api/v1/settings/reminders', { reminder_time: '14:00' })).statusCode).toBe(200);
      await waitFor('the reminder', async () => ((await reminderRows()).length > 0 ? true : undefined), 3000);
    } finally {
      a.ctx.reminders = undefined;
      await loop.stop(2000);
    }
    expect(await reminderRows()).toEqual([{ user_id: meena.id, class_name: '9', date: today() }]);
  });
});

describe('the push and the card', () => {
  it("reaches the teacher's devices with what the service worker shows and the register a tap opens", async () => {
    const meena = await teacher(['9']);
    const ravi = await teacher(['10'], 'Ravi');
    await students('9', 2);
    await students('10', 2);
    const device = await subscribeDevice(meena.api);
    const raviDevice = await subscribeDevice(ravi.api);
    a.ctx.push.start();
    await remindTeachers(a.db, at(10, 0));
    a.ctx.push.wake();
    const [push] = await waitFor('the push', () => {
      const got = fake.receivedBy(device.endpoint);
      return got.length > 0 ? got : undefined;
    });
    const payload = staffPushPayloadSchema.parse(JSON.parse(push?.plaintext ?? ''));
    expect(payload).toEqual({
      kind: 'marking_reminder',
      title: 'Attendance not marked',
      body: 'Class 9 has no attendance marked today. Tap to open the register.',
      url: `/mark-attendance?class_name=9&date=${today()}`,
      tag: `marking-reminder-9-${today()}`,
    });
    await waitFor('the other teacher', () => (fake.receivedBy(raviDevice.endpoint).length > 0 ? true : undefined));
    expect(JSON.parse(fake.receivedBy(raviDevice.endpoint)[0]?.plaintext ?? '').body).toMatch(/^Class 10 /);
    expect(fake.receivedBy(device.endpoint)).toHaveLength(1);
  });

  it('names a class the centre labelled by its label: "Morning batch has no attendance marked today" (ADR 043)', async () => {
    expect((await admin.post('/api/v1/classes', { value: 'Morning batch' })).statusCode).toBe(201);
    const meena = await teacher(['Morning batch']);
    await students('Morning batch', 1);
    const device = await subscribeDevice(meena.api);
    a.ctx.push.start();
    await remindTeachers(a.db, at(10, 0));
    a.ctx.push.wake();
    const [push] = await waitFor('the push', () => {
      const got = fake.receivedBy(device.endpoint);
      return got.length > 0 ? got : undefined;
    });
    expect(staffPushPayloadSchema.parse(JSON.parse(push?.plaintext ?? '')).body).toBe(
      'Morning batch has no attendance marked today. Tap to open the register.',
    );
  });

  it('the card is in GET /dashboard/my-classes until the class is marked; the states go not marked, marked (n of m), approved', async () => {
    const meena = await teacher(['10', '9']);
    const nine = await students('9', 3);
    await students('10', 1);
    const before = await myClasses(meena.api);
    expect(before).toEqual({
      date: today(),
      classes: [
        {
          class_name: '9',
          students: 3,
          marked: 0,
          pending: 0,
          state: 'not_marked',
          register_url: `/mark-attendance?class_name=9&date=${today()}`,
        },
        {
          class_name: '10',
          students: 1,
          marked: 0,
          pending: 0,
          state: 'not_marked',
          register_url: `/mark-attendance?class_name=10&date=${today()}`,
        },
      ],
      reminders: [],
    });

    await remindTeachers(b.db, at(10, 0));
    const reminded = await myClasses(meena.api);
    expect(reminded.reminders.map((reminder) => [reminder.class_name, reminder.text, reminder.register_url])).toEqual([
      ['9', 'Class 9 has no attendance marked today', `/mark-attendance?class_name=9&date=${today()}`],
      ['10', 'Class 10 has no attendance marked today', `/mark-attendance?class_name=10&date=${today()}`],
    ]);
    expect(Number.isNaN(Date.parse(reminded.reminders[0]?.reminded_at ?? ''))).toBe(false);

    const marked = await meena.api.post('/api/v1/attendance/mark', {
      date: today(),
      records: nine.slice(0, 2).map((id) => ({ student_id: id, status: 'present' })),
    });
    expect(marked.statusCode).toBe(200);
    const after = await myClasses(meena.api);
    expect(after.classes[0]).toMatchObject({ class_name: '9', students: 3, marked: 2, pending: 2, state: 'marked' });
    expect(after.reminders.map((reminder) => reminder.class_name)).toEqual(['10']);

    const pending = (await admin.get(`/api/v1/attendance/pending-approval?attendance_date=${today()}`)).json() as {
      id: number;
    }[];
    await admin.post('/api/v1/attendance/approve', { attendance_ids: pending.map((record) => record.id) });
    expect((await myClasses(meena.api)).classes[0]).toMatchObject({ marked: 2, pending: 0, state: 'approved' });
  });

  it('an account with no teacher record (the admin) has no classes and no cards', async () => {
    await teacher(['9']);
    await students('9', 1);
    await remindTeachers(a.db, at(10, 0));
    expect(await myClasses(admin)).toEqual({ date: today(), classes: [], reminders: [] });
  });

  it('answers 304 to a client holding the answer, and a new one once a class is marked', async () => {
    const meena = await teacher(['9']);
    const nine = await students('9', 1);
    const first = await meena.api.get('/api/v1/dashboard/my-classes');
    const etag = first.headers.etag as string;
    const again = await meena.api.get('/api/v1/dashboard/my-classes', { headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    await meena.api.post('/api/v1/attendance/mark', {
      date: today(),
      records: [{ student_id: nine[0], status: 'absent' }],
    });
    const changed = await meena.api.get('/api/v1/dashboard/my-classes', { headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().classes[0].state).toBe('marked');
  });

  it('no push for a class marked between the reminder and the send; a device the service says is gone is forgotten', async () => {
    const meena = await teacher(['9', '10']);
    const nine = await students('9', 1);
    await students('10', 1);
    const device = await subscribeDevice(meena.api);
    await remindTeachers(a.db, at(10, 0));
    await meena.api.post('/api/v1/attendance/mark', {
      date: today(),
      records: [{ student_id: nine[0], status: 'present' }],
    });
    a.ctx.push.start();
    await waitFor('the outbox to empty', async () =>
      (await a.db.query('SELECT id FROM staff_push_outbox')).length === 0 ? true : undefined,
    );
    expect(fake.receivedBy(device.endpoint).map((push) => JSON.parse(push.plaintext).body)).toEqual([
      'Class 10 has no attendance marked today. Tap to open the register.',
    ]);

    const ravi = await teacher(['7'], 'Ravi');
    await students('7', 1);
    const gone = await subscribeDevice(ravi.api);
    fake.behave(gone.endpoint, { status: 410 });
    await remindTeachers(a.db, at(10, 5));
    a.ctx.push.wake();
    await waitFor('the gone device to be forgotten', async () =>
      (await a.db.query('SELECT id FROM staff_push_subscriptions WHERE endpoint = $1', [gone.endpoint])).length === 0
        ? true
        : undefined,
    );
    expect(await a.db.query('SELECT id FROM staff_push_outbox')).toEqual([]);
  });
});

describe('staff devices', () => {
  const HOSTILE: [string, string][] = [
    ['http://fcm.googleapis.com/fcm/send/abc', ENDPOINT_PROBLEMS.notHttps],
    ['https://fcm.googleapis.com:8443/fcm/send/abc', ENDPOINT_PROBLEMS.port],
    ['https://user:secret@fcm.googleapis.com/fcm/send/abc', ENDPOINT_PROBLEMS.userinfo],
    ['https://127.0.0.1/push', ENDPOINT_PROBLEMS.ipLiteral],
    ['https://0x7f000001/push', ENDPOINT_PROBLEMS.ipLiteral],
    ['https://169.254.169.254/latest/meta-data/', ENDPOINT_PROBLEMS.ipLiteral],
    ['https://[::ffff:127.0.0.1]/push', ENDPOINT_PROBLEMS.ipLiteral],
    ['https://localhost/push', ENDPOINT_PROBLEMS.localhost],
    ['https://metadata/computeMetadata/v1/', ENDPOINT_PROBLEMS.singleLabel],
    ['https://metadata.google.internal/computeMetadata/v1/', ENDPOINT_PROBLEMS.specialUse],
    ['javascript:alert(1)', 'must be an https URL'],
  ];

  it('refuses hostile endpoints with 422 naming the endpoint, stores none, and refuses callers without a staff token', async () => {
    const meena = await teacher(['9']);
    const device = fake.createDevice();
    a.ctx.config.push.allowLoopbackEndpointsForTests = false;
    try {
      for (const [endpoint, problem] of HOSTILE) {
        const response = await meena.api.post('/api/v1/staff/push/subscriptions', { endpoint, keys: device.keys });
        expect({ endpoint, status: response.statusCode }).toEqual({ endpoint, status: 422 });
        expect(response.json().detail, endpoint).toBe(`endpoint: ${problem}`);
      }
      const real = await meena.api.post('/api/v1/staff/push/subscriptions', {
        endpoint: 'https://fcm.googleapis.com/fcm/send/staff-device',
        keys: device.keys,
      });
      expect(real.statusCode).toBe(201);
    } finally {
      a.ctx.config.push.allowLoopbackEndpointsForTests = true;
    }
    expectRefusal(
      await meena.api.post('/api/v1/staff/push/subscriptions', { endpoint: device.endpoint, keys: { p256dh: 'x' } }),
      422,
      /^keys\.(p256dh|auth): /,
    );
    const anonymous = callerOf(a.app);
    expect(
      (await anonymous.post('/api/v1/staff/push/subscriptions', { endpoint: device.endpoint, keys: device.keys }))
        .statusCode,
    ).toBe(401);
    expect(
      await a.db.query<{ endpoint: string }>('SELECT endpoint FROM staff_push_subscriptions WHERE user_id = $1', [
        meena.id,
      ]),
    ).toEqual([{ endpoint: 'https://fcm.googleapis.com/fcm/send/staff-device' }]);
    expect((await meena.api.get('/api/v1/staff/push/public-key')).json()).toEqual({
      public_key: a.ctx.push.publicKey,
    });
  });

  it("unsubscribes only the caller's own device; another account signing in on a device takes it over", async () => {
    const meena = await teacher(['9']);
    const ravi = await teacher(['10'], 'Ravi');
    const device = await subscribeDevice(meena.api);
    // Ravi cannot turn Meena's device off, and learns nothing from trying.
    const foreign = await ravi.api.delete('/api/v1/staff/push/subscriptions', {
      json: JSON.stringify({ endpoint: device.endpoint }),
    });
    expect(foreign.statusCode).toBe(200);
    expect(await a.db.query('SELECT user_id FROM staff_push_subscriptions')).toEqual([{ user_id: meena.id }]);
    // The same device, now signed in as Ravi, subscribes: it is his, and Meena's queued reminders for it go.
    await students('9', 1);
    await remindTeachers(a.db, at(10, 0));
    expect(await a.db.query('SELECT id FROM staff_push_outbox')).toHaveLength(1);
    const taken = await ravi.api.post('/api/v1/staff/push/subscriptions', {
      endpoint: device.endpoint,
      keys: device.keys,
    });
    expect(taken.statusCode).toBe(201);
    expect(await a.db.query('SELECT user_id FROM staff_push_subscriptions')).toEqual([{ user_id: ravi.id }]);
    expect(await a.db.query('SELECT id FROM staff_push_outbox')).toEqual([]);
    const off = await ravi.api.delete('/api/v1/staff/push/subscriptions', {
      json: JSON.stringify({ endpoint: device.endpoint }),
    });
    expect(off.statusCode).toBe(200);
    expect(await a.db.query('SELECT id FROM staff_push_subscriptions')).toEqual([]);
  });

  it("a password change ends the account's devices' notifications; deleting the teacher removes them", async () => {
    const meena = await teacher(['9']);
    await subscribeDevice(meena.api);
    const changed = await meena.api.post('/api/v1/auth/change-password', {
      current_password: meena.password,
      new_password: `${meena.password}-again`,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await a.db.query('SELECT id FROM staff_push_subscriptions')).toEqual([]);

    const renewed = callerOf(a.app, changed.json().access_token);
    await subscribeDevice(renewed);
    expect(await a.db.query('SELECT id FROM staff_push_subscriptions')).toHaveLength(1);
    const deleted = await admin.delete(`/api/v1/teachers/${meena.teacherId}`);
    expect(deleted.statusCode).toBe(200);
    expect(await a.db.query('SELECT id FROM staff_push_subscriptions')).toEqual([]);
  });
});
