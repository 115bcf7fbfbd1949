import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { familyIdForPhone, postTransaction } from '../src/modules/fees';
import { expectRefusal } from './helpers/answers';
import { type Caller, type TestClient, testClientForBlock } from './helpers/client';
import { countRows, razorpayTestBed } from './helpers/razorpay';

/**
 * Fees in the parent app (ADR 059): GET /parent/fees answers the signed-in parent's own family, read
 * from the ledger the staff statement reads; receipts of the family's own only; the pay link made
 * only when the parent taps Pay, and the same link again after that.
 */

let charges = 0;

/** A charge posted straight to the ledger, as the charge run posts one. */
async function charge(api: TestClient, familyId: number, studentId: number, paise: number, on: string) {
  charges += 1;
  await api.db.transaction((tx) =>
    postTransaction(tx, {
      idempotencyKey: `test:parent-fees:${process.pid}:${charges}`,
      kind: 'charge',
      familyId,
      occurredOn: on,
      dueOn: on,
      description: `Tuition, ${on.slice(0, 7)}`,
      createdBy: null,
      postings: [
        { account: 'receivable', amountPaise: paise, studentId },
        { account: 'tuition_income', amountPaise: -paise },
      ],
    }),
  );
}

/** Yesterday (UTC): in the past in every centre's zone, and well inside the year a payment may be dated. */
function yesterday(): string {
  return new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
}

interface Family {
  phone: string;
  familyId: number;
  studentIds: number[];
  parent: Caller;
}

/** A family of `children` on a new phone, signed in to the parent app, with its fee account. */
async function signedInFamily(api: TestClient, children = 1): Promise<Family> {
  const first = await api.family({ full_name: 'Kiran Das', parent_name: 'Meera Das', class_name: '8' });
  const studentIds = [first.studentId];
  for (let index = 1; index < children; index += 1) {
    const sibling = await api.student({ full_name: 'Anu Das', parent_name: 'Meera Das', parent_phone: first.phone });
    studentIds.push(sibling.id);
  }
  const familyId = await api.db.transaction((tx) => familyIdForPhone(tx, first.phone));
  return { phone: first.phone, familyId, studentIds, parent: api.as('parent', first) };
}

async function pay(api: TestClient, familyId: number, paise: number) {
  const answer = await api.as('admin').post('/api/v1/fees/payments', {
    family_id: familyId,
    amount_paise: paise,
    mode: 'cash',
    received_on: yesterday(),
    client_id: randomUUID(),
  });
  expect(answer.statusCode).toBe(201);
  return answer.json() as { payment_id: number; receipt_number: string };
}

describe('GET /parent/fees, online payment off', () => {
  const client = testClientForBlock();

  it("answers the family's balance and statement exactly as the staff statement has them, after charges and a payment", async () => {
    const api = client();
    const family = await signedInFamily(api, 2);
    const [kiran, anu] = family.studentIds as [number, number];
    await charge(api, family.familyId, kiran, 150_000, '2026-09-01');
    await charge(api, family.familyId, anu, 120_000, '2026-10-01');
    await charge(api, family.familyId, kiran, 150_000, '2026-10-01');
    const paid = await pay(api, family.familyId, 200_000);

    const mine = await family.parent.get('/api/v1/parent/fees');
    expect(mine.statusCode).toBe(200);
    const fees = mine.json();
    const staff = (await api.as('admin').get(`/api/v1/fees/families/${family.familyId}/statement`)).json();
    expect(fees.family_id).toBe(family.familyId);
    expect(fees.balance_paise).toBe(220_000);
    expect(fees.balance_paise).toBe(staff.balance_paise);
    expect(fees.entries).toEqual(staff.entries);
    expect(fees.earlier_entries).toBe(0);
    // Newest last, with the running balance the staff see.
    expect(fees.entries.at(-1)).toMatchObject({ kind: 'payment', balance_paise: 220_000 });
    expect(fees.students.map((student: { id: number }) => student.id).sort()).toEqual([kiran, anu].sort());
    expect(fees.students).toContainEqual({ id: kiran, full_name: 'Kiran Das', class_name: '8' });
    expect(fees.receipts).toEqual([
      {
        payment_id: paid.payment_id,
        receipt_number: paid.receipt_number,
        date: yesterday(),
        amount_paise: 200_000,
        mode: 'cash',
        reversed: false,
      },
    ]);
    expect(fees).toMatchObject({ online_payment: false, can_pay_online: false, pay: null });
  });

  it('answers a family with nothing in the ledger a balance of 0 and empty lists, never a 404', async () => {
    const api = client();
    const first = await api.family({ full_name: 'Ravi Rao', parent_name: 'Sita Rao' });
    // No fee account yet: the read makes it, as a staff member's look at the family does.
    expect(await countRows(api, 'fee_families WHERE phone = $1', [first.phone])).toBe(0);
    const answer = await api.as('parent', first).get('/api/v1/parent/fees');
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      family_id: expect.any(Number),
      balance_paise: 0,
      students: [{ id: first.studentId, full_name: 'Ravi Rao', class_name: expect.any(String) }],
      entries: [],
      earlier_entries: 0,
      receipts: [],
      online_payment: false,
      can_pay_online: false,
      pay: null,
    });
    expect(await countRows(api, 'fee_families WHERE phone = $1', [first.phone])).toBe(1);
    // Read again: the same account, none made twice.
    expect((await api.as('parent', first).get('/api/v1/parent/fees')).json().family_id).toBe(answer.json().family_id);
    expect(await countRows(api, 'fee_families WHERE phone = $1', [first.phone])).toBe(1);
  });

  it('shows an advance as a negative balance, and a reversed payment marked, its receipt kept', async () => {
    const api = client();
    const family = await signedInFamily(api);
    await charge(api, family.familyId, family.studentIds[0] as number, 50_000, '2026-10-01');
    const first = await pay(api, family.familyId, 75_000);
    const bounced = await pay(api, family.familyId, 10_000);
    const reversed = await api
      .as('admin')
      .post(`/api/v1/fees/payments/${bounced.payment_id}/reverse`, { reason: 'Cheque bounced' });
    expect(reversed.statusCode).toBe(200);
    const fees = (await family.parent.get('/api/v1/parent/fees')).json();
    expect(fees.balance_paise).toBe(-25_000);
    expect(
      fees.receipts.map((receipt: { payment_id: number; reversed: boolean }) => [receipt.payment_id, receipt.reversed]),
    ).toEqual([
      [bounced.payment_id, true],
      [first.payment_id, false],
    ]);
    expect(fees.entries.map((entry: { kind: string }) => entry.kind)).toEqual([
      'charge',
      // The first payment pays the charge and keeps the rest as the advance: two lines.
      'payment',
      'payment',
      'payment',
      'reversal',
    ]);
  });

  it("answers the statement's newest entries when asked for fewer, saying how many older ones are left out", async () => {
    const api = client();
    const family = await signedInFamily(api);
    for (const month of ['05', '06', '07', '08']) {
      await charge(api, family.familyId, family.studentIds[0] as number, 10_000, `2026-${month}-01`);
    }
    const fees = (await family.parent.get('/api/v1/parent/fees?entries=2')).json();
    expect(fees.entries.map((entry: { date: string }) => entry.date)).toEqual(['2026-07-01', '2026-08-01']);
    expect(fees.entries.at(-1).balance_paise).toBe(40_000);
    expect(fees.earlier_entries).toBe(2);
    expect(fees.balance_paise).toBe(40_000);
    for (const bad of ['0', '-1', 'abc', '1001', '2.5']) {
      const answer = await family.parent.get(`/api/v1/parent/fees?entries=${bad}`);
      expect(answer.statusCode, bad).toBe(422);
      expect(answer.json().detail).toMatch(/^entries: /);
    }
  });

  it("never reaches another family: its receipts are 404 to this parent, and its statement is nowhere in this one's answer", async () => {
    const api = client();
    const a = await signedInFamily(api);
    const b = await signedInFamily(api);
    await charge(api, b.familyId, b.studentIds[0] as number, 90_000, '2026-10-01');
    const bPaid = await pay(api, b.familyId, 40_000);
    const aPaid = await pay(api, a.familyId, 5_000);

    const aFees = (await a.parent.get('/api/v1/parent/fees')).json();
    expect(aFees.family_id).toBe(a.familyId);
    expect(aFees.balance_paise).toBe(-5_000);
    expect(aFees.receipts.map((receipt: { payment_id: number }) => receipt.payment_id)).toEqual([aPaid.payment_id]);
    expect(aFees.students.map((student: { id: number }) => student.id)).toEqual(a.studentIds);

    const own = await a.parent.get(`/api/v1/parent/fees/receipts/${aPaid.payment_id}`);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ payment_id: aPaid.payment_id, family_id: a.familyId, amount_paise: 5_000 });
    expectRefusal(
      await a.parent.get(`/api/v1/parent/fees/receipts/${bPaid.payment_id}`),
      404,
      `Payment ${bPaid.payment_id} was not found`,
    );
    // Another family's id and one that does not exist read the same.
    expectRefusal(await a.parent.get('/api/v1/parent/fees/receipts/987654321'), 404, 'Payment 987654321 was not found');
    expect((await a.parent.get('/api/v1/parent/fees/receipts/abc')).statusCode).toBe(422);
    // The PDF too: the family's own in its language or the one asked for, another's 404.
    const pdf = { headers: { accept: 'application/pdf' } };
    const ownPdf = await a.parent.get(`/api/v1/parent/fees/receipts/${aPaid.payment_id}?lang=hi`, pdf);
    expect(ownPdf.statusCode).toBe(200);
    expect(ownPdf.headers['content-type']).toBe('application/pdf');
    expect(ownPdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(ownPdf.headers['content-disposition']).toBe(
      `attachment; filename="${aPaid.receipt_number.replaceAll('/', '-')}.pdf"`,
    );
    expectRefusal(
      await a.parent.get(`/api/v1/parent/fees/receipts/${bPaid.payment_id}`, pdf),
      404,
      `Payment ${bPaid.payment_id} was not found`,
    );
    expect((await a.parent.get(`/api/v1/parent/fees/receipts/${aPaid.payment_id}?lang=fr`, pdf)).statusCode).toBe(422);
    // The staff routes stay the staff's.
    expect((await a.parent.get(`/api/v1/fees/families/${b.familyId}/statement`)).statusCode).toBe(403);
    expect((await a.parent.get(`/api/v1/fees/receipts/${bPaid.payment_id}`)).statusCode).toBe(403);
  });

  it('is for parents only: staff tokens get 403, no one signed in 401', async () => {
    const api = client();
    const family = await signedInFamily(api);
    const paid = await pay(api, family.familyId, 1_000);
    for (const role of ['admin', 'teacher'] as const) {
      const staff = api.as(role);
      expectRefusal(await staff.get('/api/v1/parent/fees'), 403, /parent/i);
      expect((await staff.get(`/api/v1/parent/fees/receipts/${paid.payment_id}`)).statusCode).toBe(403);
      expect((await staff.post('/api/v1/parent/fees/pay-link', {})).statusCode).toBe(403);
    }
    expect((await api.anonymous().get('/api/v1/parent/fees')).statusCode).toBe(401);
    expect((await api.anonymous().post('/api/v1/parent/fees/pay-link', {})).statusCode).toBe(401);
  });

  it('says online payment is off when the parent taps Pay, and keeps nothing', async () => {
    const api = client();
    const family = await signedInFamily(api);
    await charge(api, family.familyId, family.studentIds[0] as number, 30_000, '2026-10-01');
    const answer = await family.parent.post('/api/v1/parent/fees/pay-link', {});
    expect(answer.statusCode).toBe(409);
    expect(answer.json().code).toBe('payments.online_off');
    expect(await countRows(api, 'payment_links WHERE family_id = $1', [family.familyId])).toBe(0);
  });
});

describe('GET /parent/fees and POST /parent/fees/pay-link, online payment on (a fake Razorpay)', () => {
  const bed = razorpayTestBed();

  it('offers Pay without making a link on reading; the tap makes one, a second tap answers the same link', async () => {
    const { api, fake } = bed();
    const family = await signedInFamily(api);
    await charge(api, family.familyId, family.studentIds[0] as number, 245_050, '2026-10-01');
    const asked = fake.requests.length;

    const before = (await family.parent.get('/api/v1/parent/fees')).json();
    expect(before).toMatchObject({ balance_paise: 245_050, online_payment: true, can_pay_online: true, pay: null });
    expect(fake.requests.length).toBe(asked);
    expect(await countRows(api, 'payment_links WHERE family_id = $1', [family.familyId])).toBe(0);

    const tapped = await family.parent.post('/api/v1/parent/fees/pay-link', {});
    expect(tapped.statusCode).toBe(200);
    expect(tapped.json()).toEqual({ url: expect.stringMatching(/^https:\/\/rzp\.io\/i\//), amount_paise: 245_050 });
    const again = await family.parent.post('/api/v1/parent/fees/pay-link', {});
    expect(again.json()).toEqual(tapped.json());
    expect(fake.requests.filter((request) => request.method === 'POST').length).toBe(
      fake.requests.slice(0, asked).filter((request) => request.method === 'POST').length + 1,
    );
    expect(await countRows(api, 'payment_links WHERE family_id = $1', [family.familyId])).toBe(1);
    // The link made for a parent is audited as one made by staff is.
    expect(
      await countRows(
        api,
        "audit_log WHERE entity = 'payment_links' AND action = 'create' AND record_id IN (SELECT link_id FROM payment_links WHERE family_id = $1)",
        [family.familyId],
      ),
    ).toBe(1);
    const request = fake.requests.at(-1);
    expect(request?.body).toMatchObject({ amount: 245_050, customer: { contact: family.phone } });

    // The read now shows the link made, and still makes none.
    const after = (await family.parent.get('/api/v1/parent/fees')).json();
    expect(after.pay).toEqual(tapped.json());
    expect(await countRows(api, 'payment_links WHERE family_id = $1', [family.familyId])).toBe(1);

    // The activity feed names the parent, who has no staff account.
    const [activity] = await api.db.query<{ user_id: number | null; description: string }>(
      "SELECT user_id, description FROM activities WHERE action = 'fees.payment_link_created' ORDER BY id DESC LIMIT 1",
    );
    expect(activity).toEqual({
      user_id: null,
      description: 'Meera Das made a payment link of ₹2,450.50 for the family of Kiran Das',
    });
  });

  it("gives each family its own link, never another's", async () => {
    const { api } = bed();
    const a = await signedInFamily(api);
    const b = await signedInFamily(api);
    await charge(api, a.familyId, a.studentIds[0] as number, 10_000, '2026-10-01');
    await charge(api, b.familyId, b.studentIds[0] as number, 20_000, '2026-10-01');
    const aLink = (await a.parent.post('/api/v1/parent/fees/pay-link', {})).json();
    const bLink = (await b.parent.post('/api/v1/parent/fees/pay-link', {})).json();
    expect(aLink.amount_paise).toBe(10_000);
    expect(bLink.amount_paise).toBe(20_000);
    expect(aLink.url).not.toBe(bLink.url);
    expect((await a.parent.get('/api/v1/parent/fees')).json().pay).toEqual(aLink);
    expect((await b.parent.get('/api/v1/parent/fees')).json().pay).toEqual(bLink);
  });

  it('offers no Pay to a family that owes nothing (or less than ₹1), and a tap anyway is 422 with nothing asked of Razorpay', async () => {
    const { api, fake } = bed();
    const settled = await signedInFamily(api);
    const tiny = await signedInFamily(api);
    await charge(api, tiny.familyId, tiny.studentIds[0] as number, 50, '2026-10-01');
    const asked = fake.requests.length;
    for (const family of [settled, tiny]) {
      const fees = (await family.parent.get('/api/v1/parent/fees')).json();
      expect(fees).toMatchObject({ online_payment: true, can_pay_online: false, pay: null });
      const tapped = await family.parent.post('/api/v1/parent/fees/pay-link', {});
      expect(tapped.statusCode).toBe(422);
      expect(tapped.json().detail).toMatch(/^amount_paise: /);
    }
    expect(fake.requests.length).toBe(asked);
    expect(
      await countRows(api, 'payment_links WHERE family_id = ANY($1::integer[])', [[settled.familyId, tiny.familyId]]),
    ).toBe(0);
  });
});
