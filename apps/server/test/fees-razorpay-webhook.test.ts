import { describe, expect, it } from 'vitest';
import { eraseFamilyTexts } from '../src/lib/erasure';
import { expectRefusal } from './helpers/answers';
import type { FakeEvent } from './helpers/fake-razorpay';
import { askForLink, balanceOf, countRows, owingFamily, razorpayTestBed, WEBHOOK_URL } from './helpers/razorpay';

/**
 * Razorpay's webhook (ADR 053): the signature over the raw bytes decides whether anything is kept; a
 * payment is recorded once by its payment id however many times and in whatever order its events
 * come; a link's status only moves forward. Against a fake Razorpay on loopback.
 */
const bed = razorpayTestBed();

async function linkFor(paise: number) {
  const { api } = bed();
  const family = await owingFamily(api, paise);
  const answer = await askForLink(api, family.familyId);
  expect(answer.statusCode, answer.body).toBe(200);
  return { ...family, linkId: answer.json().link_id as string };
}

const events = () => countRows(bed().api, 'payment_gateway_events');

/** A well-formed shuffle (Fisher-Yates) from a seeded generator, so a failure can be replayed. */
function shuffled<T>(items: T[], seed: number): T[] {
  const copy = [...items];
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(next() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

describe('the webhook signature', () => {
  it('refuses an event with no signature, a wrong one or one over other bytes, and keeps nothing of it', async () => {
    const { api, fake } = bed();
    const { linkId, familyId } = await linkFor(120_000);
    const payment = fake.pay(linkId);
    const [captured] = fake.eventsFor(payment) as [FakeEvent];
    const before = await events();
    const reserialised = JSON.stringify(JSON.parse(captured.body), null, 2);
    const answers = [
      await fake.send(captured, { signature: null }),
      await fake.send(captured, { signature: fake.sign(`${captured.body} `) }),
      await fake.send(captured, { signature: 'not-hex' }),
      await fake.send(captured, { signature: fake.sign(captured.body).slice(0, 62) }),
      // The same JSON written again (spaces, as a framework that parses and re-serialises would): the bytes differ.
      await fake.send({ ...captured, body: reserialised }, { signature: fake.sign(captured.body) }),
    ];
    expect(answers).toEqual([400, 400, 400, 400, 400]);
    const refused = await api.anonymous().post(WEBHOOK_URL, undefined, {
      raw: captured.body,
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': 'a'.repeat(64) },
    });
    expectRefusal(refused, 400, 'The webhook signature (X-Razorpay-Signature) is missing or does not match');
    expect(await events()).toBe(before);
    expect(await balanceOf(api, familyId)).toBe(120_000);
    expect(await countRows(api, 'gateway_payments WHERE payment_id = $1', [payment.payment_id])).toBe(0);
  });

  it('takes the right signature over the exact bytes, keeps the event whole and records the payment', async () => {
    const { api, fake } = bed();
    const { linkId, familyId, phone } = await linkFor(150_000);
    const payment = fake.pay(linkId, { method: 'upi' });
    const [captured] = fake.eventsFor(payment) as [FakeEvent];
    const answer = await api.anonymous().post(WEBHOOK_URL, undefined, {
      raw: captured.body,
      headers: {
        'content-type': 'application/json',
        'x-razorpay-signature': fake.sign(captured.body),
        'x-razorpay-event-id': captured.id,
      },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ received: true, duplicate: false });
    const [kept] = await api.db.query<{ raw_body: string; event: string; applied_at: Date | null; outcome: string }>(
      'SELECT raw_body, event, applied_at, outcome FROM payment_gateway_events WHERE event_id = $1',
      [captured.id],
    );
    expect(kept).toMatchObject({ raw_body: captured.body, event: 'payment.captured', outcome: 'payment recorded' });
    expect(kept?.applied_at).not.toBeNull();
    expect(await balanceOf(api, familyId)).toBe(0);
    const [row] = await api.db.query<{ amount_paise: string; found_by: string; method: string }>(
      'SELECT amount_paise, found_by, method FROM gateway_payments WHERE payment_id = $1',
      [payment.payment_id],
    );
    expect(row).toEqual({ amount_paise: expect.anything(), found_by: 'webhook', method: 'upi' });
    expect(Number(row?.amount_paise)).toBe(150_000);
    // The ledger's payment is keyed by the payment id, through the gateway's clearing account.
    const [posted] = await api.db.query<{ kind: string; payment_mode: string; clearing: string }>(
      `SELECT t.kind, t.payment_mode,
              (SELECT sum(amount_paise) FROM ledger_entries e WHERE e.transaction_id = t.id AND e.account = 'gateway_clearing') AS clearing
         FROM ledger_transactions t WHERE t.idempotency_key = $1`,
      [`razorpay:${payment.payment_id}`],
    );
    expect(posted).toMatchObject({ kind: 'payment', payment_mode: 'online' });
    expect(Number(posted?.clearing)).toBe(150_000);
    // Both money rows in the audit log, written in the same transaction, with what was recorded.
    const audited = await api.db.query<{ entity: string; after: Record<string, unknown> }>(
      `SELECT entity, after FROM audit_log WHERE action = 'create'
          AND ((entity = 'gateway_payments' AND record_id = $1)
            OR (entity = 'ledger_transactions' AND after->>'idempotency_key' = $2))
        ORDER BY entity`,
      [payment.payment_id, `razorpay:${payment.payment_id}`],
    );
    expect(audited.map((row) => row.entity)).toEqual(['gateway_payments', 'ledger_transactions']);
    // A receipt, as at the counter, and the activity feed says it came in.
    const [receipt] = await api.db.query<{ receipt_number: string; mode: string }>(
      'SELECT p.receipt_number, p.mode FROM fee_payments p JOIN ledger_transactions t ON t.id = p.transaction_id WHERE t.idempotency_key = $1',
      [`razorpay:${payment.payment_id}`],
    );
    expect(receipt).toEqual({ receipt_number: expect.stringMatching(/^R\//), mode: 'online' });
    const [activity] = await api.db.query<{ description: string; actor: string; user_id: number | null }>(
      "SELECT description, actor, user_id FROM activities WHERE action = 'fees.payment_received' AND strpos(description, $1) > 0",
      [receipt?.receipt_number],
    );
    expect(activity).toMatchObject({ actor: 'Razorpay', user_id: null });
    for (const words of ['Razorpay', '₹1,500.00', 'Lakshmi Iyer', phone, 'online']) {
      expect(activity?.description).toContain(words);
    }
    expect(audited[0]?.after).toMatchObject({
      payment_id: payment.payment_id,
      amount_paise: 150_000,
      found_by: 'webhook',
    });
  });
});

describe('one payment, many events', () => {
  it('records a payment once whether payment.captured or payment_link.paid comes first, twice or at once', async () => {
    const { api, fake } = bed();
    const first = await linkFor(90_000);
    const second = await linkFor(90_000);
    const paidFirst = fake.pay(first.linkId);
    const paidSecond = fake.pay(second.linkId);
    const [capturedA, linkPaidA] = fake.eventsFor(paidFirst) as [FakeEvent, FakeEvent];
    const [capturedB, linkPaidB] = fake.eventsFor(paidSecond) as [FakeEvent, FakeEvent];
    // A: the link's event first, then the payment's, then both again with the same event ids.
    expect(await fake.send(linkPaidA)).toBe(200);
    expect(await fake.send(capturedA)).toBe(200);
    const again = await api.anonymous().post(WEBHOOK_URL, undefined, {
      raw: capturedA.body,
      headers: {
        'content-type': 'application/json',
        'x-razorpay-signature': fake.sign(capturedA.body),
        'x-razorpay-event-id': capturedA.id,
      },
    });
    expect(again.json()).toEqual({ received: true, duplicate: true });
    // B: both events, each three times, all at once, the repeats with new event ids (only the payment id is the same).
    const answers = await Promise.all(
      [capturedB, linkPaidB, capturedB, linkPaidB, capturedB, linkPaidB].map((event, index) =>
        fake.send(event, { eventId: index < 2 ? event.id : `${event.id}r${index}` }),
      ),
    );
    expect(answers).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await balanceOf(api, first.familyId)).toBe(0);
    expect(await balanceOf(api, second.familyId)).toBe(0);
    for (const payment of [paidFirst, paidSecond]) {
      expect(await countRows(api, 'gateway_payments WHERE payment_id = $1', [payment.payment_id])).toBe(1);
      expect(
        await countRows(api, 'ledger_transactions WHERE idempotency_key = $1', [`razorpay:${payment.payment_id}`]),
      ).toBe(1);
    }
    const [link] = await api.db.query<{ status: string }>('SELECT status FROM payment_links WHERE link_id = $1', [
      second.linkId,
    ]);
    expect(link?.status).toBe('paid');
  });

  it('never moves a link back: a late partially_paid after paid, or an expiry after paid, changes nothing', async () => {
    const { api, fake } = bed();
    const { linkId, familyId } = await linkFor(100_000);
    const part = fake.pay(linkId, { amount: 40_000 });
    const partEvents = fake.eventsFor(part);
    const rest = fake.pay(linkId);
    const restEvents = fake.eventsFor(rest);
    for (const event of [...restEvents, ...partEvents]) expect(await fake.send(event)).toBe(200);
    expect(await fake.send(fake.linkEvent(linkId, 'payment_link.expired'))).toBe(200);
    const [link] = await api.db.query<{ status: string }>('SELECT status FROM payment_links WHERE link_id = $1', [
      linkId,
    ]);
    expect(link?.status).toBe('paid');
    expect(await balanceOf(api, familyId)).toBe(0);
    expect(await countRows(api, 'gateway_payments WHERE link_id = $1', [linkId])).toBe(2);
  });

  it('keeps an event for no link of ours, or one it does not use, and records nothing from it', async () => {
    const { api, fake } = bed();
    const stranger = {
      id: 'evt_stranger_1',
      event: 'payment.captured',
      body: JSON.stringify({
        entity: 'event',
        event: 'payment.captured',
        payload: {
          payment: {
            entity: {
              id: 'pay_NotOursAtAll001',
              amount: 5000,
              currency: 'INR',
              status: 'captured',
              order_id: 'order_X',
            },
          },
        },
      }),
    };
    const refund = { id: 'evt_refund_1', event: 'refund.processed', body: '{"event":"refund.processed","payload":{}}' };
    const notJson = { id: 'evt_garbage_1', event: 'unknown', body: 'not json at all' };
    for (const event of [stranger, refund, notJson]) expect(await fake.send(event)).toBe(200);
    const outcomes = await api.db.query<{ event_id: string; outcome: string }>(
      `SELECT event_id, outcome FROM payment_gateway_events WHERE event_id IN ('evt_stranger_1', 'evt_refund_1', 'evt_garbage_1')
        ORDER BY event_id`,
    );
    expect(outcomes).toEqual([
      { event_id: 'evt_garbage_1', outcome: 'not applied: an event online payment does not use' },
      { event_id: 'evt_refund_1', outcome: 'not applied: an event online payment does not use' },
      { event_id: 'evt_stranger_1', outcome: 'not applied: no payment link of ours' },
    ]);
    expect(await countRows(api, "gateway_payments WHERE payment_id = 'pay_NotOursAtAll001'")).toBe(0);
  });
});

describe('erasure', () => {
  it("removes a forgotten family's events as Razorpay sent them, and keeps the money recorded from them", async () => {
    const { api, fake } = bed();
    const { linkId, familyId, phone } = await linkFor(75_000);
    const payment = fake.pay(linkId);
    for (const event of fake.eventsFor(payment)) expect(await fake.send(event)).toBe(200);
    const named = 'payment_gateway_events WHERE strpos(raw_body, $1) > 0';
    expect(await countRows(api, named, [phone])).toBe(2);
    await api.db.transaction((tx) => eraseFamilyTexts(tx, [phone]));
    expect(await countRows(api, named, [phone])).toBe(0);
    expect(await countRows(api, named, [phone.slice(1)])).toBe(0);
    expect(await countRows(api, 'gateway_payments WHERE payment_id = $1', [payment.payment_id])).toBe(1);
    expect(await balanceOf(api, familyId)).toBe(0);
  });
});

describe('replaying the gateway', () => {
  it('leaves every balance as the first application left it when every event comes three times, shuffled', async () => {
    const { api, fake } = bed();
    const families: Awaited<ReturnType<typeof linkFor>>[] = [];
    for (let i = 0; i < 40; i += 1) families.push(await linkFor(50_000 + i * 1_000));
    const all: FakeEvent[] = [];
    for (const [index, family] of families.entries()) {
      // Some pay in two parts, some in one; some never pay and their link expires.
      if (index % 5 === 4) {
        all.push(fake.linkEvent(family.linkId, 'payment_link.expired'));
        continue;
      }
      if (index % 3 === 0) all.push(...fake.eventsFor(fake.pay(family.linkId, { amount: 20_000 })));
      all.push(...fake.eventsFor(fake.pay(family.linkId)));
    }
    expect(all.length).toBeGreaterThanOrEqual(90);
    const deliverAll = async (list: FakeEvent[], fresh: string) => {
      for (let i = 0; i < list.length; i += 8) {
        const answers = await Promise.all(
          list.slice(i, i + 8).map((event) => fake.send(event, { eventId: fresh ? `${event.id}${fresh}` : event.id })),
        );
        expect(answers.every((status) => status === 200)).toBe(true);
      }
    };
    const balances = () => Promise.all(families.map((family) => balanceOf(api, family.familyId)));
    await deliverAll(shuffled(all, 7), '');
    const afterFirst = await balances();
    const payments = await countRows(api, 'gateway_payments');
    const ledgerRows = await countRows(api, 'ledger_entries');
    // The second time with the same event ids, the third with new ones: only the payment ids are left to stop repeats.
    await deliverAll(shuffled(all, 11), '');
    await deliverAll(shuffled(all, 13), 'x');
    expect(await balances()).toEqual(afterFirst);
    expect(await countRows(api, 'gateway_payments')).toBe(payments);
    expect(await countRows(api, 'ledger_entries')).toBe(ledgerRows);
    // Every family that paid owes nothing; those whose link expired still owe their charge.
    expect(afterFirst).toEqual(families.map((_, index) => (index % 5 === 4 ? 50_000 + index * 1_000 : 0)));
  });
});
