import { admin, adminActor, api, type Scenario } from './audit';

/**
 * The audit walk's scenarios for staff accounts (ADR 046) and a class's parent-app codes (ADR 047):
 * each change leaves its row in `users` or `parent_access`, the password's hash redacted.
 */
let made = 0;
async function newAdmin(): Promise<{ id: number; username: string }> {
  made += 1;
  const response = await admin.post('/api/v1/admins', {
    username: `walk-admin-${made}`,
    full_name: `Walk Admin ${made}`,
  });
  return response.json() as { id: number; username: string };
}

export const ACCOUNT_SCENARIOS: Record<string, () => Promise<Scenario>> = {
  'POST /api/v1/staff/{user_id}/reset-password': async () => {
    const other = await newAdmin();
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.post(`/api/v1/staff/${other.id}/reset-password`, undefined, options),
      rows: [
        {
          entity: 'users',
          action: 'update',
          record_id: String(other.id),
          // A new password (never in the log) and the old sessions ended.
          after: { password_hash: '[redacted]', token_version: 1 },
        },
      ],
    };
  },
  'POST /api/v1/admins': async () => ({
    actor: adminActor(),
    way: 'console',
    send: (options) => admin.post('/api/v1/admins', { username: 'walked-admin', full_name: 'Walked Admin' }, options),
    rows: [
      {
        entity: 'users',
        action: 'create',
        after: { username: 'walked-admin', role: 'admin', password_hash: '[redacted]' },
      },
    ],
  }),
  'POST /api/v1/admins/{id}/disable': async () => {
    const other = await newAdmin();
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.post(`/api/v1/admins/${other.id}/disable`, undefined, options),
      rows: [{ entity: 'users', action: 'update', record_id: String(other.id), before: { disabled_at: null } }],
    };
  },
  'POST /api/v1/admins/{id}/enable': async () => {
    const other = await newAdmin();
    await admin.post(`/api/v1/admins/${other.id}/disable`);
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.post(`/api/v1/admins/${other.id}/enable`, undefined, options),
      rows: [{ entity: 'users', action: 'update', record_id: String(other.id), after: { disabled_at: null } }],
    };
  },
  'DELETE /api/v1/admins/{id}': async () => {
    const other = await newAdmin();
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.delete(`/api/v1/admins/${other.id}`, options),
      rows: [{ entity: 'users', action: 'delete', record_id: String(other.id), before: { username: other.username } }],
    };
  },
  'POST /api/v1/parent-access/bulk': async () => {
    const student = await api.student({ class_name: '8', full_name: 'Bulk Code Child' });
    return {
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.post('/api/v1/parent-access/bulk', { class_name: '8' }, options),
      rows: [{ entity: 'parent_access', action: 'create', after: { phone: student.parent_phone } }],
    };
  },
};
