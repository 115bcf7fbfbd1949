/**
 * The family's WhatsApp consent and language on student records (ADR 023: the family is the parent
 * phone): what the students API answers, how a write on one child reaches every child with that phone,
 * the consent log and the activity rows, refusals that change nothing, and edits of one family at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFamily, setFamilyLanguage, setFamilyWhatsappConsent } from '../src/modules/families/consent';
import { expectRefusal } from './helpers/answers';
import { type TestClient, testClient } from './helpers/client';
import { uniquePhone } from './helpers/test-app';
import { workbook } from './helpers/workbooks';

let api: TestClient;
beforeAll(async () => {
  api = await testClient();
});
afterAll(async () => {
  await api?.close();
});

const ADMIN = 'Administrator';
const TEACHER = 'Tess Teacher';

interface FamilyRow {
  full_name: string;
  parent_whatsapp_opt_in: boolean;
  parent_language: string;
  parent_whatsapp_opt_in_changed_by: string | null;
  changed: boolean;
}

/** Every record with this parent phone, oldest first, as the database holds it. */
function familyRows(phone: string): Promise<FamilyRow[]> {
  return api.db.query<FamilyRow>(
    `SELECT full_name, parent_whatsapp_opt_in, parent_language, parent_whatsapp_opt_in_changed_by,
            parent_whatsapp_opt_in_changed_at IS NOT NULL AS changed
       FROM students WHERE parent_phone = $1 ORDER BY id`,
    [phone],
  );
}

/** What the family's records say, when they all say the same; throws when they disagree. */
async function familyState(phone: string) {
  const rows = await api.db.query<{ opt_in: boolean; language: string; changed_at: string | null; by: string | null }>(
    `SELECT DISTINCT parent_whatsapp_opt_in AS opt_in, parent_language AS language,
            parent_whatsapp_opt_in_changed_at::text AS changed_at, parent_whatsapp_opt_in_changed_by AS by
       FROM students WHERE parent_phone = $1`,
    [phone],
  );
  if (rows.length !== 1) throw new Error(`the family ${phone} disagrees: ${JSON.stringify(rows)}`);
  return rows[0] as { opt_in: boolean; language: string; changed_at: string | null; by: string | null };
}

function consentLog(phone: string) {
  return api.db.query<{ opted_in: boolean; source: string; changed_by: string; user_id: number | null }>(
    `SELECT opted_in, source, changed_by, changed_by_user_id AS user_id
       FROM whatsapp_consent_log WHERE phone = $1 ORDER BY id`,
    [phone],
  );
}

async function consentActivities(phone: string): Promise<string[]> {
  const rows = await api.db.query<{ description: string }>(
    "SELECT description FROM activities WHERE action = 'student.whatsapp_consent' AND description LIKE $1 ORDER BY id",
    [`%(${phone})`],
  );
  return rows.map((row) => row.description);
}

async function userId(username: string): Promise<number> {
  const [row] = await api.db.query<{ id: number }>('SELECT id FROM users WHERE username = $1', [username]);
  return row?.id as number;
}

/** A student through the API, as the admin unless `who` says otherwise; answers the record. */
async function add(fields: Record<string, unknown>, who: 'admin' | 'teacher' = 'admin') {
  const response = await api.as(who).post('/api/v1/students/', {
    full_name: 'Riya Sharma',
    class_name: '7',
    parent_name: 'Sunil Sharma',
    parent_phone: uniquePhone(),
    ...fields,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function edit(id: number, fields: Record<string, unknown>, who: 'admin' | 'teacher' = 'admin') {
  const response = await api.as(who).put(`/api/v1/students/${id}`, fields);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('the family fields on a student', () => {
  it('are answered by add, list and get: not opted in, English, never changed, by default', async () => {
    const created = await add({ full_name: 'Plain Default' });
    const defaults = {
      parent_whatsapp_opt_in: false,
      parent_language: 'en',
      parent_whatsapp_opt_in_changed_at: null,
      parent_whatsapp_opt_in_changed_by: null,
    };
    expect(created).toMatchObject(defaults);
    const listed = (await api.as('teacher').get('/api/v1/students/')).json();
    expect(listed.find((s: { id: number }) => s.id === created.id)).toEqual(created);
    expect((await api.as('teacher').get(`/api/v1/students/${created.id}`)).json()).toEqual(created);
    expect(await consentLog(created.parent_phone)).toEqual([]);
  });

  it('take the consent and language given on add, with who gave it and when, logged and in the feed', async () => {
    const before = Date.now();
    const created = await add({ full_name: 'Riya Sharma', parent_whatsapp_opt_in: true, parent_language: 'hi' });
    expect(created).toMatchObject({
      parent_whatsapp_opt_in: true,
      parent_language: 'hi',
      parent_whatsapp_opt_in_changed_by: ADMIN,
    });
    expect(Date.parse(created.parent_whatsapp_opt_in_changed_at)).toBeGreaterThanOrEqual(before - 1000);
    expect((await api.as('admin').get(`/api/v1/students/${created.id}`)).json()).toEqual(created);
    expect(await consentLog(created.parent_phone)).toEqual([
      { opted_in: true, source: 'staff', changed_by: ADMIN, user_id: await userId('admin') },
    ]);
    expect(await consentActivities(created.parent_phone)).toEqual([
      `${ADMIN} gave WhatsApp consent for the parent of Riya Sharma (${created.parent_phone})`,
    ]);
  });

  it('log nothing when an add says "not opted in" for a new family (nothing changed)', async () => {
    const created = await add({ parent_whatsapp_opt_in: false, parent_language: 'mr' });
    expect(created).toMatchObject({
      parent_whatsapp_opt_in: false,
      parent_language: 'mr',
      parent_whatsapp_opt_in_changed_at: null,
    });
    expect(await consentLog(created.parent_phone)).toEqual([]);
    expect(await consentActivities(created.parent_phone)).toEqual([]);
  });
});

describe('a family is its parent phone', () => {
  it("gives a new brother or sister the family's consent and language when the add names neither", async () => {
    const older = await add({ full_name: 'Kabir Mehta', parent_whatsapp_opt_in: true, parent_language: 'ta' });
    const younger = await add({ full_name: 'Tara Mehta', parent_phone: older.parent_phone });
    expect(younger).toMatchObject({
      parent_whatsapp_opt_in: true,
      parent_language: 'ta',
      parent_whatsapp_opt_in_changed_at: older.parent_whatsapp_opt_in_changed_at,
      parent_whatsapp_opt_in_changed_by: ADMIN,
    });
    expect(await consentLog(older.parent_phone)).toHaveLength(1);
  });

  it('sets what an add names for every child of the family, and says who withdrew the consent', async () => {
    const older = await add({ full_name: 'Omar Khan', parent_whatsapp_opt_in: true, parent_language: 'ur' });
    const younger = await add(
      {
        full_name: 'Sana Khan',
        parent_phone: older.parent_phone,
        parent_whatsapp_opt_in: false,
        parent_language: 'hi',
      },
      'teacher',
    );
    expect(younger).toMatchObject({
      parent_whatsapp_opt_in: false,
      parent_language: 'hi',
      parent_whatsapp_opt_in_changed_by: TEACHER,
    });
    expect(await familyRows(older.parent_phone)).toEqual([
      {
        full_name: 'Omar Khan',
        parent_whatsapp_opt_in: false,
        parent_language: 'hi',
        parent_whatsapp_opt_in_changed_by: TEACHER,
        changed: true,
      },
      {
        full_name: 'Sana Khan',
        parent_whatsapp_opt_in: false,
        parent_language: 'hi',
        parent_whatsapp_opt_in_changed_by: TEACHER,
        changed: true,
      },
    ]);
    expect(await consentLog(older.parent_phone)).toEqual([
      { opted_in: true, source: 'staff', changed_by: ADMIN, user_id: await userId('admin') },
      { opted_in: false, source: 'staff', changed_by: TEACHER, user_id: expect.any(Number) },
    ]);
    expect(await consentActivities(older.parent_phone)).toEqual([
      `${ADMIN} gave WhatsApp consent for the parent of Omar Khan (${older.parent_phone})`,
      `${TEACHER} withdrew WhatsApp consent for the parent of Sana Khan (${older.parent_phone})`,
    ]);
  });

  it("an edit of one child's consent or language changes every child with that phone, and nobody else", async () => {
    const first = await add({ full_name: 'Aditi Joshi' });
    const second = await add({ full_name: 'Varad Joshi', parent_phone: first.parent_phone });
    const neighbour = await add({ full_name: 'Not Family' });

    const edited = await edit(second.id, { parent_whatsapp_opt_in: true });
    expect(edited).toMatchObject({ parent_whatsapp_opt_in: true, parent_whatsapp_opt_in_changed_by: ADMIN });
    expect((await api.as('admin').get(`/api/v1/students/${first.id}`)).json()).toMatchObject({
      parent_whatsapp_opt_in: true,
      parent_language: 'en',
      parent_whatsapp_opt_in_changed_at: edited.parent_whatsapp_opt_in_changed_at,
      parent_whatsapp_opt_in_changed_by: ADMIN,
    });

    const relabelled = await edit(first.id, { parent_language: 'mr' }, 'teacher');
    // A language change is not a consent change: who gave the consent stays.
    expect(relabelled).toMatchObject({ parent_language: 'mr', parent_whatsapp_opt_in_changed_by: ADMIN });
    expect(await familyState(first.parent_phone)).toMatchObject({ opt_in: true, language: 'mr', by: ADMIN });
    expect(await familyState(neighbour.parent_phone)).toMatchObject({ opt_in: false, language: 'en', by: null });
    expect(await consentLog(first.parent_phone)).toHaveLength(1);
    expect(await consentLog(neighbour.parent_phone)).toEqual([]);
  });

  it('an edit that repeats the consent the family already has changes and logs nothing', async () => {
    const child = await add({ parent_whatsapp_opt_in: true });
    const edited = await edit(child.id, { ...child, full_name: 'Renamed Child' });
    expect(edited).toMatchObject({
      full_name: 'Renamed Child',
      parent_whatsapp_opt_in: true,
      parent_whatsapp_opt_in_changed_at: child.parent_whatsapp_opt_in_changed_at,
    });
    expect(await consentLog(child.parent_phone)).toHaveLength(1);
    expect(await consentActivities(child.parent_phone)).toHaveLength(1);
  });

  it("a child moved to another family's phone takes that family's consent and language, and leaves its own family as it was", async () => {
    const family = await add({ full_name: 'Gauri Patil', parent_whatsapp_opt_in: true, parent_language: 'mr' });
    const mover = await add({ full_name: 'Soham Patil', parent_language: 'bn' });
    const sibling = await add({ full_name: 'Left Behind', parent_phone: mover.parent_phone });

    const moved = await edit(mover.id, { full_name: mover.full_name, parent_phone: family.parent_phone });
    expect(moved).toMatchObject({
      parent_phone: family.parent_phone,
      parent_whatsapp_opt_in: true,
      parent_language: 'mr',
      parent_whatsapp_opt_in_changed_at: family.parent_whatsapp_opt_in_changed_at,
      parent_whatsapp_opt_in_changed_by: ADMIN,
    });
    expect(await familyState(family.parent_phone)).toMatchObject({ opt_in: true, language: 'mr' });
    expect(await familyState(sibling.parent_phone)).toMatchObject({ opt_in: false, language: 'bn', by: null });
    expect(await consentLog(family.parent_phone)).toHaveLength(1);
  });

  it("a child moved to another family's phone with consent and language named sets them for that whole family", async () => {
    const family = await add({ full_name: 'Isha Kale', parent_whatsapp_opt_in: true, parent_language: 'mr' });
    const mover = await add({ full_name: 'Mihir Kale' });
    const moved = await edit(
      mover.id,
      { parent_phone: family.parent_phone, parent_whatsapp_opt_in: false, parent_language: 'en' },
      'teacher',
    );
    expect(moved).toMatchObject({ parent_whatsapp_opt_in: false, parent_language: 'en' });
    expect(await familyState(family.parent_phone)).toMatchObject({ opt_in: false, language: 'en', by: TEACHER });
    expect((await consentLog(family.parent_phone)).map((row) => [row.opted_in, row.changed_by])).toEqual([
      [true, ADMIN],
      [false, TEACHER],
    ]);
    expect(await consentActivities(family.parent_phone)).toEqual([
      `${ADMIN} gave WhatsApp consent for the parent of Isha Kale (${family.parent_phone})`,
      `${TEACHER} withdrew WhatsApp consent for the parent of Mihir Kale (${family.parent_phone})`,
    ]);
  });

  it('a child moved to a phone no other child has keeps its consent and language', async () => {
    const child = await add({ parent_whatsapp_opt_in: true, parent_language: 'ta' });
    const phone = uniquePhone();
    const moved = await edit(child.id, { parent_phone: phone });
    expect(moved).toMatchObject({
      parent_phone: phone,
      parent_whatsapp_opt_in: true,
      parent_language: 'ta',
      parent_whatsapp_opt_in_changed_by: ADMIN,
    });
  });
});

describe('refusals change nothing', () => {
  it.each([
    ['parent_language', { parent_language: 'gu' }, 'parent_language: must be one of en, hi, mr, ta, bn or ur'],
    ['parent_language', { parent_language: 'Hindi' }, 'parent_language: must be one of en, hi, mr, ta, bn or ur'],
    ['parent_language', { parent_language: null }, 'parent_language: must be one of en, hi, mr, ta, bn or ur'],
    ['parent_whatsapp_opt_in', { parent_whatsapp_opt_in: 'yes' }, 'parent_whatsapp_opt_in: must be true or false'],
    ['parent_whatsapp_opt_in', { parent_whatsapp_opt_in: 1 }, 'parent_whatsapp_opt_in: must be true or false'],
  ])('an add with a bad %s: 422 naming the field, no student, no consent logged', async (_field, change, detail) => {
    const phone = uniquePhone();
    const response = await api.as('admin').post('/api/v1/students/', {
      full_name: 'Never Stored',
      class_name: '8',
      parent_name: 'Some Parent',
      parent_phone: phone,
      parent_whatsapp_opt_in: true,
      ...change,
    });
    expectRefusal(response, 422, detail);
    expect(await familyRows(phone)).toEqual([]);
    expect(await consentLog(phone)).toEqual([]);
  });

  it.each([
    [
      { parent_language: 'klingon', parent_whatsapp_opt_in: true },
      'parent_language: must be one of en, hi, mr, ta, bn or ur',
    ],
    [{ parent_whatsapp_opt_in: 'no', parent_language: 'hi' }, 'parent_whatsapp_opt_in: must be true or false'],
  ])('an edit with a bad value: 422, and the family keeps its consent and language (%j)', async (change, detail) => {
    const child = await add({ parent_whatsapp_opt_in: false, parent_language: 'bn' });
    const response = await api.as('admin').put(`/api/v1/students/${child.id}`, change);
    expectRefusal(response, 422, detail);
    expect(await familyState(child.parent_phone)).toMatchObject({ opt_in: false, language: 'bn', by: null });
    expect(await consentLog(child.parent_phone)).toEqual([]);
  });

  it("a teacher's move of a family with the parent app, consent included, is refused whole (403)", async () => {
    const coded = await api.family();
    const target = await add({ parent_language: 'ur' });
    const response = await api.as('teacher').put(`/api/v1/students/${coded.studentId}`, {
      parent_phone: target.parent_phone,
      parent_whatsapp_opt_in: true,
      parent_language: 'hi',
    });
    expect(response.statusCode).toBe(403);
    expect(await familyState(coded.phone)).toMatchObject({ opt_in: false, language: 'en' });
    expect(await familyState(target.parent_phone)).toMatchObject({ opt_in: false, language: 'ur' });
    expect(await consentLog(target.parent_phone)).toEqual([]);
    expect(await consentLog(coded.phone)).toEqual([]);
  });

  it('an unknown student: 404, and nothing logged', async () => {
    const before = await api.db.query('SELECT count(*)::int AS n FROM whatsapp_consent_log');
    const response = await api.as('admin').put('/api/v1/students/999999', { parent_whatsapp_opt_in: true });
    expect(response.statusCode).toBe(404);
    expect(await api.db.query('SELECT count(*)::int AS n FROM whatsapp_consent_log')).toEqual(before);
  });
});

describe('consent.ts, as the other modules call it', () => {
  it('sets consent for the whole family once, logs it with its source, and answers whether it changed', async () => {
    const child = await add({ full_name: 'Pia Rao' });
    await add({ full_name: 'Quin Rao', parent_phone: child.parent_phone });
    const phone = child.parent_phone;
    const stop = { source: 'whatsapp_reply' as const, changedBy: 'Parent (WhatsApp reply)' };
    const start = { source: 'parent_app' as const, changedBy: 'Parent (parent app)', userId: null };

    // A STOP on a family that was never opted in changes nothing, but is the parent's word: logged once.
    expect(await api.db.transaction((tx) => setFamilyWhatsappConsent(tx, phone, false, stop))).toBe(false);
    expect(await api.db.transaction((tx) => setFamilyWhatsappConsent(tx, phone, false, stop))).toBe(false);
    expect(await familyState(phone)).toMatchObject({ opt_in: false, by: 'Parent (WhatsApp reply)' });
    expect(await api.db.transaction((tx) => setFamilyWhatsappConsent(tx, phone, true, start))).toBe(true);
    expect(await api.db.transaction((tx) => setFamilyWhatsappConsent(tx, phone, true, start))).toBe(false);
    expect(await api.db.transaction((tx) => setFamilyWhatsappConsent(tx, phone, false, stop))).toBe(true);
    expect(await consentLog(phone)).toEqual([
      { opted_in: false, source: 'whatsapp_reply', changed_by: 'Parent (WhatsApp reply)', user_id: null },
      { opted_in: true, source: 'parent_app', changed_by: 'Parent (parent app)', user_id: null },
      { opted_in: false, source: 'whatsapp_reply', changed_by: 'Parent (WhatsApp reply)', user_id: null },
    ]);
    expect(await familyState(phone)).toMatchObject({ opt_in: false, by: 'Parent (WhatsApp reply)' });

    await api.db.transaction((tx) => setFamilyLanguage(tx, phone, 'bn'));
    expect(await readFamily(api.db, phone)).toEqual({ opted_in: false, language: 'bn' });
    expect(await familyState(phone)).toMatchObject({ language: 'bn' });
  });

  it('answers false and logs nothing for a phone no student has; readFamily answers undefined', async () => {
    const phone = uniquePhone();
    const change = { source: 'staff' as const, changedBy: ADMIN };
    expect(await api.db.transaction((tx) => setFamilyWhatsappConsent(tx, phone, true, change))).toBe(false);
    await api.db.transaction((tx) => setFamilyLanguage(tx, phone, 'hi'));
    expect(await consentLog(phone)).toEqual([]);
    expect(await readFamily(api.db, phone)).toBeUndefined();
  });
});

describe('edits of one family at the same moment', () => {
  it('leave every record of the family agreeing, and the records say what the last logged change says', async () => {
    const a = await add({ full_name: 'Race One' });
    const b = await add({ full_name: 'Race Two', parent_phone: a.parent_phone });
    const c = await add({ full_name: 'Race Three', parent_phone: a.parent_phone });
    for (let round = 0; round < 4; round += 1) {
      const answers = await Promise.all([
        api.as('admin').put(`/api/v1/students/${a.id}`, { parent_whatsapp_opt_in: true, parent_language: 'hi' }),
        api.as('teacher').put(`/api/v1/students/${b.id}`, { parent_whatsapp_opt_in: false, parent_language: 'ta' }),
        api.as('admin').put(`/api/v1/students/${c.id}`, { parent_language: 'mr' }),
      ]);
      expect(answers.map((response) => response.statusCode)).toEqual([200, 200, 200]);
      const state = await familyState(a.parent_phone);
      const log = await consentLog(a.parent_phone);
      expect(state.opt_in).toBe(log.at(-1)?.opted_in);
      expect(state.by).toBe(log.at(-1)?.changed_by);
      // Each change of consent is logged once, and the log alternates: never the same value twice running.
      for (let i = 1; i < log.length; i += 1) expect(log[i]?.opted_in).not.toBe(log[i - 1]?.opted_in);
    }
  });

  it('a brother or sister added while the family changes its consent agrees with the family', async () => {
    for (let round = 0; round < 4; round += 1) {
      const first = await add({ full_name: `Sibling Race ${round}` });
      const [edited, added] = await Promise.all([
        api.as('admin').put(`/api/v1/students/${first.id}`, { parent_whatsapp_opt_in: true, parent_language: 'bn' }),
        api.as('teacher').post('/api/v1/students/', {
          full_name: `Younger Race ${round}`,
          class_name: '7',
          parent_name: 'Same Parent',
          parent_phone: first.parent_phone,
        }),
      ]);
      expect([edited.statusCode, added.statusCode]).toEqual([200, 201]);
      expect(await familyState(first.parent_phone)).toMatchObject({ opt_in: true, language: 'bn', by: ADMIN });
      expect(await consentLog(first.parent_phone)).toHaveLength(1);
    }
  });

  it('a child moved into a family while its consent changes agrees with the family', async () => {
    for (let round = 0; round < 4; round += 1) {
      const family = await add({ full_name: `Move Target ${round}`, parent_whatsapp_opt_in: true });
      const mover = await add({ full_name: `Move Race ${round}`, parent_language: 'ur' });
      const [withdrawn, moved] = await Promise.all([
        api.as('admin').put(`/api/v1/students/${family.id}`, { parent_whatsapp_opt_in: false, parent_language: 'ta' }),
        api.as('admin').put(`/api/v1/students/${mover.id}`, { parent_phone: family.parent_phone }),
      ]);
      expect([withdrawn.statusCode, moved.statusCode]).toEqual([200, 200]);
      expect(await familyState(family.parent_phone)).toMatchObject({ opt_in: false, language: 'ta' });
    }
  });

  it('an import adding brothers and sisters while staff keep changing the family agrees with the family', async () => {
    for (let round = 0; round < 3; round += 1) {
      const first = await add({ full_name: `Import Race ${round}` });
      const file = workbook([
        ['first_name', 'last_name', 'class_name', 'parent_phone', 'parent_whatsapp_opt_in'],
        ...Array.from({ length: 40 }, (_, i) => [
          `Imported${round}`,
          `Sibling${i}`,
          '9',
          first.parent_phone,
          i === 39 && round === 0 ? 'yes' : '',
        ]),
      ]);
      const upload = api
        .as('admin')
        .upload('/api/v1/import/students/import', [{ field: 'file', filename: 'race.xlsx', content: file }]);
      let uploaded = false;
      void upload.finally(() => {
        uploaded = true;
      });
      // Staff keep changing the family until the import has answered, so some change meets its transaction.
      for (let i = 0; !uploaded && i < 500; i += 1) {
        const change =
          i % 2 === 0
            ? { parent_whatsapp_opt_in: true, parent_language: 'hi' }
            : { parent_whatsapp_opt_in: false, parent_language: 'ta' };
        const response = await api.as('teacher').put(`/api/v1/students/${first.id}`, change);
        expect(response.statusCode).toBe(200);
      }
      const imported = await upload;
      expect(imported.statusCode).toBe(200);
      expect(imported.json().imported_count).toBe(40);
      const state = await familyState(first.parent_phone);
      const log = await consentLog(first.parent_phone);
      expect(state.opt_in).toBe(log.at(-1)?.opted_in);
      expect(state.by).toBe(log.at(-1)?.changed_by);
    }
  });
});
