import { familyIdForPhone } from '../../src/modules/fees';
import { admin, adminActor, api, type Scenario } from './audit';
import { day, postCharge } from './fees-ledger';
import { uniquePhone } from './test-app';

/**
 * Fee reminders (ADR 061): the schedule's one row, audited as it was and as it becomes; a round by
 * hand leaves each reminder's message, as any message to a family does.
 */
export const FEE_REMINDER_SCENARIOS: Record<string, () => Promise<Scenario>> = {
  'PUT /api/v1/fees/reminders/settings': async () => ({
    actor: adminActor(),
    way: 'console',
    send: (options) => admin.put('/api/v1/fees/reminders/settings', { offsets: [-2, 0, 5], hour: 9 }, options),
    cleanUp: async () => {
      await admin.put('/api/v1/fees/reminders/settings', { offsets: [-3, 0, 3, 7], hour: 10 });
    },
    rows: [
      {
        entity: 'fee_reminder_settings',
        action: 'update',
        before: { offsets: [-3, 0, 3, 7], hour: 10 },
        after: { offsets: [-2, 0, 5], hour: 9 },
      },
    ],
  }),
  'POST /api/v1/fees/reminders/run': async () => {
    const phone = uniquePhone();
    const student = await api.student({
      full_name: 'Audit Reminded',
      parent_phone: phone,
      parent_name: 'Audit Parent',
    });
    const familyId = await api.db.transaction((tx) => familyIdForPhone(tx, phone));
    await postCharge(api.db, familyId, student.id, 35_000, day(0));
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.post('/api/v1/fees/reminders/run', undefined, options),
      rows: [{ entity: 'messages', action: 'create', after: { kind: 'fee_reminder', recipient: phone } }],
    };
  },
};
