// The server runs in UTC here, whatever the machine's zone; the centre is in India (ADR 042).
process.env.TZ = 'UTC';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, centreInstant, today } from '../src/lib/time';
import { parseFeeReplyPayload } from '../src/modules/delivery';
import { FeeReminderLoop, type ReminderPayLinks, runReminderRound } from '../src/modules/fees';
import { type TestClient, testClient } from './helpers/client';
import { feeFamily, pay, postCharge } from './helpers/fees-ledger';

/**
 * Fee reminders, the sending side (ADR 061): the schedule, the round (each day of the schedule once,
 * checked against the ledger at the moment of sending, paused by a promise), two rounds at once, the
 * centre's own today, and the loop at the set hour. Families here have neither the parent app nor
 * WhatsApp: each reminder is stored for the send list (fees-reminders-delivery.test.ts has the cascade).
 */
let api: TestClient;
const links: ReminderPayLinks = {
  make: async () => {
    throw new Error('online payment is off here: no link is asked for');
  },
};

beforeAll(async () => {
  api = await testClient();
  const zone = await api.as('admin').put('/api/v1/settings/centre', { time_zone: 'Asia/Kolkata' });
  expect(zone.statusCode, zone.body).toBe(200);
});
afterAll(async () => {
  await api?.close();
});

/** Noon on `day` in the centre's zone. */
const noonOf = (day: string) => centreInstant(day, '12:00');
const roundOn = (day: string, instant = noonOf(day)) => runReminderRound(api.ctx, links, { now: instant });

async function remindersTo(phone: string) {
  return api.db.query<{ id: number; subject: string; message: string; delivery_status: string; kind: string }>(
    "SELECT id, subject, message, delivery_status, kind FROM messages WHERE recipient = $1 AND kind = 'fee_reminder' ORDER BY id",
    [phone],
  );
}

async function reminderRows(familyId: number) {
  return api.db.query<{ due_on: string; offset_days: number; balance_paise: number; message_id: number | null }>(
    `SELECT due_on::text AS due_on, offset_days, balance_paise::int AS balance_paise, message_id
       FROM fee_reminders WHERE family_id = $1 ORDER BY due_on, offset_days`,
    [familyId],
  );
}

/** A family of one child owing `paise` due on `dueOn`. */
async function owing(paise: number, dueOn: string) {
  const family = await feeFamily(api, 1, 'Kavita Rao');
  await postCharge(api.db, family.familyId, family.children[0] as number, paise, dueOn);
  return family;
}

/** Each test works on days of its own, far from the others', so their rounds never meet. */
let base = 400;
const freshDay = () => {
  base += 40;
  return addDays(today(), base);
};

describe('the schedule', () => {
  it('starts at 3 days before, on the day, 3 and 7 after, at 10; a change is kept ascending and read back', async () => {
    const admin = api.as('admin');
    const first = await admin.get('/api/v1/fees/reminders/settings');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      enabled: true,
      offsets: [-3, 0, 3, 7],
      hour: 10,
      last_run: null,
      whatsapp_template: false,
    });

    const changed = await admin.put('/api/v1/fees/reminders/settings', { offsets: [7, -1, 14], hour: 9 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ enabled: true, offsets: [-1, 7, 14], hour: 9 });
    expect((await admin.get('/api/v1/fees/reminders/settings')).json()).toMatchObject({
      offsets: [-1, 7, 14],
      hour: 9,
    });
    const [audited] = await api.db.query<{ after: { offsets: number[] } }>(
      "SELECT after FROM audit_log WHERE entity = 'fee_reminder_settings' ORDER BY id DESC LIMIT 1",
    );
    expect(audited?.after.offsets).toEqual([-1, 7, 14]);

    await admin.put('/api/v1/fees/reminders/settings', { offsets: [-3, 0, 3, 7], hour: 10 });
  });

  it.each([
    [{ offsets: [91] }, 'offsets'],
    [{ offsets: [-31] }, 'offsets'],
    [{ offsets: [3, 3] }, 'offsets'],
    [{ offsets: [] }, 'offsets'],
    [{ offsets: [1.5] }, 'offsets'],
    [{ offsets: [0, 1, 2, 3, 4, 5, 6, 7, 8] }, 'offsets'],
    [{ hour: 24 }, 'hour'],
    [{ hour: -1 }, 'hour'],
    [{ enabled: 'yes' }, 'enabled'],
  ])('refuses %j with 422 and a detail, and records nothing', async (body, field) => {
    const before = await api.db.query('SELECT count(*)::int AS n FROM audit_log');
    const refused = await api.as('admin').put('/api/v1/fees/reminders/settings', body);
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().detail).toContain(field);
    expect(await api.db.query('SELECT count(*)::int AS n FROM audit_log')).toEqual(before);
    expect((await api.as('admin').get('/api/v1/fees/reminders/settings')).json()).toMatchObject({
      offsets: [-3, 0, 3, 7],
      hour: 10,
    });
  });

  it('is for admins only: a teacher gets 403 on each route, and nothing is sent', async () => {
    const teacher = api.as('teacher');
    expect((await teacher.get('/api/v1/fees/reminders/settings')).statusCode).toBe(403);
    expect((await teacher.put('/api/v1/fees/reminders/settings', { hour: 8 })).statusCode).toBe(403);
    expect((await teacher.post('/api/v1/fees/reminders/run')).statusCode).toBe(403);
    expect((await api.as('admin').get('/api/v1/fees/reminders/settings')).json().hour).toBe(10);
  });
});

describe('a round', () => {
  it('reminds on each day of the schedule only, in a message that says what is owed, for whom and by when', async () => {
    const due = freshDay();
    const family = await owing(125_000, due);
    const sentOn: number[] = [];
    for (let offset = -5; offset <= 9; offset += 1) {
      const run = await roundOn(addDays(due, offset));
      if (run.sent > 0) sentOn.push(offset);
      expect(run.skipped_paid + run.skipped_promised).toBe(0);
    }
    expect(sentOn).toEqual([-3, 0, 3, 7]);
    const messages = await remindersTo(family.phone);
    expect(messages).toHaveLength(4);
    const [child] = await api.db.query<{ full_name: string }>('SELECT full_name FROM students WHERE id = $1', [
      family.children[0],
    ]);
    expect(messages[0]?.subject).toBe('Fee reminder');
    expect(messages[0]?.message).toMatch(
      new RegExp(`^.+: ₹1,250.00 in fees for ${child?.full_name} is due on .+\\. Pay at the centre\\.$`),
    );
    expect(messages[2]?.message).toContain('was due on');
    // No channel reaches this family: each is on the send list.
    expect(messages.map((m) => m.delivery_status)).toEqual(['failed', 'failed', 'failed', 'failed']);
    expect((await reminderRows(family.familyId)).map((r) => r.offset_days)).toEqual([-3, 0, 3, 7]);
    expect(
      (await reminderRows(family.familyId)).every((r) => r.message_id !== null && r.balance_paise === 125_000),
    ).toBe(true);
  });

  it('sends one message to a family with two charges due the same round, and a row for each', async () => {
    const due = freshDay();
    const family = await feeFamily(api, 2, 'Farah Khan');
    await postCharge(api.db, family.familyId, family.children[0] as number, 50_000, due);
    await postCharge(api.db, family.familyId, family.children[1] as number, 70_000, addDays(due, 3));
    // On due + 3: the first charge's "3 after" and the second's "on the day".
    const run = await roundOn(addDays(due, 3));
    expect(run.sent).toBe(1);
    const messages = await remindersTo(family.phone);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.message).toContain('₹1,200.00');
    expect((await reminderRows(family.familyId)).map((r) => [r.due_on, r.offset_days, r.message_id])).toEqual([
      [due, 3, messages[0]?.id],
      [addDays(due, 3), 0, messages[0]?.id],
    ]);
  });

  it('sends nothing to a family that paid before the round, and counts it', async () => {
    const due = freshDay();
    const family = await owing(40_000, due);
    await pay(api, family.familyId, 40_000);
    const run = await roundOn(due);
    expect(run).toMatchObject({ sent: 0, skipped_paid: 1, skipped_promised: 0 });
    expect(await remindersTo(family.phone)).toEqual([]);
    expect(await reminderRows(family.familyId)).toEqual([]);
  });

  it('reminds of what is still unpaid when a part was paid (the oldest charge first)', async () => {
    const due = freshDay();
    const family = await feeFamily(api, 1);
    const child = family.children[0] as number;
    await postCharge(api.db, family.familyId, child, 30_000, addDays(due, -3));
    await postCharge(api.db, family.familyId, child, 30_000, due);
    // The payment pays the older charge: the one due today stays unpaid, the older one is settled.
    await pay(api, family.familyId, 30_000);
    const run = await roundOn(due);
    expect(run.sent).toBe(1);
    expect((await reminderRows(family.familyId)).map((r) => [r.due_on, r.offset_days])).toEqual([[due, 0]]);
    expect((await remindersTo(family.phone))[0]?.message).toContain('₹300.00');
  });

  it('run twice, or two at once, sends each reminder once', async () => {
    const due = freshDay();
    const family = await owing(60_000, due);
    const runs = await Promise.all([roundOn(due), roundOn(due), roundOn(due)]);
    expect(runs.map((run) => run.sent).sort()).toEqual([0, 0, 1]);
    expect((await roundOn(due)).sent).toBe(0);
    expect(await remindersTo(family.phone)).toHaveLength(1);
    expect(await reminderRows(family.familyId)).toHaveLength(1);
  });

  it('pauses for a family that promised to pay until that date, and resumes the day after', async () => {
    const due = freshDay();
    const family = await owing(80_000, due);
    expect((await roundOn(due)).sent).toBe(1);
    const [message] = await remindersTo(family.phone);
    // The family answered the reminder: "Will pay on" due + 5 (a promise, written as the replies do).
    await api.db.query(
      `INSERT INTO fee_reminder_answers (message_id, family_id, reply, promised_on, via)
       VALUES ($1, $2, 'will_pay', $3, 'parent_app')`,
      [message?.id, family.familyId, addDays(due, 5)],
    );
    await api.as('admin').put('/api/v1/fees/reminders/settings', { offsets: [0, 3, 5, 6] });
    try {
      expect(await roundOn(addDays(due, 3))).toMatchObject({ sent: 0, skipped_promised: 1 });
      expect(await roundOn(addDays(due, 5))).toMatchObject({ sent: 0, skipped_promised: 1 });
      expect(await roundOn(addDays(due, 6))).toMatchObject({ sent: 1, skipped_promised: 0 });
    } finally {
      await api.as('admin').put('/api/v1/fees/reminders/settings', { offsets: [-3, 0, 3, 7] });
    }
    expect((await reminderRows(family.familyId)).map((r) => r.offset_days)).toEqual([0, 6]);
  });

  it("follows the centre's today, not the server's: India's date from 18:30 UTC", async () => {
    const due = freshDay();
    const family = await owing(20_000, due);
    // 23:30 in India the day before: nothing due yet (no "1 before" in the schedule).
    const lateEvening = new Date(centreInstant(due, '00:00').getTime() - 30 * 60_000);
    expect(lateEvening.toISOString().slice(11, 16)).toBe('18:00');
    expect((await roundOn(addDays(due, -1), lateEvening)).sent).toBe(0);
    // 00:30 in India on the due date, still the day before in UTC (the server's date).
    const earlyMorning = new Date(centreInstant(due, '00:00').getTime() + 30 * 60_000);
    expect(earlyMorning.toISOString().slice(0, 10)).toBe(addDays(due, -1));
    expect((await runReminderRound(api.ctx, links, { now: earlyMorning })).sent).toBe(1);
    expect((await reminderRows(family.familyId)).map((r) => [r.due_on, r.offset_days])).toEqual([[due, 0]]);
  });

  it('by hand: POST /fees/reminders/run answers the figures and the schedule keeps them', async () => {
    const family = await owing(45_000, today());
    const run = await api.as('admin').post('/api/v1/fees/reminders/run');
    expect(run.statusCode, run.body).toBe(200);
    const figures = run.json();
    expect(figures.sent).toBeGreaterThanOrEqual(1);
    expect(Number.isNaN(Date.parse(figures.at))).toBe(false);
    expect(await remindersTo(family.phone)).toHaveLength(1);
    expect((await api.as('admin').get('/api/v1/fees/reminders/settings')).json().last_run).toEqual(figures);
    // Again: nothing more.
    expect((await api.as('admin').post('/api/v1/fees/reminders/run')).json().sent).toBe(0);
    expect(await remindersTo(family.phone)).toHaveLength(1);
  });
});

describe('the automatic round', () => {
  async function lookAt(instant: Date) {
    const loop = new FeeReminderLoop(api.ctx, links, 3_600_000, () => instant);
    loop.start();
    await loop.settled();
    await loop.stop();
  }

  it('waits for the set hour, then sends by itself, once a day across instances; off, it sends nothing', async () => {
    const due = freshDay();
    const family = await owing(90_000, due);
    await api.as('admin').put('/api/v1/fees/reminders/settings', { hour: 8 });
    await lookAt(centreInstant(due, '07:59'));
    expect(await remindersTo(family.phone)).toEqual([]);

    await lookAt(centreInstant(due, '08:00'));
    expect(await remindersTo(family.phone)).toHaveLength(1);
    const schedule = (await api.as('admin').get('/api/v1/fees/reminders/settings')).json();
    expect(schedule.last_run).toEqual({
      at: centreInstant(due, '08:00').toISOString(),
      sent: 1,
      skipped_paid: 0,
      skipped_promised: 0,
    });

    // Later the same day, and two instances at once: the day is claimed.
    await Promise.all([lookAt(centreInstant(due, '09:00')), lookAt(centreInstant(due, '09:00'))]);
    expect((await api.as('admin').get('/api/v1/fees/reminders/settings')).json().last_run.at).toBe(
      centreInstant(due, '08:00').toISOString(),
    );

    // Turned off: the "3 after" does not go by itself.
    await api.as('admin').put('/api/v1/fees/reminders/settings', { enabled: false });
    await lookAt(centreInstant(addDays(due, 3), '12:00'));
    expect(await remindersTo(family.phone)).toHaveLength(1);
    await api.as('admin').put('/api/v1/fees/reminders/settings', { enabled: true, hour: 10 });
    await lookAt(centreInstant(addDays(due, 3), '12:00'));
    expect(await remindersTo(family.phone)).toHaveLength(2);
  });

  it('a round that fails hands the day back: the next look sends, and nothing twice', async () => {
    const due = freshDay();
    const first = await owing(20_000, due);
    const second = await owing(30_000, due);
    await api.as('admin').put('/api/v1/fees/reminders/settings', { enabled: true, hour: 8 });
    const before = (await api.as('admin').get('/api/v1/fees/reminders/settings')).json().last_run;
    // The second family's reminder cannot be written (the database refuses it): the round fails.
    await api.db.query(`CREATE FUNCTION refuse_reminder() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.family_id = ${second.familyId} THEN RAISE EXCEPTION 'disk full'; END IF;
        RETURN NEW;
      END $$`);
    await api.db.query(
      'CREATE TRIGGER refuse_reminder BEFORE INSERT ON fee_reminders FOR EACH ROW EXECUTE FUNCTION refuse_reminder()',
    );
    try {
      await lookAt(centreInstant(due, '08:00'));
    } finally {
      await api.db.query('DROP TRIGGER refuse_reminder ON fee_reminders');
      await api.db.query('DROP FUNCTION refuse_reminder()');
    }
    expect(await remindersTo(second.phone)).toEqual([]);
    expect((await api.as('admin').get('/api/v1/fees/reminders/settings')).json().last_run).toEqual(before);

    await lookAt(centreInstant(due, '08:01'));
    expect(await remindersTo(first.phone)).toHaveLength(1);
    expect(await remindersTo(second.phone)).toHaveLength(1);
    expect((await api.as('admin').get('/api/v1/fees/reminders/settings')).json().last_run.at).toBe(
      centreInstant(due, '08:01').toISOString(),
    );
  });

  it('runs at its hour on its own timer (a short interval)', async () => {
    const due = freshDay();
    const family = await owing(10_000, due);
    const loop = new FeeReminderLoop(api.ctx, links, 20, () => centreInstant(due, '10:05'));
    loop.start();
    try {
      const deadline = Date.now() + 5000;
      while ((await remindersTo(family.phone)).length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await loop.stop();
    }
    expect(await remindersTo(family.phone)).toHaveLength(1);
  });
});

describe("a reminder's WhatsApp reply buttons", () => {
  it('carry the message and the reply, and read back; anything else is not one', () => {
    expect(parseFeeReplyPayload('fee:42:paid')).toEqual({ messageId: 42, reply: 'paid' });
    expect(parseFeeReplyPayload('fee:7:will_pay')).toEqual({ messageId: 7, reply: 'will_pay' });
    expect(parseFeeReplyPayload('fee:7:call')).toEqual({ messageId: 7, reply: 'call' });
    for (const other of [
      'reply:42:sick',
      'fee:42:sick',
      'fee:0:paid',
      'fee:99999999999:paid',
      'fee:x:paid',
      'fee:42:paid ',
    ]) {
      expect(parseFeeReplyPayload(other)).toBeUndefined();
    }
  });
});
