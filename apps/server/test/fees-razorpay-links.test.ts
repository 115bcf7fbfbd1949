import { describe, expect, it } from 'vitest';
import { expectRefusal } from './helpers/answers';
import { testClientForBlock } from './helpers/client';
import { askForLink, balanceOf, countRows, owingFamily, RAZORPAY_TEST, razorpayTestBed } from './helpers/razorpay';

/**
 * A family's Razorpay Payment Link (ADR 053): what Razorpay is asked, what is kept, and every refusal:
 * online payment off, an unknown family, nothing owed, bad amounts, Razorpay down, garbled or refusing
 * (nothing kept then). The reconciler: fees-razorpay-reconcile.test.ts.
 */
const bed = razorpayTestBed();

const links = () => countRows(bed().api, 'payment_links');

describe('POST /fees/families/{family_id}/payment-link', () => {
  it("asks Razorpay for a link of the family's balance, as Razorpay wants it asked, and keeps it", async () => {
    const { api, fake } = bed();
    const family = await owingFamily(api, 245_050);
    const answer = await askForLink(api, family.familyId);
    expect(answer.statusCode).toBe(200);
    const link = answer.json();
    expect(link).toEqual({ link_id: expect.stringMatching(/^plink_/), url: expect.any(String), amount_paise: 245_050 });
    expect(link.url).toMatch(/^https:\/\/rzp\.io\/i\//);
    const request = fake.requests.at(-1);
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/payment_links');
    expect(request?.authorization).toBe(
      `Basic ${Buffer.from(`${RAZORPAY_TEST.keyId}:${RAZORPAY_TEST.keySecret}`).toString('base64')}`,
    );
    const body = request?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      amount: 245_050,
      currency: 'INR',
      customer: { name: 'Lakshmi Iyer', contact: family.phone },
      description: 'Tuition fees',
    });
    expect(String(body.reference_id).length).toBeLessThanOrEqual(40);
    const [kept] = await api.db.query<{
      family_id: number;
      amount_paise: string;
      status: string;
      reference_id: string;
    }>('SELECT family_id, amount_paise, status, reference_id FROM payment_links WHERE link_id = $1', [link.link_id]);
    expect(kept).toMatchObject({ family_id: family.familyId, status: 'created', reference_id: body.reference_id });
    expect(Number(kept?.amount_paise)).toBe(245_050);
    // One activity row and one audit row, written with it.
    const [activity] = await api.db.query<{ text_code: string; description: string }>(
      "SELECT text_code, description FROM activities WHERE action = 'fees.payment_link_created' ORDER BY id DESC LIMIT 1",
    );
    expect(activity).toEqual({
      text_code: 'fees.payment_link_created',
      description: 'Administrator made a payment link of ₹2,450.50 for the family of Meera Iyer',
    });
    expect(
      await countRows(api, "audit_log WHERE entity = 'payment_links' AND action = 'create' AND record_id = $1", [
        link.link_id,
      ]),
    ).toBe(1);
  });

  it('takes an amount of its own, answers the open link again for the same amount, and makes a new one for another', async () => {
    const { api, fake } = bed();
    const family = await owingFamily(api, 300_000);
    const first = await askForLink(api, family.familyId, { amount_paise: 100_000 });
    const again = await askForLink(api, family.familyId, { amount_paise: 100_000 });
    const other = await askForLink(api, family.familyId);
    expect(first.json().amount_paise).toBe(100_000);
    expect(again.json()).toEqual(first.json());
    expect(other.json().amount_paise).toBe(300_000);
    expect(other.json().link_id).not.toBe(first.json().link_id);
    const references = fake.requests
      .filter((request) => request.method === 'POST')
      .map((request) => (request.body as { reference_id: string }).reference_id);
    expect(new Set(references).size).toBe(references.length);
    // A family in advance may still be given a link for an amount it chooses.
    const ahead = await owingFamily(api, 0);
    expect((await askForLink(api, ahead.familyId, { amount_paise: 5_000 })).statusCode).toBe(200);
  });

  it('answers 422 when the family owes nothing and no amount is given, and 404 for a family that does not exist', async () => {
    const { api } = bed();
    const settled = await owingFamily(api, 0);
    const before = await links();
    expectRefusal(
      await askForLink(api, settled.familyId),
      422,
      'amount_paise: this family owes nothing now: give the amount the link is for',
    );
    expectRefusal(await askForLink(api, 987_654), 404, 'Family 987654 was not found');
    expect((await askForLink(api, 0)).statusCode).toBe(422);
    expect((await api.as('admin').post('/api/v1/fees/families/abc/payment-link', {})).statusCode).toBe(422);
    expect(await links()).toBe(before);
  });

  it.each([
    ['negative', -500],
    ['zero', 0],
    ['fractional', 1250.5],
    ['below the ₹1 Razorpay takes', 99],
    ['over ₹1 crore', 1_000_000_001],
    ['unsafe', 2 ** 60],
    ['a string', '1250'],
    ['null', null],
  ])('refuses an amount that is %s with 422 naming amount_paise, and keeps nothing', async (_name, amount) => {
    const { api, fake } = bed();
    const family = await owingFamily(api, 50_000);
    const asked = fake.requests.length;
    const before = await links();
    const answer = await askForLink(api, family.familyId, { amount_paise: amount });
    expect(answer.statusCode).toBe(422);
    expect(answer.json().detail).toMatch(/^amount_paise: /);
    expect(fake.requests.length).toBe(asked);
    expect(await links()).toBe(before);
  });

  it('is for admins only: a teacher gets 403, no one signed in 401', async () => {
    const { api } = bed();
    const family = await owingFamily(api, 50_000);
    const url = `/api/v1/fees/families/${family.familyId}/payment-link`;
    expect((await api.as('teacher').post(url, {})).statusCode).toBe(403);
    expect((await api.anonymous().post(url, {})).statusCode).toBe(401);
  });
});

describe('when Razorpay fails', () => {
  it.each([
    ['cannot be reached (the connection drops)', { kind: 'reset' } as const, 503, /^Razorpay could not be reached/],
    ['answers a proxy page', { kind: 'garbage' } as const, 502, /^Razorpay did not answer as expected \(HTTP 502\)/],
    [
      'refuses the link',
      { kind: 'refuse', status: 400, description: 'The contact format is invalid.' } as const,
      422,
      'Razorpay refused the payment link: The contact format is invalid.',
    ],
    [
      'fails itself',
      { kind: 'refuse', status: 500, description: 'We are facing some trouble' } as const,
      502,
      /HTTP 500/,
    ],
  ])('answers as it should when Razorpay %s, and keeps nothing', async (_name, fault, status, detail) => {
    const { api, fake } = bed();
    const family = await owingFamily(api, 70_000);
    const before = await links();
    const activities = await countRows(api, "activities WHERE action = 'fees.payment_link_created'");
    fake.faults.push(fault);
    expectRefusal(await askForLink(api, family.familyId), status, detail);
    expect(await links()).toBe(before);
    expect(await countRows(api, "activities WHERE action = 'fees.payment_link_created'")).toBe(activities);
  });

  it('answers 503 in time when Razorpay hangs', async () => {
    const { api, fake } = bed();
    const family = await owingFamily(api, 70_000);
    fake.faults.push({ kind: 'hang' });
    const started = Date.now();
    expect((await askForLink(api, family.familyId)).statusCode).toBe(503);
    // The test's timeout is 5 s (helpers/razorpay.ts); the server's own is 10 s.
    expect(Date.now() - started).toBeLessThan(9_000);
  });

  it("says 422 with Razorpay's words when the key is wrong (Razorpay answers 401)", async () => {
    const { api, fake } = bed();
    const family = await owingFamily(api, 70_000);
    fake.faults.push({ kind: 'refuse', status: 401, description: 'The api key provided is invalid' });
    expectRefusal(
      await askForLink(api, family.familyId),
      422,
      'Razorpay refused the payment link: The api key provided is invalid',
    );
  });
});

describe('online payment off (no RAZORPAY_* settings)', () => {
  const off = testClientForBlock();

  it('says the link cannot be made and why, refuses webhook events, and fees work without it', async () => {
    const api = off();
    const family = await owingFamily(api, 40_000);
    const answer = await askForLink(api, family.familyId);
    expectRefusal(
      answer,
      409,
      'Online payment is not set up: set RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET and RAZORPAY_WEBHOOK_SECRET on the server (docs/fees.md, Online payment). Payments at the counter work as before.',
    );
    expect(answer.json().code).toBe('payments.online_off');
    const event = await api.anonymous().post('/api/v1/payments/razorpay/webhook', undefined, {
      raw: '{"event":"payment.captured"}',
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': 'a'.repeat(64) },
    });
    expect(event.statusCode).toBe(409);
    expect(await countRows(api, 'payment_gateway_events')).toBe(0);
    expect(await balanceOf(api, family.familyId)).toBe(40_000);
  });
});

describe('the fake Razorpay checks requests as Razorpay does', () => {
  const post = (url: string, body: unknown, key = `${RAZORPAY_TEST.keyId}:${RAZORPAY_TEST.keySecret}`) =>
    fetch(`${url}/payment_links`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(key).toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('refuses a wrong key with 401, a repeated reference_id, a small amount or another currency with 400', async () => {
    const { fake } = bed();
    const link = {
      amount: 5000,
      currency: 'INR',
      reference_id: 'TD-fake-check-1',
      customer: { contact: '+919800000001' },
    };
    const wrongKey = await post(fake.baseUrl, link, `${RAZORPAY_TEST.keyId}:wrong`);
    expect(wrongKey.status).toBe(401);
    expect(((await wrongKey.json()) as { error: unknown }).error).toMatchObject({
      code: 'BAD_REQUEST_ERROR',
      description: 'The api key provided is invalid',
    });
    expect((await post(fake.baseUrl, link)).status).toBe(200);
    const repeat = await post(fake.baseUrl, link);
    expect(repeat.status).toBe(400);
    expect(((await repeat.json()) as { error: unknown }).error).toMatchObject({ field: 'reference_id' });
    for (const bad of [
      { ...link, reference_id: 'TD-fake-check-2', amount: 99 },
      { ...link, reference_id: 'TD-fake-check-3', amount: 100.5 },
      { ...link, reference_id: 'TD-fake-check-4', currency: 'USD' },
      { ...link, reference_id: 'x'.repeat(41) },
      { ...link, reference_id: 'TD-fake-check-5', surprise: true },
    ]) {
      expect((await post(fake.baseUrl, bad)).status).toBe(400);
    }
  });
});
