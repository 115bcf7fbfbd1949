import { randomUUID } from 'node:crypto';
import { pushPayloadSchema } from '@tuitiondesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../src/db/database';
import { reconcileOnce } from '../src/modules/payment-gateway';
import { waitFor } from './helpers/async';
import type { TestClient } from './helpers/client';
import type { FakeDevice, FakePushService } from './helpers/fake-push-service';
import { day, feeFamily, paymentBody, postCharge } from './helpers/fees-ledger';
import { loopbackPush, startPushApp, stopPushApp } from './helpers/push';
import { askForLink, owingFamily, razorpayConfig, razorpayTestBed } from './helpers/razorpay';

/**
 * The receipt reaches the family as soon as a payment is recorded (ADR 057): once, in its language,
 * through the delivery cascade; a replay or a reversal sends nothing more, and a failure to send never
 * undoes the payment.
 */
let api: TestClient;
let fake: FakePushService;

beforeAll(async () => {
  ({ api, fake } = await startPushApp({ config: { push: loopbackPush({ requestTimeoutMs: 3000 }) } }));
});
afterAll(() => stopPushApp(api, fake));

/** A family of `children` whose parent app has one device with notifications on, reading `language`. */
async function familyWithDevice(children: number, language = 'en') {
  const family = await feeFamily(api, children, 'Meera Iyer');
  await api.db.query("INSERT INTO parent_access (phone, code_hash, issued_by) VALUES ($1, 'not-a-real-hash', 'Test')", [
    family.phone,
  ]);
  await api.db.query('UPDATE students SET parent_language = $2 WHERE parent_phone = $1', [family.phone, language]);
  const token = await api.ctx.tokens.signParent({ phone: family.phone, tokenVersion: 0 });
  const device = fake.createDevice();
  const subscribed = await api
    .as('parent', { token })
    .post(
      '/api/v1/parent/push/subscriptions',
      { endpoint: device.endpoint, expirationTime: null, keys: device.keys },
      { headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/131' } },
    );
  expect(subscribed.statusCode, subscribed.body).toBe(201);
  return { ...family, device };
}

const pushesTo = (device: FakeDevice) =>
  fake.receivedBy(device.endpoint).map((push) => pushPayloadSchema.parse(JSON.parse(push.plaintext)));

const receiptMessages = async (phone: string) =>
  api.db.query<{ subject: string; message: string; language: string }>(
    "SELECT subject, message, language FROM messages WHERE recipient = $1 AND kind = 'notice' ORDER BY id",
    [phone],
  );

/**
 * The process stopping right after a payment commits, as far as the database and the senders can tell:
 * every transaction begun after the one that recorded a payment fails, and waking the senders throws.
 * Answers the undo (the process running again).
 */
function stopRightAfterPaymentCommits(db: Database, push?: { wake(): void }): () => void {
  const transaction = db.transaction;
  const wake = push?.wake;
  let stopped = false;
  db.transaction = (async (work: (tx: Queryable) => Promise<unknown>) => {
    if (stopped) throw new Error('the process stopped');
    let recordsPayment = false;
    const result = await transaction.call(db, (tx) => {
      const watched = Object.create(tx) as Queryable;
      watched.query = (sql, params) => {
        if (/INSERT INTO fee_payments\b/.test(sql)) recordsPayment = true;
        return tx.query(sql, params);
      };
      return work(watched);
    });
    if (recordsPayment) stopped = true;
    return result;
  }) as Database['transaction'];
  if (push) {
    push.wake = () => {
      throw new Error('the process stopped');
    };
  }
  return () => {
    db.transaction = transaction;
    if (push && wake) push.wake = wake;
  };
}

/** Lets the push worker run its rounds, so a second push would have arrived by now. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 400));

describe('the receipt sent to the family', () => {
  it('reaches the family’s device once, with the amount, the children paid for and the receipt number; a replay sends nothing more', async () => {
    const family = await familyWithDevice(2);
    const [first] = family.children as [number];
    await postCharge(api.db, family.familyId, first, 125_000, day(-5));
    const body = paymentBody(family.familyId, 125_000);
    const paid = await api.as('admin').post('/api/v1/fees/payments', body);
    expect(paid.statusCode, paid.body).toBe(201);
    const receipt = paid.json() as { payment_id: number; receipt_number: string };

    const [push] = await waitFor('the receipt push', () => pushesTo(family.device)[0] && pushesTo(family.device));
    const child = (
      await api.db.query<{ full_name: string }>('SELECT full_name FROM students WHERE id = $1', [first])
    )[0]?.full_name;
    expect(push?.title).toBe('Payment received');
    expect(push?.body).toBe(`Payment received: ₹1,250.00 for ${child}, receipt ${receipt.receipt_number}.`);

    const replay = await api.as('admin').post('/api/v1/fees/payments', body);
    expect(replay.statusCode, replay.body).toBe(200);
    await settle();
    expect(pushesTo(family.device)).toHaveLength(1);
    expect(await receiptMessages(family.phone)).toHaveLength(1);
    const keyed = await api.db.query<{ message_id: number | null }>(
      'SELECT message_id FROM fee_receipt_deliveries WHERE payment_id = $1',
      [receipt.payment_id],
    );
    expect(keyed).toHaveLength(1);
    expect(keyed[0]?.message_id).not.toBeNull();
    // A message to one family, as Message History lists it: the family's, not a send to a group.
    const [stored] = await api.db.query<{ send_id: number | null }>('SELECT send_id FROM messages WHERE id = $1', [
      keyed[0]?.message_id,
    ]);
    expect(stored?.send_id).toBeNull();
    const history = await api.as('admin').get('/api/v1/communications/history/grouped');
    expect(history.statusCode, history.body).toBe(200);
    const listed = (history.json() as { subject: string; family: { recipient: string } | null }[]).find(
      (group) => group.family?.recipient === family.phone,
    );
    expect(listed?.subject).toBe('Payment received');
  });

  it('is written in the family’s language, the amount as that language writes it', async () => {
    const family = await familyWithDevice(1, 'hi');
    const paid = await api.as('admin').post('/api/v1/fees/payments', paymentBody(family.familyId, 50_000));
    expect(paid.statusCode, paid.body).toBe(201);
    const { receipt_number } = paid.json() as { receipt_number: string };
    const [push] = await waitFor('the receipt push', () => pushesTo(family.device)[0] && pushesTo(family.device));
    expect(push?.title).toBe('भुगतान प्राप्त हुआ');
    expect(push?.body).toContain('₹500.00');
    expect(push?.body).toContain(receipt_number);
    expect(push?.body).toMatch(/^भुगतान प्राप्त हुआ: .+ के लिए ₹500.00, रसीद /);
    expect((await receiptMessages(family.phone))[0]?.language).toBe('hi');
  });

  it('sends nothing new when the payment is reversed', async () => {
    const family = await familyWithDevice(1);
    const paid = await api.as('admin').post('/api/v1/fees/payments', paymentBody(family.familyId, 30_000));
    expect(paid.statusCode, paid.body).toBe(201);
    const { payment_id } = paid.json() as { payment_id: number };
    await waitFor('the receipt push', () => pushesTo(family.device)[0]);
    const reversed = await api
      .as('admin')
      .post(`/api/v1/fees/payments/${payment_id}/reverse`, { reason: 'Cheque bounced' });
    expect(reversed.statusCode, reversed.body).toBe(200);
    await settle();
    expect(pushesTo(family.device)).toHaveLength(1);
    expect(await receiptMessages(family.phone)).toHaveLength(1);
  });

  it('goes on the send list for a family the parent app does not reach', async () => {
    const family = await feeFamily(api, 1);
    const paid = await api.as('admin').post('/api/v1/fees/payments', paymentBody(family.familyId, 20_000));
    expect(paid.statusCode, paid.body).toBe(201);
    const [message] = await api.db.query<{ delivery_status: string; message: string }>(
      "SELECT delivery_status, message FROM messages WHERE recipient = $1 AND kind = 'notice'",
      [family.phone],
    );
    expect(message?.delivery_status).toBe('failed');
    expect(message?.message).toContain('₹200.00');
  });

  it('never fails or undoes the payment when the message cannot be queued', async () => {
    const family = await familyWithDevice(1);
    // The message cannot be stored: the delivery's transaction fails after the payment's has committed.
    await api.db.query(
      `CREATE OR REPLACE FUNCTION refuse_test_message() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'no messages today'; END $$`,
    );
    await api.db.query(
      'CREATE TRIGGER refuse_test_message BEFORE INSERT ON fee_receipt_deliveries FOR EACH ROW EXECUTE FUNCTION refuse_test_message()',
    );
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const body = paymentBody(family.familyId, 40_000);
      const paid = await api.as('admin').post('/api/v1/fees/payments', body);
      expect(paid.statusCode, paid.body).toBe(201);
      const { payment_id } = paid.json() as { payment_id: number };
      const kept = await api.db.query('SELECT 1 FROM fee_payments WHERE transaction_id = $1', [payment_id]);
      expect(kept).toHaveLength(1);
      const receipt = await api.as('admin').get(`/api/v1/fees/receipts/${payment_id}`);
      expect(receipt.statusCode).toBe(200);
      await waitFor('the warning', () => warnings.find((text) => text.includes(`payment ${payment_id}`)));
    } finally {
      process.off('warning', onWarning);
      await api.db.query('DROP TRIGGER refuse_test_message ON fee_receipt_deliveries');
    }
    await settle();
    expect(pushesTo(family.device)).toHaveLength(0);
    expect(await receiptMessages(family.phone)).toHaveLength(0);
  });

  it('is queued with the payment: a process that stops right after the commit still has the message, pushed once it runs again', async () => {
    const family = await familyWithDevice(1);
    const restart = stopRightAfterPaymentCommits(api.db, api.ctx.push);
    let paid: Awaited<ReturnType<ReturnType<TestClient['as']>['post']>>;
    try {
      paid = await api.as('admin').post('/api/v1/fees/payments', paymentBody(family.familyId, 60_000));
    } finally {
      restart();
    }
    expect(paid.statusCode, paid.body).toBe(201);
    const { payment_id, receipt_number } = paid.json() as { payment_id: number; receipt_number: string };
    const [delivery] = await api.db.query<{ message_id: number | null }>(
      'SELECT message_id FROM fee_receipt_deliveries WHERE payment_id = $1',
      [payment_id],
    );
    expect(delivery?.message_id).toEqual(expect.any(Number));
    const [message] = await receiptMessages(family.phone);
    expect(message?.message).toContain(`receipt ${receipt_number}.`);
    // Running again: the push worker's own poll finds the message nobody woke it for.
    const [push] = await waitFor('the receipt push', () => pushesTo(family.device)[0] && pushesTo(family.device));
    expect(push?.body).toContain(receipt_number);
  });

  it('a payment recorded twice at once (the same client_id) sends one receipt', async () => {
    const family = await familyWithDevice(1);
    const body = { ...paymentBody(family.familyId, 10_000), client_id: randomUUID() };
    const answers = await Promise.all([1, 2, 3].map(() => api.as('admin').post('/api/v1/fees/payments', body)));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 201]);
    await waitFor('the receipt push', () => pushesTo(family.device)[0]);
    await settle();
    expect(pushesTo(family.device)).toHaveLength(1);
  });
});

describe('the receipt of a payment Razorpay brings', () => {
  const bed = razorpayTestBed();

  it('is queued once for the family, however often its events come and when the reconciler finds it too', async () => {
    const { api: online, fake: razorpay } = bed();
    const family = await owingFamily(online, 120_000);
    const asked = await askForLink(online, family.familyId);
    expect(asked.statusCode, asked.body).toBeLessThan(300);
    const payment = razorpay.pay(asked.json().link_id as string);
    for (let round = 0; round < 2; round += 1) {
      for (const event of razorpay.eventsFor(payment)) expect(await razorpay.send(event)).toBe(200);
    }
    await reconcileOnce(online.db, razorpayConfig(razorpay));
    const [paid] = await online.db.query<{ receipt_number: string }>(
      'SELECT receipt_number FROM fee_payments WHERE family_id = $1',
      [family.familyId],
    );
    const messages = await online.db.query<{ message: string; sent_by: string }>(
      "SELECT message, sent_by FROM messages WHERE recipient = $1 AND kind = 'notice'",
      [family.phone],
    );
    expect(messages).toEqual([
      {
        message: `Payment received: ₹1,200.00 for Meera Iyer, receipt ${paid?.receipt_number}.`,
        sent_by: 'Razorpay',
      },
    ]);
  });

  it('is queued with the payment: a process that stops right after the commit still has the message', async () => {
    const { api: online, fake: razorpay } = bed();
    const family = await owingFamily(online, 80_000);
    const asked = await askForLink(online, family.familyId);
    expect(asked.statusCode, asked.body).toBeLessThan(300);
    const payment = razorpay.pay(asked.json().link_id as string);
    const restart = stopRightAfterPaymentCommits(online.db);
    try {
      // What the webhook answers once the process has stopped does not matter: the payment is committed.
      for (const event of razorpay.eventsFor(payment)) await razorpay.send(event);
    } finally {
      restart();
    }
    const [paid] = await online.db.query<{ transaction_id: number; receipt_number: string }>(
      'SELECT transaction_id, receipt_number FROM fee_payments WHERE family_id = $1',
      [family.familyId],
    );
    expect(paid?.receipt_number).toMatch(/^R\//);
    const messages = await online.db.query<{ message: string }>(
      "SELECT message FROM messages WHERE recipient = $1 AND kind = 'notice'",
      [family.phone],
    );
    expect(messages.map((row) => row.message)).toEqual([
      `Payment received: ₹800.00 for Meera Iyer, receipt ${paid?.receipt_number}.`,
    ]);
  });
});
