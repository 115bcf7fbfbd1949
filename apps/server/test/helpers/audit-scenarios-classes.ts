import { admin, adminActor, type Scenario } from './audit';

/**
 * The audit walk's scenarios for the centre's classes and subjects (ADR 043): each change leaves its
 * row in `classes` or `subjects` (migration 0028).
 */
let made = 0;
/** A class or subject of the walk's own, named afresh each time. */
async function created(kind: 'classes' | 'subjects'): Promise<{ id: number; value: string }> {
  made += 1;
  const response = await admin.post(`/api/v1/${kind}`, { value: `Audit ${kind} ${made}` });
  return response.json() as { id: number; value: string };
}

const entity = (kind: 'classes' | 'subjects') => kind;

function scenariosOf(kind: 'classes' | 'subjects'): Record<string, () => Promise<Scenario>> {
  const path = `/api/v1/${kind}`;
  return {
    [`POST ${path}`]: async () => ({
      actor: adminActor(),
      way: 'console',
      send: (options) => admin.post(path, { value: `Walked ${kind}` }, options),
      rows: [{ entity: entity(kind), action: 'create', after: { value: `Walked ${kind}`, archived_at: null } }],
    }),
    [`PUT ${path}/{id}`]: async () => {
      const item = await created(kind);
      return {
        actor: adminActor(),
        way: 'console',
        send: (options) => admin.put(`${path}/${item.id}`, { label: 'Relabelled' }, options),
        rows: [
          { entity: entity(kind), action: 'update', before: { label: item.value }, after: { label: 'Relabelled' } },
        ],
      };
    },
    [`POST ${path}/{id}/archive`]: async () => {
      const item = await created(kind);
      return {
        actor: adminActor(),
        way: 'console',
        send: (options) => admin.post(`${path}/${item.id}/archive`, undefined, options),
        rows: [{ entity: entity(kind), action: 'update', before: { archived_at: null } }],
      };
    },
    [`POST ${path}/{id}/unarchive`]: async () => {
      const item = await created(kind);
      await admin.post(`${path}/${item.id}/archive`);
      return {
        actor: adminActor(),
        way: 'console',
        send: (options) => admin.post(`${path}/${item.id}/unarchive`, undefined, options),
        rows: [{ entity: entity(kind), action: 'update', after: { archived_at: null } }],
      };
    },
    [`PUT ${path}/order`]: async () => {
      const items = (await admin.get(path)).json() as { id: number }[];
      const ids = items.map((item) => item.id);
      // The first two change places.
      const order = [ids[1] as number, ids[0] as number, ...ids.slice(2)];
      return {
        actor: adminActor(),
        way: 'console',
        send: (options) => admin.put(`${path}/order`, { ids: order }, options),
        rows: [
          { entity: entity(kind), action: 'update', record_id: String(ids[0]), after: { sort_order: 2 } },
          { entity: entity(kind), action: 'update', record_id: String(ids[1]), after: { sort_order: 1 } },
        ],
      };
    },
    [`DELETE ${path}/{id}`]: async () => {
      const item = await created(kind);
      return {
        actor: adminActor(),
        way: 'console',
        send: (options) => admin.delete(`${path}/${item.id}`, options),
        rows: [{ entity: entity(kind), action: 'delete', record_id: String(item.id) }],
      };
    },
  };
}

export const CLASSES_SCENARIOS: Record<string, () => Promise<Scenario>> = {
  ...scenariosOf('classes'),
  ...scenariosOf('subjects'),
};
