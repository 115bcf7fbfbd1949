import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Database, PGlite, wrapPglite } from '../src/db/database';
import { isRead, isRowWrite, KeptValues, ReadCache, textBytes } from '../src/db/read-cache';

let client: PGlite;
let db: Database;
beforeAll(async () => {
  client = await PGlite.create();
  db = wrapPglite(client);
  await db.exec('CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL)');
  await db.query("INSERT INTO items VALUES (1, 'one'), (2, 'two')");
});
afterAll(async () => {
  await db.close();
});

const names = async () => JSON.parse(await db.queryJson('SELECT name FROM items ORDER BY id')) as { name: string }[];

describe('the embedded database read cache', () => {
  it('answers a repeated read without asking the database again', async () => {
    const sent = vi.spyOn(client, 'query');
    const first = await names();
    const again = await Promise.all([names(), names(), names()]);
    expect(again).toEqual([first, first, first]);
    expect(sent).toHaveBeenCalledTimes(1);
    sent.mockRestore();
  });

  it('shares one query between identical reads in flight', async () => {
    await db.query("UPDATE items SET name = 'uno' WHERE id = 1");
    const sent = vi.spyOn(client, 'query');
    const answers = await Promise.all(Array.from({ length: 8 }, () => names()));
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(sent).toHaveBeenCalledTimes(1);
    sent.mockRestore();
  });

  it('never answers from before a write statement or a committed transaction', async () => {
    expect((await names())[0]?.name).toBe('uno');
    await db.query("UPDATE items SET name = 'eins' WHERE id = 1");
    expect((await names())[0]?.name).toBe('eins');
    await db.transaction(async (tx) => {
      await tx.query("INSERT INTO items VALUES (3, 'three')");
      // Inside, reads see the transaction's own writes and are not kept.
      expect(JSON.parse(await tx.queryJson('SELECT name FROM items ORDER BY id'))).toHaveLength(3);
    });
    expect(await names()).toHaveLength(3);
    await db.exec('DELETE FROM items WHERE id = 3');
    expect(await names()).toHaveLength(2);
  });

  it('does not keep a read that was in flight while a write finished', async () => {
    const before = names();
    const write = db.query("UPDATE items SET name = 'one' WHERE id = 1");
    await Promise.all([before, write]);
    expect((await names())[0]?.name).toBe('one');
  });

  it('keeps its answers when a write statement changes no row', async () => {
    await names();
    const sent = vi.spyOn(client, 'query');
    await db.query("UPDATE items SET name = 'none' WHERE id = 99");
    await names();
    expect(sent).toHaveBeenCalledTimes(1);
    sent.mockRestore();
  });

  it('forgets its answers after a WITH that writes, whatever row count the driver reports', async () => {
    expect((await names())[0]?.name).toBe('one');
    await db.query(
      "WITH changed AS (UPDATE items SET name = 'ek' WHERE id = 1 RETURNING id) SELECT count(*) FROM changed",
    );
    expect((await names())[0]?.name).toBe('ek');
  });

  it('keeps rows from queryCached frozen, so no caller can change what another sees', async () => {
    const rows = await db.queryCached<{ n: number }>('SELECT count(*)::int AS n FROM items');
    expect(rows[0]?.n).toBe(2);
    expect(Object.isFrozen(rows[0])).toBe(true);
    await db.query("INSERT INTO items VALUES (4, 'four')");
    expect((await db.queryCached<{ n: number }>('SELECT count(*)::int AS n FROM items'))[0]?.n).toBe(3);
  });

  it('forgets a failed read, so the next one asks again', async () => {
    await expect(db.queryJson('SELECT nope FROM items')).rejects.toThrow();
    await db.exec('ALTER TABLE items ADD COLUMN nope int');
    expect(JSON.parse(await db.queryJson('SELECT nope FROM items ORDER BY id'))).toHaveLength(3);
  });
});

describe('ReadCache', () => {
  it('evicts the least recently used answers beyond its size, and never keeps one over half of it', async () => {
    const cache = new ReadCache(100);
    const loads: string[] = [];
    const get = (key: string, size: number) =>
      cache.get(
        key,
        async () => {
          loads.push(key);
          return size;
        },
        (value) => value,
      );
    await get('a', 40);
    await get('b', 40);
    await get('a', 40); // a is now the most recently used
    await get('c', 40); // over 100: b goes
    await get('a', 40);
    await get('b', 40);
    await get('huge', 60);
    await get('huge', 60);
    expect(loads).toEqual(['a', 'b', 'c', 'b', 'huge', 'huge']);
  });

  it('shares a load in flight, and keeps nothing that was in flight when it was invalidated', async () => {
    const cache = new ReadCache(1000);
    let loads = 0;
    let release: (value: number) => void = () => {};
    const slow = () =>
      cache.get(
        'k',
        () => {
          loads += 1;
          return new Promise<number>((resolve) => {
            release = resolve;
          });
        },
        () => 1,
      );
    const first = slow();
    const second = slow();
    expect(loads).toBe(1);
    cache.invalidate();
    release(1);
    expect(await first).toBe(1);
    expect(await second).toBe(1);
    // Loaded before the write finished: not kept, so the next read loads again.
    const third = slow();
    expect(loads).toBe(2);
    release(2);
    expect(await third).toBe(2);
  });

  it('tells reads from writes', () => {
    expect(isRead('  select 1')).toBe(true);
    expect(isRead("SELECT nextval('s')")).toBe(false);
    expect(isRead('WITH x AS (DELETE FROM t RETURNING *) SELECT * FROM x')).toBe(false);
    expect(isRead('UPDATE t SET a = 1')).toBe(false);
    expect(isRowWrite('UPDATE t SET a = 1')).toBe(true);
    expect(isRowWrite('WITH x AS (UPDATE t SET a = 1 RETURNING a) SELECT a FROM x')).toBe(false);
    expect(isRowWrite('ALTER TABLE t ADD COLUMN b int')).toBe(false);
  });
});

describe('KeptValues', () => {
  it('keeps nothing with no room, and nothing over its share of the room', async () => {
    let loads = 0;
    const load = async () => {
      loads += 1;
      return 'x';
    };
    const none = new KeptValues(0);
    await none.get('a', load, () => 1);
    await none.get('a', load, () => 1);
    expect(loads).toBe(2);
    const quarter = new KeptValues(100, 4);
    await quarter.get('big', load, () => 26);
    await quarter.get('big', load, () => 26);
    expect(loads).toBe(4);
    await quarter.get('small', load, () => 25);
    await quarter.get('small', load, () => 25);
    expect(loads).toBe(5);
    expect(quarter.size()).toBe(25);
  });

  it('does not keep a load that failed', async () => {
    const kept = new KeptValues(100);
    let loads = 0;
    const failing = () =>
      kept.get(
        'a',
        async () => {
          loads += 1;
          throw new Error('database unavailable');
        },
        () => 1,
      );
    await expect(failing()).rejects.toThrow('database unavailable');
    await expect(failing()).rejects.toThrow('database unavailable');
    expect(loads).toBe(2);
  });

  it('shares a load that keep refuses with those waiting for it, then keeps it not', async () => {
    const kept = new KeptValues(100);
    let loads = 0;
    const get = () =>
      kept.get(
        'a',
        async () => {
          loads += 1;
          return { moved: loads === 1 };
        },
        () => 1,
        (value) => !value.moved,
      );
    const [first, second] = await Promise.all([get(), get()]);
    expect(first).toBe(second);
    expect(first?.moved).toBe(true);
    expect(kept.size()).toBe(0);
    // Built again, and this one is kept.
    expect((await get()).moved).toBe(false);
    expect((await get()).moved).toBe(false);
    expect(loads).toBe(2);
    expect(kept.size()).toBe(1);
  });
});

describe('textBytes', () => {
  it('counts a byte a character for Latin-1 text and two as soon as one character is not', () => {
    expect(textBytes('')).toBe(0);
    expect(textBytes('{"name":"Aarav Sharma","date":"2026-11-25"}')).toBe(43);
    expect(textBytes('Zoë, café, ÿ')).toBe(12);
    expect(textBytes('{"name":"आरव"}')).toBe(28);
  });
});
