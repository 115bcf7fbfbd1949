/**
 * Parents onboarded in bulk (issue 28, item 6; ADR 047): access codes for a whole class in one
 * request and one transaction, families with a code skipped unless asked to regenerate, each code
 * with its slip's words in the family's language; idempotent and safe when two requests meet.
 */
import { describe, expect, it } from 'vitest';
import { admin, api, family, KNOWN_CODE, parentLogin, parentsApp, teacher } from './helpers/parents';
import { detailOf, uniquePhone } from './helpers/test-app';

parentsApp();

const bulk = (body: unknown, token = admin) => api.withToken(token).post('/api/v1/parent-access/bulk', body);

async function classOf(className: string, families: { names: string[]; language?: string }[]) {
  const phones: string[] = [];
  for (const { names, language } of families) {
    const phone = uniquePhone();
    phones.push(phone);
    for (const name of names) {
      await api.student({
        full_name: name,
        class_name: className,
        parent_phone: phone,
        parent_name: `Parent ${names[0]}`,
        ...(language ? { parent_language: language } : {}),
      });
    }
  }
  return phones;
}

async function accessRows(phones: string[]): Promise<{ phone: string; token_version: number }[]> {
  return api.db.query('SELECT phone, token_version FROM parent_access WHERE phone = ANY($1) ORDER BY phone', [phones]);
}

describe('codes for a whole class', () => {
  it('issues one code per family, each with its slip in the family’s language; a family with a code is skipped', async () => {
    const phones = await classOf('8', [
      { names: ['Asha Rao', 'Arjun Rao'] },
      { names: ['Bilal Khan'], language: 'ur' },
    ]);
    // A third family of the class already has its code.
    const existing = await family(['Chitra Iyer']);
    await api.db.query("UPDATE students SET class_name = '8' WHERE parent_phone = $1", [existing.phone]);

    const answer = await bulk({ class_name: '8' });
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json();
    const ours = body.issued.filter((f: { phone: string }) => phones.includes(f.phone));
    expect(ours).toHaveLength(2);
    const rao = ours.find((f: { phone: string }) => f.phone === phones[0]);
    expect(rao).toMatchObject({
      parent_name: 'Parent Asha Rao',
      children: ['Arjun Rao', 'Asha Rao'],
      language: 'en',
      code: expect.stringMatching(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/),
      replaced: false,
    });
    const centre = body.centre_name as string;
    expect(rao.slip.title).toBe(`${centre}: the parent app`);
    expect(rao.slip.steps[1]).toContain(rao.code);
    expect(rao.slip.share_text).toBe(
      `${centre}: sign in to the parent app with this link. Your access code is ${rao.code}.`,
    );
    const khan = ours.find((f: { phone: string }) => f.phone === phones[1]);
    expect(khan.slip.title).toBe(`${centre}: والدین کی ایپ`);
    expect(khan.slip.steps[2]).toContain('اطلاعات کی اجازت دیں');
    expect(body.skipped.map((f: { phone: string }) => f.phone)).toContain(existing.phone);

    // The codes sign in; the family that had one keeps it.
    expect((await parentLogin(rao.phone, rao.code)).statusCode).toBe(200);
    expect((await parentLogin(khan.phone, khan.code)).statusCode).toBe(200);
    expect((await parentLogin(existing.phone, KNOWN_CODE)).statusCode).toBe(200);

    const [activity] = await api.db.query<{ description: string }>(
      "SELECT description FROM activities WHERE action = 'parents.access_bulk' ORDER BY id DESC LIMIT 1",
    );
    expect(activity?.description).toMatch(
      /^Administrator issued parent app codes for Class 8: \d+ new, 0 replaced, \d+ famil/,
    );
    const audit = await api.db.query<{ after: string }>(
      "SELECT after::text FROM audit_log WHERE entity = 'parent_access' AND action = 'create' AND record_id = $1",
      [rao.phone],
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]?.after).not.toContain(rao.code.replace('-', ''));
  });

  it("one family's code carries the same share text, in the family's language (the dialog's WhatsApp link)", async () => {
    const [phone] = await classOf('10', [{ names: ['Farah Ali'], language: 'ur' }]);
    const [student] = await api.db.query<{ id: number }>('SELECT id FROM students WHERE parent_phone = $1', [phone]);
    const issued = await api.withToken(admin).post(`/api/v1/students/${student?.id}/parent-access`);
    expect(issued.statusCode).toBe(201);
    const { code, share_text } = issued.json();
    const [centre] = await api.db.query<{ value: string }>("SELECT value FROM settings WHERE key = 'centre_name'");
    const again = await bulk({ class_name: '10', regenerate: true });
    const slip = again.json().issued.find((f: { phone: string }) => f.phone === phone);
    // The class's words for the same family, with its own code: the same text but the code.
    expect(share_text).toBe((slip.slip.share_text as string).replace(slip.code, code));
    expect(share_text).toContain(code);
    expect(share_text).toContain(centre?.value ?? '');
    expect(share_text).toMatch(/[\u0600-\u06ff]/);
  });

  it('asked again, issues nothing: every family has its code', async () => {
    const phones = await classOf('9', [{ names: ['Dev Shah'] }, { names: ['Esha Shah'] }]);
    expect((await bulk({ class_name: '9' })).statusCode).toBe(200);
    const again = await bulk({ class_name: '9' });
    expect(again.statusCode).toBe(200);
    expect(again.json().issued).toEqual([]);
    expect(again.json().skipped.map((f: { phone: string }) => f.phone)).toEqual(expect.arrayContaining(phones));
    expect((await accessRows(phones)).map((row) => row.token_version)).toEqual([0, 0]);
  });

  it('two requests at once give each family one code', async () => {
    const phones = await classOf('10', [
      { names: ['Farah Ali'] },
      { names: ['Gopal Nair'] },
      { names: ['Hema Pillai'] },
    ]);
    const [a, b] = await Promise.all([bulk({ class_name: '10' }), bulk({ class_name: '10' })]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const issued = [...a.json().issued, ...b.json().issued].filter((f: { phone: string }) => phones.includes(f.phone));
    expect(issued.map((f: { phone: string }) => f.phone).sort()).toEqual([...phones].sort());
    expect(await accessRows(phones)).toHaveLength(3);
    // The code each family signs in with is the one answered for it.
    for (const f of issued) expect((await parentLogin(f.phone, f.code)).statusCode).toBe(200);
  });

  it('regenerate replaces every code: the old ones stop working and the devices are told', async () => {
    const phones = await classOf('7', [{ names: ['Isha Menon'] }]);
    const first = (await bulk({ class_name: '7' })).json().issued.find((f: { phone: string }) => f.phone === phones[0]);
    const again = await bulk({ class_name: '7', regenerate: true });
    expect(again.statusCode).toBe(200);
    const second = again.json().issued.find((f: { phone: string }) => f.phone === phones[0]);
    expect(second).toMatchObject({ replaced: true });
    expect(second.code).not.toBe(first.code);
    expect((await parentLogin(phones[0] as string, first.code)).statusCode).toBe(401);
    expect((await parentLogin(phones[0] as string, second.code)).statusCode).toBe(200);
    const notices = await api.db.query("SELECT 1 FROM messages WHERE kind = 'access_notice' AND recipient = $1", [
      phones[0],
    ]);
    expect(notices).toHaveLength(1);
  });

  it('is an admin’s; an unknown class or a bad body says what to fix', async () => {
    expect((await bulk({ class_name: '8' }, teacher)).statusCode).toBe(403);
    const empty = await bulk({ class_name: '12' });
    expect(empty.statusCode).toBe(404);
    expect(detailOf(empty)).toBe('Class 12 has no students who attend the centre: there is nobody to give codes to');
    const bad = await bulk({ class_name: '8', regenerate: 'yes' });
    expect(bad.statusCode).toBe(422);
    expect(detailOf(bad)).toBe('regenerate: must be true or false');
    expect((await bulk({})).statusCode).toBe(422);
  });
});
