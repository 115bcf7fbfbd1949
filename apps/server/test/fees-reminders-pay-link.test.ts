import { describe, expect, it } from 'vitest';
import { FAMILY_PAY_LINKS } from '../src/app';
import { addDays, today } from '../src/lib/time';
import { runReminderRound } from '../src/modules/fees';
import { postCharge } from './helpers/fees-ledger';
import { askForLink, countRows, owingFamily, razorpayTestBed } from './helpers/razorpay';

/**
 * A fee reminder with online payment on (ADR 061): the family's one Razorpay link for its balance, the
 * one the staff's and the parent app's Pay reuse; Razorpay away, the reminder still goes, saying to pay
 * at the centre.
 */
const bed = razorpayTestBed();

/** A family owing ₹900 due `dueOn` (besides the fixture's own charge, long past). */
async function dueFamily(dueOn: string) {
  const family = await owingFamily(bed().api, 0);
  await postCharge(bed().api.db, family.familyId, family.studentId, 90_000, dueOn);
  return family;
}

const roundOn = (day: string) =>
  runReminderRound(bed().api.ctx, FAMILY_PAY_LINKS, { now: new Date(`${day}T06:30:00Z`) });

async function remindersTo(phone: string) {
  return bed().api.db.query<{ message: string }>(
    "SELECT message FROM messages WHERE recipient = $1 AND kind = 'fee_reminder' ORDER BY id",
    [phone],
  );
}

describe('the pay link in a fee reminder', () => {
  it('is the family’s one link for its balance, made once and reused by the next reminder and the staff', async () => {
    const due = addDays(today(), 300);
    const family = await dueFamily(due);
    expect((await roundOn(addDays(due, -3))).sent).toBe(1);
    expect((await roundOn(due)).sent).toBe(1);
    const [first, second] = await remindersTo(family.phone);
    const url = /Pay online: (\S+)$/.exec(first?.message ?? '')?.[1];
    expect(url).toMatch(/^https:\/\//);
    expect(second?.message).toContain(`Pay online: ${url}`);
    expect(await countRows(bed().api, 'payment_links WHERE family_id = $1', [family.familyId])).toBe(1);
    const staff = await askForLink(bed().api, family.familyId);
    expect(staff.statusCode, staff.body).toBeLessThan(300);
    expect(staff.json().url).toBe(url);
  });

  it('is left out when Razorpay cannot make one: the reminder says to pay at the centre', async () => {
    const due = addDays(today(), 340);
    const family = await dueFamily(due);
    bed().fake.faults.push({ kind: 'refuse', status: 500, description: 'Razorpay is down' });
    expect((await roundOn(due)).sent).toBe(1);
    const [message] = await remindersTo(family.phone);
    expect(message?.message).toMatch(/Pay at the centre\.$/);
    expect(await countRows(bed().api, 'payment_links WHERE family_id = $1', [family.familyId])).toBe(0);
  });
});
