/**
 * The admin's side of the families' answers to fee reminders (issue 29, ADR 061): "Paid already" as a
 * task to match to a payment or dismiss (GET /fees/match-tasks, POST …/match and …/dismiss), and the
 * promises that pause reminders (GET /fees/promises). The families' side: fees-reminder-replies.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { addDays, today } from '../src/lib/time';
import { expectRefusal } from './helpers/answers';
import { testClientForBlock } from './helpers/client';
import { type ReminderFamily, reminderFamily, sendReminder, tasksOf } from './helpers/fee-reminder-replies';
import { pay } from './helpers/fees-ledger';

const client = testClientForBlock();

const admin = () => client().as('admin');

/** The family says "Paid already" with `reference` in the parent app; answers the task's id. */
async function claim(family: ReminderFamily, reference: string): Promise<number> {
  const { messageId } = await sendReminder(client(), family);
  const answered = await family.parent.post(`/api/v1/parent/messages/${messageId}/fee-reply`, {
    reply: 'paid',
    reference,
  });
  expect(answered.statusCode, answered.body).toBe(200);
  const tasks = await tasksOf(client(), family.familyId);
  return (tasks.find((task) => task.message_id === messageId) as { id: number }).id;
}

async function openTasks() {
  const response = await admin().get('/api/v1/fees/match-tasks');
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function taskRow(id: number) {
  const [row] = await client().db.query<{ status: string; payment_id: number | null; note: string | null }>(
    'SELECT status, payment_id, note FROM fee_match_tasks WHERE id = $1',
    [id],
  );
  return row;
}

describe('GET /fees/match-tasks', () => {
  it("lists open tasks with the family, its balance and its payments of the last 60 days, newest first, the family's reference marked", async () => {
    const family = await reminderFamily(client(), 'Kavita Joshi');
    const old = await pay(client(), family.familyId, 20_000, { received_on: addDays(today(), -61) });
    const cash = await pay(client(), family.familyId, 30_000, { received_on: addDays(today(), -10) });
    const upi = await pay(client(), family.familyId, 50_000, {
      mode: 'card',
      reference: 'HDFC0099 AB12',
      received_on: addDays(today(), -2),
    });
    const id = await claim(family, ' hdfc 0099ab12');

    const answer = await openTasks();
    const task = answer.tasks.find((t: { id: number }) => t.id === id);
    expect(answer.open_count).toBeGreaterThanOrEqual(1);
    expect(task).toMatchObject({
      family_id: family.familyId,
      parent_name: 'Kavita Joshi',
      parent_phone: family.phone,
      students: [{ id: family.studentId }],
      reference: 'hdfc 0099ab12',
      via: 'parent_app',
      claimed_at: expect.any(String),
      balance_paise: 150_000 - 100_000,
      status: 'open',
      payment_id: null,
      receipt_number: null,
      resolved_by: null,
      resolved_at: null,
      note: null,
    });
    expect(task.candidates).toEqual([
      {
        payment_id: upi.payment_id,
        receipt_number: upi.receipt_number,
        amount_paise: 50_000,
        mode: 'card',
        reference: 'HDFC0099 AB12',
        received_on: addDays(today(), -2),
        same_reference: true,
      },
      expect.objectContaining({ payment_id: cash.payment_id, same_reference: false, reference: null }),
    ]);
    expect(task.candidates.map((c: { payment_id: number }) => c.payment_id)).not.toContain(old.payment_id);
  });

  it('refuses a status it does not know (422) and teachers (403) on every route', async () => {
    expectRefusal(await admin().get('/api/v1/fees/match-tasks?status=closed'), 422, 'status: must be open or done');
    const family = await reminderFamily(client());
    const id = await claim(family, 'T-1');
    const paid = await pay(client(), family.familyId, 1_000);
    const teacher = client().as('teacher');
    for (const response of [
      await teacher.get('/api/v1/fees/match-tasks'),
      await teacher.get('/api/v1/fees/promises'),
      await teacher.post(`/api/v1/fees/match-tasks/${id}/match`, { payment_id: paid.payment_id }),
      await teacher.post(`/api/v1/fees/match-tasks/${id}/dismiss`, { note: 'No' }),
    ]) {
      expectRefusal(response, 403, 'You do not have permission to do this');
    }
    expect(await taskRow(id)).toEqual({ status: 'open', payment_id: null, note: null });
  });
});

describe('POST /fees/match-tasks/{id}/match', () => {
  it("matches the task to the family's payment once, in the audit log and the activity feed; then it is done", async () => {
    const family = await reminderFamily(client(), 'Sunil Gupta');
    const paid = await pay(client(), family.familyId, 150_000, { mode: 'upi', reference: '612345678901' });
    const id = await claim(family, '612345678901');
    const matched = await admin().post(`/api/v1/fees/match-tasks/${id}/match`, { payment_id: paid.payment_id });
    expect(matched.statusCode, matched.body).toBe(200);
    expect(matched.json()).toMatchObject({
      id,
      status: 'matched',
      payment_id: paid.payment_id,
      receipt_number: paid.receipt_number,
      resolved_by: 'Administrator',
      resolved_at: expect.any(String),
      balance_paise: 0,
    });
    const [audit] = await client().db.query<{ before: Record<string, unknown>; after: Record<string, unknown> }>(
      "SELECT before, after FROM audit_log WHERE entity = 'fee_match_tasks' AND action = 'update' AND record_id = $1",
      [String(id)],
    );
    expect(audit?.before).toMatchObject({ status: 'open', payment_id: null });
    expect(audit?.after).toMatchObject({ status: 'matched', payment_id: paid.payment_id });
    const [activity] = await client().db.query<{ description: string }>(
      "SELECT description FROM activities WHERE action = 'fees.match_task_matched' ORDER BY id DESC LIMIT 1",
    );
    expect(activity?.description).toBe(
      `Administrator matched the "paid already" of Sunil Gupta to receipt ${paid.receipt_number}`,
    );

    expect((await openTasks()).tasks.map((t: { id: number }) => t.id)).not.toContain(id);
    const done = (await admin().get('/api/v1/fees/match-tasks?status=done')).json();
    expect(done.tasks[0]).toMatchObject({ id, status: 'matched' });

    expectRefusal(
      await admin().post(`/api/v1/fees/match-tasks/${id}/match`, { payment_id: paid.payment_id }),
      409,
      'This match task was already matched to a payment',
    );
    expectRefusal(
      await admin().post(`/api/v1/fees/match-tasks/${id}/dismiss`, { note: 'Changed my mind' }),
      409,
      'This match task was already matched to a payment',
    );
  });

  it("refuses another family's payment, a reversed one or none (422), and an unknown task (404), changing nothing", async () => {
    const family = await reminderFamily(client());
    const other = await reminderFamily(client());
    const id = await claim(family, 'CHQ 4');
    const theirs = await pay(client(), other.familyId, 10_000);
    const reversed = await pay(client(), family.familyId, 10_000);
    const reversal = await admin().post(`/api/v1/fees/payments/${reversed.payment_id}/reverse`, { reason: 'Bounced' });
    expect(reversal.statusCode, reversal.body).toBe(200);
    const match = (paymentId: unknown) =>
      admin().post(`/api/v1/fees/match-tasks/${id}/match`, { payment_id: paymentId });

    expectRefusal(
      await match(theirs.payment_id),
      422,
      `payment_id: payment ${theirs.payment_id} is not one of this family's payments`,
    );
    expectRefusal(
      await match(2_000_000_000),
      422,
      "payment_id: payment 2000000000 is not one of this family's payments",
    );
    expectRefusal(
      await match(reversed.payment_id),
      422,
      `payment_id: payment ${reversed.receipt_number} was reversed; choose another payment`,
    );
    expectRefusal(await match('12'), 422, 'payment_id: must be a payment id');
    expect(await taskRow(id)).toEqual({ status: 'open', payment_id: null, note: null });
    expectRefusal(
      await admin().post('/api/v1/fees/match-tasks/999999/match', { payment_id: theirs.payment_id }),
      404,
      'Match task 999999 was not found',
    );
  });

  it('of two admins resolving one task at once, one wins and the other is told 409', async () => {
    const family = await reminderFamily(client());
    const paid = await pay(client(), family.familyId, 150_000);
    const id = await claim(family, 'Cash at desk');
    const answers = await Promise.all([
      admin().post(`/api/v1/fees/match-tasks/${id}/match`, { payment_id: paid.payment_id }),
      admin().post(`/api/v1/fees/match-tasks/${id}/dismiss`, { note: 'Not found' }),
      admin().post(`/api/v1/fees/match-tasks/${id}/match`, { payment_id: paid.payment_id }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409]);
    const row = await taskRow(id);
    expect(['matched', 'dismissed']).toContain(row?.status);
    const audits = await client().db.query(
      "SELECT 1 FROM audit_log WHERE entity = 'fee_match_tasks' AND action = 'update' AND record_id = $1",
      [String(id)],
    );
    expect(audits).toHaveLength(1);
  });
});

describe('POST /fees/match-tasks/{id}/dismiss', () => {
  it('dismisses with the note; an empty or long note is refused (422) and changes nothing', async () => {
    const family = await reminderFamily(client(), 'Ravi Menon');
    const id = await claim(family, 'UTR 9');
    const dismiss = (note: unknown) => admin().post(`/api/v1/fees/match-tasks/${id}/dismiss`, { note });
    expectRefusal(await dismiss('  '), 422, 'note: must say why, 1 to 200 characters');
    expectRefusal(await dismiss('x'.repeat(201)), 422, 'note: must say why, 1 to 200 characters');
    expect(await taskRow(id)).toEqual({ status: 'open', payment_id: null, note: null });

    const dismissed = await dismiss('  No payment with that reference  ');
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    expect(dismissed.json()).toMatchObject({
      id,
      status: 'dismissed',
      note: 'No payment with that reference',
      payment_id: null,
    });
    const [activity] = await client().db.query<{ description: string }>(
      "SELECT description FROM activities WHERE action = 'fees.match_task_dismissed' ORDER BY id DESC LIMIT 1",
    );
    expect(activity?.description).toBe(
      'Administrator dismissed the "paid already" of Ravi Menon: No payment with that reference',
    );
    expectRefusal(await dismiss('Again'), 409, 'This match task was already dismissed');
    expectRefusal(
      await admin().post('/api/v1/fees/match-tasks/999999/dismiss', { note: 'x' }),
      404,
      'Match task 999999 was not found',
    );
  });
});

describe('GET /fees/promises', () => {
  it("lists each family's promise still running, soonest first, with its balance; a past one is gone", async () => {
    const later = await reminderFamily(client(), 'Later Family');
    const sooner = await reminderFamily(client(), 'Sooner Family');
    const past = await reminderFamily(client(), 'Past Family');
    const promise = async (family: ReminderFamily, days: number) => {
      const { messageId } = await sendReminder(client(), family);
      const date = addDays(today(), days);
      const answered = await family.parent.post(`/api/v1/parent/messages/${messageId}/fee-reply`, {
        reply: 'will_pay',
        date,
      });
      expect(answered.statusCode, answered.body).toBe(200);
      return messageId;
    };
    await promise(later, 20);
    await promise(later, 30);
    await promise(sooner, 2);
    const pastMessage = await promise(past, 1);
    await client().db.query('UPDATE fee_reminder_answers SET promised_on = $2::date - 1 WHERE message_id = $1', [
      pastMessage,
      today(),
    ]);
    await promise(sooner, 1);

    const response = await admin().get('/api/v1/fees/promises');
    expect(response.statusCode, response.body).toBe(200);
    const mine = response
      .json()
      .promises.filter((p: { family_id: number }) => [later, sooner, past].some((f) => f.familyId === p.family_id));
    expect(mine).toEqual([
      {
        family_id: sooner.familyId,
        parent_name: 'Sooner Family',
        parent_phone: sooner.phone,
        promised_on: addDays(today(), 2),
        made_at: expect.any(String),
        via: 'parent_app',
        balance_paise: 150_000,
      },
      expect.objectContaining({ family_id: later.familyId, promised_on: addDays(today(), 30) }),
    ]);
  });
});
