/**
 * What the fee reminder replies' test files share (ADR 061): a family that owes, signed in to the parent
 * app, and a fee reminder sent to it, set up directly (the round that sends them is fees-reminders.test.ts's).
 */
import { familyIdForPhone } from '../../src/modules/fees';
import type { Caller, TestClient } from './client';
import { day, postCharge } from './fees-ledger';
import { uniquePhone } from './test-app';
import { templateAccepted } from './whatsapp-webhook';

export interface ReminderFamily {
  phone: string;
  studentId: number;
  familyId: number;
  parent: Caller;
}

let families = 0;

/** A family on a new phone owing ₹1,500 since three days ago, with a parent app session. */
export async function reminderFamily(api: TestClient, parentName = 'Meena Rao'): Promise<ReminderFamily> {
  families += 1;
  const phone = uniquePhone();
  const student = await api.student({
    full_name: `Asha Rao ${families}`,
    parent_phone: phone,
    parent_name: parentName,
    parent_whatsapp_opt_in: true,
  });
  await api.db.query("INSERT INTO parent_access (phone, code_hash, issued_by) VALUES ($1, 'not-a-code', 'Admin')", [
    phone,
  ]);
  const token = await api.ctx.tokens.signParent({ phone, tokenVersion: 0 });
  const familyId = await api.db.transaction((tx) => familyIdForPhone(tx, phone));
  await postCharge(api.db, familyId, student.id, 150_000, day(-3));
  return { phone, studentId: student.id, familyId, parent: api.withToken(token) };
}

let reminders = 0;

/**
 * A fee reminder to the family as the round sends it: its message (in the app; on WhatsApp too, with
 * the template's wamid, when `whatsapp`) and its fee_reminders row.
 */
export async function sendReminder(
  api: TestClient,
  family: ReminderFamily,
  whatsapp = false,
): Promise<{ messageId: number; wamid: string }> {
  const [message] = await api.db.query<{ id: number }>(
    `INSERT INTO messages (message_type, kind, subject, message, recipient, recipient_name, sent_by, delivery_status)
     VALUES ($1, 'fee_reminder', 'Fee reminder', 'Fees of Rs 1,500 are due.', $2, 'Meena Rao', 'TuitionDesk', 'sent')
     RETURNING id`,
    [whatsapp ? 'WHATSAPP' : 'IN_APP', family.phone],
  );
  const messageId = (message as { id: number }).id;
  reminders += 1;
  // A day of the schedule of its own: one reminder per family, due date and day.
  await api.db.query(
    `INSERT INTO fee_reminders (family_id, due_on, offset_days, balance_paise, message_id)
     VALUES ($1, $2, $3, 150000, $4)`,
    [family.familyId, day(-3), reminders, messageId],
  );
  return { messageId, wamid: whatsapp ? await templateAccepted(api.db, messageId, 'fee_reminder') : '' };
}

/** The answer rows of a reminder, and the family's match tasks. */
export async function answersOf(api: TestClient, messageId: number) {
  return api.db.query<{ reply: string; reference: string | null; promised_on: string | null; via: string }>(
    'SELECT reply, reference, promised_on, via FROM fee_reminder_answers WHERE message_id = $1',
    [messageId],
  );
}

export async function tasksOf(api: TestClient, familyId: number) {
  return api.db.query<{ id: number; reference: string | null; via: string; status: string; message_id: number }>(
    'SELECT id, reference, via, status, message_id FROM fee_match_tasks WHERE family_id = $1 ORDER BY id',
    [familyId],
  );
}
