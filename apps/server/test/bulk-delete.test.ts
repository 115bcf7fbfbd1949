import { describe, expect, it } from 'vitest';
import { testClientForBlock } from './helpers/client';
import { detailOf } from './helpers/test-app';

/**
 * Students and teachers are deleted the same way: one at a time, or a selection all or nothing.
 * Each list is checked here with the same cases, so neither drifts from the other.
 */
const api = testClientForBlock();

interface List {
  path: string;
  table: string;
  noun: string;
  create: () => Promise<{ id: number; unique_id: string; full_name: string }>;
}

const LISTS: List[] = [
  {
    path: '/students',
    table: 'students',
    noun: 'student',
    create: () => api().student({ full_name: 'Meera Iyer' }),
  },
  {
    path: '/teachers',
    table: 'teachers',
    noun: 'teacher',
    create: () => api().teacher({ first_name: 'Kiran', last_name: 'Das' }),
  },
];

function call(method: 'POST' | 'DELETE', url: string, payload?: unknown) {
  return api().as('admin').request(method, `/api/v1${url}`, payload);
}

async function existing(table: string, ids: number[]): Promise<number[]> {
  const rows = await api().db.query<{ id: number }>(`SELECT id FROM ${table} WHERE id = ANY($1::int[]) ORDER BY id`, [
    ids,
  ]);
  return rows.map((row) => row.id);
}

async function latestActivity(): Promise<{ action: string; description: string }> {
  const rows = await api().db.query<{ action: string; description: string }>(
    'SELECT action, description FROM activities ORDER BY id DESC LIMIT 1',
  );
  return rows[0] as { action: string; description: string };
}

const capitalised = (noun: string) => noun.charAt(0).toUpperCase() + noun.slice(1);

describe.each(LISTS)('deleting $table', ({ path, table, noun, create }) => {
  it('deletes one, records who did it, and answers 404 the second time', async () => {
    const record = await create();
    const response = await call('DELETE', `${path}/${record.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: `${capitalised(noun)} deleted successfully` });
    expect(await existing(table, [record.id])).toEqual([]);
    expect(await latestActivity()).toEqual({
      action: `${noun}.deleted`,
      description: `Administrator deleted ${noun} ${record.full_name} (${record.unique_id})`,
    });
    const again = await call('DELETE', `${path}/${record.id}`);
    expect(again.statusCode).toBe(404);
    expect(detailOf(again)).toBe(`${capitalised(noun)} with id ${record.id} was not found`);
  });

  it('deletes a selection, counting an id listed twice once, with one activity row', async () => {
    const a = await create();
    const b = await create();
    const response = await call('POST', `${path}/delete-multiple`, [b.id, a.id, b.id]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ deleted_count: 2, message: `Successfully deleted 2 ${noun}(s)` });
    expect(await existing(table, [a.id, b.id])).toEqual([]);
    expect(await latestActivity()).toEqual({
      action: `${noun}.deleted`,
      description: `Administrator deleted 2 ${noun}s`,
    });
  });

  it('says "1 <noun>" for a selection of one', async () => {
    const a = await create();
    const response = await call('POST', `${path}/delete-multiple`, [a.id]);
    expect(response.json()).toEqual({ deleted_count: 1, message: `Successfully deleted 1 ${noun}(s)` });
    expect((await latestActivity()).description).toBe(`Administrator deleted 1 ${noun}`);
  });

  it('deletes nobody when one id is unknown, naming it', async () => {
    const a = await create();
    const before = await latestActivity();
    const response = await call('POST', `${path}/delete-multiple`, [a.id, 999_991]);
    expect(response.statusCode).toBe(404);
    expect(detailOf(response)).toBe(
      `${capitalised(noun)} not found: id 999991. Nothing was deleted; reload the list and try again`,
    );
    expect(await existing(table, [a.id])).toEqual([a.id]);
    expect(await latestActivity()).toEqual(before);
  });

  it('names the first twenty unknown ids and no more', async () => {
    const a = await create();
    const unknown = Array.from({ length: 25 }, (_, i) => 900_000 + i);
    const response = await call('POST', `${path}/delete-multiple`, [a.id, ...unknown]);
    expect(response.statusCode).toBe(404);
    expect(detailOf(response)).toBe(
      `${capitalised(noun)}s not found: id ${unknown.slice(0, 20).join(', ')}, …. Nothing was deleted; reload the list and try again`,
    );
    expect(await existing(table, [a.id])).toEqual([a.id]);
  });

  it('records who cleared the list and the backup taken first', async () => {
    await create();
    const response = await call('DELETE', `${path}/clear-all`);
    expect(response.statusCode).toBe(200);
    const { deleted_count, backup_file } = response.json();
    expect(deleted_count).toBeGreaterThan(0);
    const file = backup_file.split('/').at(-1);
    const activity = await latestActivity();
    expect(activity.action).toBe(`${noun}.cleared`);
    expect(activity.description).toMatch(
      new RegExp(
        `^Administrator cleared all ${noun}s \\(${deleted_count} ${noun}s? .*deleted; backup ${file} taken first\\)$`,
      ),
    );
    expect(await api().db.query(`SELECT id FROM ${table}`)).toEqual([]);
  });
});
