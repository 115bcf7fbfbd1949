import { adminActor, api, type Scenario } from './audit';
import { type ReminderFamily, reminderFamily, sendReminder } from './fee-reminder-replies';
import { pay } from './fees-ledger';

/**
 * The audit walk's scenarios for the families' answers to fee reminders (ADR 061): a "Paid already"
 * from the parent app opens a match task, which the admin matches to a payment or dismisses; each
 * leaves the task's row as it was and as it became.
 */
async function openTask(family: ReminderFamily): Promise<number> {
  const [task] = await api.db.query<{ id: number }>(
    "INSERT INTO fee_match_tasks (family_id, reference, via) VALUES ($1, 'UTR 5511', 'parent_app') RETURNING id",
    [family.familyId],
  );
  return (task as { id: number }).id;
}

export const FEE_REPLY_SCENARIOS: Record<string, () => Promise<Scenario>> = {
  'POST /api/v1/parent/messages/{id}/fee-reply': async () => {
    const family = await reminderFamily(api);
    const { messageId } = await sendReminder(api, family);
    return {
      actor: { id: null, name: `Parent ${family.phone}` },
      way: 'parent app',
      send: (options) =>
        family.parent.post(
          `/api/v1/parent/messages/${messageId}/fee-reply`,
          { reply: 'paid', reference: 'UTR 5511' },
          options,
        ),
      rows: [{ entity: 'fee_match_tasks', action: 'create', after: { reference: 'UTR 5511', status: 'open' } }],
    };
  },
  'POST /api/v1/fees/match-tasks/{id}/match': async () => {
    const family = await reminderFamily(api);
    const taskId = await openTask(family);
    const paid = await pay(api, family.familyId, 150_000);
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) =>
        api.as('admin').post(`/api/v1/fees/match-tasks/${taskId}/match`, { payment_id: paid.payment_id }, options),
      rows: [
        {
          entity: 'fee_match_tasks',
          action: 'update',
          record_id: String(taskId),
          before: { status: 'open', payment_id: null },
          after: { status: 'matched', payment_id: paid.payment_id },
        },
      ],
    };
  },
  'POST /api/v1/fees/match-tasks/{id}/dismiss': async () => {
    const family = await reminderFamily(api);
    const taskId = await openTask(family);
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) =>
        api.as('admin').post(`/api/v1/fees/match-tasks/${taskId}/dismiss`, { note: 'No such payment' }, options),
      rows: [
        {
          entity: 'fee_match_tasks',
          action: 'update',
          record_id: String(taskId),
          before: { status: 'open', note: null },
          after: { status: 'dismissed', note: 'No such payment' },
        },
      ],
    };
  },
};
