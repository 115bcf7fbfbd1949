import { admin, adminActor, type Scenario } from './audit';

/** GST settings (ADR 057): one row, audited as it was and as it becomes. */
export const GST_SCENARIOS: Record<string, () => Promise<Scenario>> = {
  'PUT /api/v1/fees/gst': async () => ({
    actor: adminActor(),
    way: 'console',
    send: (options) =>
      admin.put('/api/v1/fees/gst', { registered: true, gstin: '27AAPFU0939F1ZV', rate_basis_points: 1800 }, options),
    cleanUp: async () => {
      await admin.put('/api/v1/fees/gst', { registered: false, gstin: null });
    },
    rows: [
      {
        entity: 'fee_gst_settings',
        action: 'update',
        before: { registered: false },
        after: { registered: true, gstin: '27AAPFU0939F1ZV' },
      },
    ],
  }),
};
