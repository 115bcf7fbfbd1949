import { describe, expect, it } from 'vitest';
import { askForLink, countRows, owingFamily, razorpayTestBed } from './helpers/razorpay';

/**
 * One Payment Link per family however many ask at once (ADR 053, migration 0035): the family is
 * reserved before Razorpay is asked; the others wait for that link and answer it; a failed call
 * gives the reservation back, and a reservation left by a request that died is taken over.
 */
const bed = razorpayTestBed();

const linkPosts = () => bed().fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_links').length;
const reservations = (familyId: number) =>
  countRows(bed().api, 'payment_link_reservations WHERE family_id = $1', [familyId]);

describe('a family asked for by several admins at the same instant', () => {
  it('asks Razorpay once, and every admin gets that one link', async () => {
    const { api } = bed();
    const family = await owingFamily(api, 120_000);
    const before = linkPosts();
    const answers = await Promise.all(Array.from({ length: 3 }, () => askForLink(api, family.familyId)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    const [first, ...others] = answers.map((answer) => answer.json());
    expect(first).toEqual({
      link_id: expect.stringMatching(/^plink_/),
      url: expect.any(String),
      amount_paise: 120_000,
    });
    for (const other of others) expect(other).toEqual(first);
    expect(linkPosts() - before).toBe(1);
    expect(await countRows(api, 'payment_links WHERE family_id = $1', [family.familyId])).toBe(1);
    expect(await reservations(family.familyId)).toBe(0);
  });

  it('gives the reservation back when Razorpay refuses, so the next request makes the link', async () => {
    const { api, fake } = bed();
    const family = await owingFamily(api, 80_000);
    const before = linkPosts();
    fake.faults.push({ kind: 'refuse', status: 400, description: 'The amount must be atleast INR 1.00' });
    const answers = await Promise.all([askForLink(api, family.familyId), askForLink(api, family.familyId)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 422]);
    // Asked one after the other, never at once: the second only after the first gave the family back.
    expect(linkPosts() - before).toBe(2);
    expect(await countRows(api, 'payment_links WHERE family_id = $1', [family.familyId])).toBe(1);
    expect(await reservations(family.familyId)).toBe(0);
  });

  it('takes over a reservation left by a request that died a while ago', async () => {
    const { api } = bed();
    const family = await owingFamily(api, 50_000);
    await api.db.query(
      `INSERT INTO payment_link_reservations (family_id, amount_paise, token, reserved_at)
       VALUES ($1, 50000, gen_random_uuid(), now() - interval '5 minutes')`,
      [family.familyId],
    );
    const answer = await askForLink(api, family.familyId);
    expect(answer.statusCode).toBe(200);
    expect(await countRows(api, 'payment_links WHERE family_id = $1', [family.familyId])).toBe(1);
    expect(await reservations(family.familyId)).toBe(0);
  });
});
