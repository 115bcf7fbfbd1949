import { familyIdForPhone } from '../../src/modules/fees';
import { admin, adminActor, api, type Scenario } from './audit';
import { uniquePhone } from './test-app';

/**
 * GST settings (ADR 057): one row, audited as it was and as it becomes; and a family's state, the
 * place of supply (ADR 063).
 */
export const GST_SCENARIOS: Record<string, () => Promise<Scenario>> = {
  'PUT /api/v1/fees/gst': async () => ({
    actor: adminActor(),
    way: 'console',
    send: (options) =>
      admin.put(
        '/api/v1/fees/gst',
        { registered: true, gstin: '27AAPFU0939F1ZV', rate_basis_points: 1800, address: '14 MG Road, Pune' },
        options,
      ),
    cleanUp: async () => {
      await admin.put('/api/v1/fees/gst', { registered: false, gstin: null });
    },
    rows: [
      {
        entity: 'fee_gst_settings',
        action: 'update',
        before: { registered: false },
        after: { registered: true, gstin: '27AAPFU0939F1ZV', address: '14 MG Road, Pune' },
      },
    ],
  }),
  'PUT /api/v1/fees/families/{family_id}/state': async () => {
    const phone = uniquePhone();
    await admin.post('/api/v1/students/', { full_name: 'Audit Karnataka', class_name: '7', parent_phone: phone });
    const familyId = await api.db.transaction((tx) => familyIdForPhone(tx, phone));
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.put(`/api/v1/fees/families/${familyId}/state`, { state_code: '29' }, options),
      rows: [
        { entity: 'fee_family_states', action: 'create', record_id: String(familyId), after: { state_code: '29' } },
      ],
    };
  },
  'PUT /api/v1/fees/families/{family_id}/gst-details': async () => {
    const phone = uniquePhone();
    await admin.post('/api/v1/students/', { full_name: 'Audit Billing', class_name: '7', parent_phone: phone });
    const familyId = await api.db.transaction((tx) => familyIdForPhone(tx, phone));
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) =>
        admin.put(
          `/api/v1/fees/families/${familyId}/gst-details`,
          { state_code: '29', billing_name: 'Audit Billing LLP', billing_address: '2 Residency Road, Bengaluru' },
          options,
        ),
      rows: [
        { entity: 'fee_family_states', action: 'create', record_id: String(familyId), after: { state_code: '29' } },
        {
          entity: 'fee_family_gst_details',
          action: 'create',
          record_id: String(familyId),
          after: { billing_name: 'Audit Billing LLP', billing_address: '2 Residency Road, Bengaluru' },
        },
      ],
    };
  },
};
