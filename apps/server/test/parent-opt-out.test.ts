/**
 * A parent's own opt-out stands (issue 26, item 1; docs/whatsapp.md section 5, ADR 023): once a parent
 * turned WhatsApp off themselves (a STOP reply, the parent app), no staff edit, added brother or sister,
 * move onto the family's phone or import row turns it on again: 409 (validation.parent_opted_out, on
 * the field), nothing written. Staff may still turn it off; the parent's START or the app's switch
 * gives it back to staff. A STOP racing a staff opt-in never ends opted in.
 */
import { ERROR_CODES, formatErrorText } from '@tuitiondesk/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setFamilyWhatsappConsent } from '../src/modules/families/consent';
import { waitFor } from './helpers/async';
import { type TestClient, testClient } from './helpers/client';
import { uniquePhone } from './helpers/test-app';
import { callbackOf, postCallback, textFrom, whatsappConfig } from './helpers/whatsapp';
import { workbook } from './helpers/workbooks';

let api: TestClient;
beforeAll(async () => {
  // Nothing is sent: the Cloud API address only has to exist for the webhook to take STOP and START.
  api = await testClient({ config: { whatsapp: whatsappConfig('http://127.0.0.1:9/v21.0') } });
});
afterAll(async () => {
  await api?.close();
});

const BY_REPLY =
  'parent_whatsapp_opt_in: cannot be turned on by the centre: the parent turned WhatsApp messages off by replying STOP. Only the parent can turn them on again, by replying START on WhatsApp or in the parent app';
const BY_APP =
  'parent_whatsapp_opt_in: cannot be turned on by the centre: the parent turned WhatsApp messages off in the parent app. Only the parent can turn them on again, by replying START on WhatsApp or in the parent app';

/** The 409, its code and params, and its detail made from them. */
function expectParentOptOut(response: LightMyRequestResponse, how: 'whatsapp_reply' | 'parent_app'): void {
  expect(response.statusCode, response.body).toBe(409);
  const body = response.json();
  expect(body).toEqual({
    detail: how === 'parent_app' ? BY_APP : BY_REPLY,
    code: 'validation.parent_opted_out',
    params: { field: 'parent_whatsapp_opt_in', how },
  });
  expect(formatErrorText(ERROR_CODES['validation.parent_opted_out'], body.params)).toBe(body.detail);
}

async function add(fields: Record<string, unknown> = {}, who: 'admin' | 'teacher' = 'admin') {
  return api.as(who).post('/api/v1/students/', {
    full_name: 'Riya Sharma',
    class_name: '7',
    parent_name: 'Sunil Sharma',
    parent_phone: uniquePhone(),
    ...fields,
  });
}

async function added(fields: Record<string, unknown> = {}) {
  const response = await add(fields);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: number; parent_phone: string; full_name: string };
}

async function reply(phone: string, word: string): Promise<void> {
  const response = await postCallback(api.anonymous(), callbackOf({ messages: [textFrom(phone, word)] }));
  expect(response.statusCode).toBe(200);
}

/** The family's records, oldest first, as the database holds them. */
function family(phone: string) {
  return api.db.query<{ full_name: string; opted_in: boolean; by: string | null }>(
    `SELECT full_name, parent_whatsapp_opt_in AS opted_in, parent_whatsapp_opt_in_changed_by AS by
       FROM students WHERE parent_phone = $1 ORDER BY id`,
    [phone],
  );
}

function consentLog(phone: string) {
  return api.db.query<{ opted_in: boolean; source: string }>(
    'SELECT opted_in, source FROM whatsapp_consent_log WHERE phone = $1 ORDER BY id',
    [phone],
  );
}

async function consentActivities(phone: string): Promise<number> {
  const [row] = await api.db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM activities WHERE action = 'student.whatsapp_consent' AND description LIKE $1",
    [`%(${phone})`],
  );
  return row?.n ?? 0;
}

/** A family of two children, opted in by the admin, that then replied STOP. */
async function stoppedFamily() {
  const first = await added({ full_name: 'Kabir Mehta', parent_whatsapp_opt_in: true });
  const second = await added({ full_name: 'Tara Mehta', parent_phone: first.parent_phone });
  await reply(first.parent_phone, 'STOP');
  expect((await family(first.parent_phone)).map((row) => row.opted_in)).toEqual([false, false]);
  return { first, second, phone: first.parent_phone };
}

describe('after a STOP reply', () => {
  it.each(['admin', 'teacher'] as const)(
    'an edit by the %s turning WhatsApp on is refused (409), nothing changes',
    async (who) => {
      const { first, second, phone } = await stoppedFamily();
      const activities = await consentActivities(phone);
      for (const student of [first, second]) {
        expectParentOptOut(
          await api.as(who).put(`/api/v1/students/${student.id}`, { parent_whatsapp_opt_in: true }),
          'whatsapp_reply',
        );
      }
      // With other changes in the same edit: refused whole.
      const renamed = await api.as(who).put(`/api/v1/students/${first.id}`, {
        full_name: 'Renamed Meanwhile',
        parent_language: 'hi',
        parent_whatsapp_opt_in: true,
      });
      expectParentOptOut(renamed, 'whatsapp_reply');
      expect(await family(phone)).toEqual([
        { full_name: 'Kabir Mehta', opted_in: false, by: 'Parent (WhatsApp reply)' },
        { full_name: 'Tara Mehta', opted_in: false, by: 'Parent (WhatsApp reply)' },
      ]);
      expect(await consentLog(phone)).toEqual([
        { opted_in: true, source: 'staff' },
        { opted_in: false, source: 'whatsapp_reply' },
      ]);
      expect(await consentActivities(phone)).toBe(activities);
    },
  );

  it('a brother or sister added with WhatsApp on is refused (409) and not added; added without it, they join opted out', async () => {
    const { phone } = await stoppedFamily();
    expectParentOptOut(
      await add({ full_name: 'Third Child', parent_phone: phone, parent_whatsapp_opt_in: true }),
      'whatsapp_reply',
    );
    expect((await family(phone)).map((row) => row.full_name)).toEqual(['Kabir Mehta', 'Tara Mehta']);
    const joined = await added({ full_name: 'Third Child', parent_phone: phone });
    expect(joined).toMatchObject({
      parent_whatsapp_opt_in: false,
      parent_whatsapp_opt_in_changed_by: 'Parent (WhatsApp reply)',
    });
    expect(await consentLog(phone)).toHaveLength(2);
  });

  it('staff may still turn it off (nothing to change), and edits that do not name it go through', async () => {
    const { first, phone } = await stoppedFamily();
    const off = await api.as('teacher').put(`/api/v1/students/${first.id}`, { parent_whatsapp_opt_in: false });
    expect(off.statusCode).toBe(200);
    const renamed = await api
      .as('teacher')
      .put(`/api/v1/students/${first.id}`, { full_name: 'Kabir M', parent_language: 'mr' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({
      full_name: 'Kabir M',
      parent_language: 'mr',
      parent_whatsapp_opt_in: false,
    });
    expect(await consentLog(phone)).toHaveLength(2);
  });

  it("the parent's START gives the family back to staff: off and on again", async () => {
    const { first, phone } = await stoppedFamily();
    await reply(phone, 'START');
    expect((await family(phone)).map((row) => row.opted_in)).toEqual([true, true]);
    expect(
      (await api.as('teacher').put(`/api/v1/students/${first.id}`, { parent_whatsapp_opt_in: false })).statusCode,
    ).toBe(200);
    const on = await api.as('teacher').put(`/api/v1/students/${first.id}`, { parent_whatsapp_opt_in: true });
    expect(on.statusCode, on.body).toBe(200);
    expect((await family(phone)).map((row) => row.opted_in)).toEqual([true, true]);
    expect((await consentLog(phone)).map((row) => row.source)).toEqual([
      'staff',
      'whatsapp_reply',
      'whatsapp_reply',
      'staff',
      'staff',
    ]);
    // And a second STOP takes it back from staff again.
    await reply(phone, 'STOP');
    expectParentOptOut(
      await api.as('admin').put(`/api/v1/students/${first.id}`, { parent_whatsapp_opt_in: true }),
      'whatsapp_reply',
    );
  });
});

describe('after the parent turned WhatsApp off in the parent app', () => {
  it('staff cannot turn it on (409, saying so); the app turning it on again gives it back to staff', async () => {
    const coded = await api.family({ parent_whatsapp_opt_in: true });
    const parent = api.as('parent', coded);
    expect((await parent.put('/api/v1/parent/whatsapp', { opted_in: false })).statusCode).toBe(200);
    const staff = api.as('admin');
    expectParentOptOut(
      await staff.put(`/api/v1/students/${coded.studentId}`, { parent_whatsapp_opt_in: true }),
      'parent_app',
    );
    expect((await family(coded.phone)).map((row) => row.opted_in)).toEqual([false]);

    expect((await parent.put('/api/v1/parent/whatsapp', { opted_in: true })).statusCode).toBe(200);
    expect((await staff.put(`/api/v1/students/${coded.studentId}`, { parent_whatsapp_opt_in: false })).statusCode).toBe(
      200,
    );
    expect((await staff.put(`/api/v1/students/${coded.studentId}`, { parent_whatsapp_opt_in: true })).statusCode).toBe(
      200,
    );
    expect((await family(coded.phone)).map((row) => row.opted_in)).toEqual([true]);
  });

  it("a STOP after the app's opt-in, or the app's opt-out after a START: the parent's last word counts", async () => {
    const coded = await api.family({});
    const parent = api.as('parent', coded);
    const staffOn = () =>
      api.as('teacher').put(`/api/v1/students/${coded.studentId}`, { parent_whatsapp_opt_in: true });
    expect((await parent.put('/api/v1/parent/whatsapp', { opted_in: true })).statusCode).toBe(200);
    await reply(coded.phone, 'STOP');
    expectParentOptOut(await staffOn(), 'whatsapp_reply');
    await reply(coded.phone, 'START');
    expect((await parent.put('/api/v1/parent/whatsapp', { opted_in: false })).statusCode).toBe(200);
    expectParentOptOut(await staffOn(), 'parent_app');
  });
});

describe("a family's phone changing", () => {
  it('a child moved onto a phone whose parent said STOP, with consent of its own, ends opted out', async () => {
    const { phone } = await stoppedFamily();
    const mover = await added({ full_name: 'Moving Child', parent_whatsapp_opt_in: true });
    const moved = await api.as('teacher').put(`/api/v1/students/${mover.id}`, { parent_phone: phone });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ parent_phone: phone, parent_whatsapp_opt_in: false });
    expect((await family(phone)).map((row) => row.opted_in)).toEqual([false, false, false]);
  });

  it("the family's only child moved away and back cannot bring WhatsApp back on", async () => {
    const only = await added({ full_name: 'Only Child', parent_whatsapp_opt_in: true });
    const stopped = only.parent_phone;
    await reply(stopped, 'STOP');
    const elsewhere = uniquePhone();
    // Away: a phone nobody said STOP from, where staff may record its parent's agreement.
    expect((await api.as('teacher').put(`/api/v1/students/${only.id}`, { parent_phone: elsewhere })).statusCode).toBe(
      200,
    );
    const on = await api.as('teacher').put(`/api/v1/students/${only.id}`, { parent_whatsapp_opt_in: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({ parent_phone: elsewhere, parent_whatsapp_opt_in: true });
    // Back, asking for WhatsApp on: refused whole, the child stays where it was.
    expectParentOptOut(
      await api
        .as('teacher')
        .put(`/api/v1/students/${only.id}`, { parent_phone: stopped, parent_whatsapp_opt_in: true }),
      'whatsapp_reply',
    );
    expect(await api.db.query('SELECT parent_phone FROM students WHERE id = $1', [only.id])).toEqual([
      { parent_phone: elsewhere },
    ]);
    // Back, saying nothing of WhatsApp: the phone's parent said STOP, so off, as the parent left it.
    const back = await api.as('teacher').put(`/api/v1/students/${only.id}`, { parent_phone: stopped });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toMatchObject({
      parent_phone: stopped,
      parent_whatsapp_opt_in: false,
      parent_whatsapp_opt_in_changed_by: 'Parent (WhatsApp reply)',
    });
    expect(await consentLog(stopped)).toEqual([
      { opted_in: true, source: 'staff' },
      { opted_in: false, source: 'whatsapp_reply' },
    ]);
  });

  it('a new student on the phone of a family whose children were all deleted after its STOP: 409 with WhatsApp on', async () => {
    const only = await added({ parent_whatsapp_opt_in: true });
    await reply(only.parent_phone, 'STOP');
    expect((await api.as('admin').delete(`/api/v1/students/${only.id}`)).statusCode).toBe(200);
    expectParentOptOut(await add({ parent_phone: only.parent_phone, parent_whatsapp_opt_in: true }), 'whatsapp_reply');
    expect(await family(only.parent_phone)).toEqual([]);
  });
});

const HEADER = ['first_name', 'last_name', 'class_name', 'parent_phone', 'WhatsApp consent'];

function upload(file: Buffer, query = '') {
  return api
    .as('admin')
    .upload(`/api/v1/import/students/import${query}`, [{ field: 'file', filename: 'stop.xlsx', content: file }]);
}

/** An import's row error for a yes to a family whose parent turned WhatsApp off. */
function rowError(row: number, how: 'by replying STOP' | 'in the parent app' = 'by replying STOP') {
  return {
    row,
    error: `WhatsApp consent: cannot be turned on by the centre: the parent turned WhatsApp messages off ${how}. Only the parent can turn them on again, by replying START on WhatsApp or in the parent app; leave the cell empty or write no to import this row`,
  };
}

describe('an import', () => {
  it('refuses a row turning WhatsApp on for a family that said STOP, with the reason, and imports the rest', async () => {
    const { phone } = await stoppedFamily();
    const fresh = uniquePhone();
    const file = workbook([
      HEADER,
      ['Imported', 'Yes', '8', phone, 'yes'],
      ['Imported', 'Empty', '8', phone, ''],
      ['Imported', 'No', '9', phone, 'no'],
      ['New', 'Family', '9', fresh, 'yes'],
    ]);
    const expected = {
      imported_count: 3,
      errors: [rowError(2)],
    };
    const checked = await upload(file, '?dry_run=true');
    expect(checked.json()).toMatchObject(expected);
    expect(checked.json().imported_students.map((s: { name: string }) => s.name)).toEqual([
      'Imported Empty',
      'Imported No',
      'New Family',
    ]);
    const imported = await upload(file);
    expect(imported.statusCode).toBe(200);
    expect(imported.json()).toMatchObject({
      ...expected,
      message: 'Imported 3 students. 1 row(s) had errors and were skipped.',
    });
    expect((await family(phone)).map((row) => [row.full_name, row.opted_in])).toEqual([
      ['Kabir Mehta', false],
      ['Tara Mehta', false],
      ['Imported Empty', false],
      ['Imported No', false],
    ]);
    expect(await consentLog(phone)).toEqual([
      { opted_in: true, source: 'staff' },
      { opted_in: false, source: 'whatsapp_reply' },
    ]);
    expect((await family(fresh)).map((row) => row.opted_in)).toEqual([true]);
    expect(await consentLog(fresh)).toEqual([{ opted_in: true, source: 'import' }]);
  });

  it("after the parent's START the same row imports and sets the family's consent", async () => {
    const { first, phone } = await stoppedFamily();
    await reply(phone, 'START');
    const off = await api.as('admin').put(`/api/v1/students/${first.id}`, { parent_whatsapp_opt_in: false });
    expect(off.statusCode).toBe(200);
    const imported = await upload(workbook([HEADER, ['After', 'Start', '8', phone, 'yes']]));
    expect(imported.json()).toMatchObject({ imported_count: 1, errors: [] });
    expect((await family(phone)).map((row) => row.opted_in)).toEqual([true, true, true]);
    expect((await consentLog(phone)).at(-1)).toEqual({ opted_in: true, source: 'import' });
  });
});

describe('a STOP arriving while staff turn WhatsApp on', () => {
  it('never ends opted in: the staff opt-in comes first and the STOP after it, or the opt-in is refused', async () => {
    const outcomes = new Set<number>();
    for (let round = 0; round < 10; round += 1) {
      // A family never opted in: a STOP that comes first changes nothing, yet it is the parent's word.
      const child = await added({ full_name: `Race ${round}` });
      await added({ full_name: `Race Sibling ${round}`, parent_phone: child.parent_phone });
      const staffOn = () => api.as('teacher').put(`/api/v1/students/${child.id}`, { parent_whatsapp_opt_in: true });
      const stop = () =>
        postCallback(api.anonymous(), callbackOf({ messages: [textFrom(child.parent_phone, 'STOP')] }));
      const [edit, stopped] =
        round % 2 === 0
          ? await Promise.all([staffOn(), stop()])
          : await Promise.all([stop(), staffOn()]).then(([s, e]) => [e, s] as const);
      expect(stopped.statusCode).toBe(200);
      expect([200, 409]).toContain(edit.statusCode);
      outcomes.add(edit.statusCode);
      expect((await family(child.parent_phone)).map((row) => row.opted_in)).toEqual([false, false]);
      // The log tells the same order: the opt-in (when it was made) before the STOP.
      const stopLogged = { opted_in: false, source: 'whatsapp_reply' };
      if (edit.statusCode === 200) {
        expect(await consentLog(child.parent_phone)).toEqual([{ opted_in: true, source: 'staff' }, stopLogged]);
      } else {
        expectParentOptOut(edit, 'whatsapp_reply');
        expect(await consentLog(child.parent_phone)).toEqual([stopLogged]);
      }
    }
    expect(outcomes.size).toBeGreaterThan(0);
  });

  it('the same for the parent app turning it off while staff and an import turn it on', async () => {
    for (let round = 0; round < 6; round += 1) {
      const coded = await api.family({ full_name: `App Race ${round}` });
      const parent = api.as('parent', coded);
      // The parent turned it on in the app, then staff turned it off: staff may turn it on again.
      expect((await parent.put('/api/v1/parent/whatsapp', { opted_in: true })).statusCode).toBe(200);
      const staffOff = await api
        .as('admin')
        .put(`/api/v1/students/${coded.studentId}`, { parent_whatsapp_opt_in: false });
      expect(staffOff.statusCode).toBe(200);
      const [edit, off, imported] = await Promise.all([
        api.as('teacher').put(`/api/v1/students/${coded.studentId}`, { parent_whatsapp_opt_in: true }),
        parent.put('/api/v1/parent/whatsapp', { opted_in: false }),
        upload(workbook([HEADER, ['Imported', `Sibling ${round}`, '8', coded.phone, 'yes']])),
      ]);
      expect(off.statusCode).toBe(200);
      expect([200, 409]).toContain(edit.statusCode);
      if (edit.statusCode === 409) expectParentOptOut(edit, 'parent_app');
      expect(imported.statusCode).toBe(200);
      expect([
        { imported_count: 1, errors: [] },
        { imported_count: 0, errors: [rowError(2, 'in the parent app')] },
      ]).toContainEqual({ imported_count: imported.json().imported_count, errors: imported.json().errors });
      expect((await family(coded.phone)).every((row) => !row.opted_in)).toBe(true);
      expect((await consentLog(coded.phone)).at(-1)).toEqual({ opted_in: false, source: 'parent_app' });
    }
  });

  /**
   * One transaction held open inside the family's turn while the other call arrives: on PostgreSQL the
   * other call really waits for the family's lock (seen in pg_locks); the embedded database runs it after.
   */
  async function whileHeld(
    hold: (tx: Parameters<Parameters<typeof api.db.transaction>[0]>[0]) => Promise<void>,
    other: () => Promise<LightMyRequestResponse>,
  ) {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered = () => {};
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const held = api.db.transaction(async (tx) => {
      await hold(tx);
      entered();
      await released;
    });
    await inside;
    const answer = other();
    if (process.env.TEST_DATABASE_URL) {
      await waitFor('the other call to wait for the family', async () => {
        const [row] = await api.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
        );
        return (row?.n ?? 0) > 0;
      });
    } else await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    await held;
    return answer;
  }

  it('a staff opt-in arriving while a STOP is being applied waits for it, then is refused', async () => {
    const child = await added({ full_name: 'Held Stop', parent_whatsapp_opt_in: true });
    const phone = child.parent_phone;
    await api.db.transaction((tx) =>
      setFamilyWhatsappConsent(tx, phone, false, { source: 'staff', changedBy: 'Administrator' }),
    );
    const edit = await whileHeld(
      async (tx) => {
        expect(
          await setFamilyWhatsappConsent(tx, phone, false, {
            source: 'whatsapp_reply',
            changedBy: 'Parent (WhatsApp reply)',
          }),
        ).toBe(false);
      },
      () => api.as('teacher').put(`/api/v1/students/${child.id}`, { parent_whatsapp_opt_in: true }),
    );
    expectParentOptOut(edit, 'whatsapp_reply');
    expect(await family(phone)).toEqual([{ full_name: 'Held Stop', opted_in: false, by: 'Parent (WhatsApp reply)' }]);
    expect((await consentLog(phone)).map((row) => row.source)).toEqual(['staff', 'staff', 'whatsapp_reply']);
  });

  it('a STOP arriving while a staff opt-in is being applied waits for it, and ends the family opted out', async () => {
    const child = await added({ full_name: 'Held Opt-in' });
    const phone = child.parent_phone;
    const stop = await whileHeld(
      async (tx) => {
        expect(await setFamilyWhatsappConsent(tx, phone, true, { source: 'staff', changedBy: 'Administrator' })).toBe(
          true,
        );
      },
      () => postCallback(api.anonymous(), callbackOf({ messages: [textFrom(phone, 'STOP')] })),
    );
    expect(stop.statusCode).toBe(200);
    expect(await family(phone)).toEqual([{ full_name: 'Held Opt-in', opted_in: false, by: 'Parent (WhatsApp reply)' }]);
    expect(await consentLog(phone)).toEqual([
      { opted_in: true, source: 'staff' },
      { opted_in: false, source: 'whatsapp_reply' },
    ]);
  });
});
