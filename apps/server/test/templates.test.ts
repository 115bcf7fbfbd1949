import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readableDateIn, today } from '../src/lib/time';
import { findTemplateForSending } from '../src/modules/templates/repository';
import { expectRefusal } from './helpers/answers';
import { type TestClient, testClient } from './helpers/client';
import { uniquePhone } from './helpers/test-app';

let api: TestClient;
beforeAll(async () => {
  api = await testClient();
});
afterAll(async () => {
  await api?.close();
});

const NOTICE = {
  name: 'Holiday notice',
  purpose: 'notice',
  subject: 'Holiday',
  texts: [
    { language: 'en', body: 'The centre is closed on {date} for {class}.', whatsapp_template: 'holiday_notice' },
    { language: 'hi', body: '{class} के लिए केंद्र {date} को बंद रहेगा।', whatsapp_template: 'holiday_notice' },
  ],
};

describe('message templates', () => {
  it('starts with the absence and late alerts in every language, English mapped to its WhatsApp templates', async () => {
    const response = await api.as('teacher').get('/api/v1/message-templates');
    expect(response.statusCode).toBe(200);
    const unmapped = (language: string, body: string) => ({ language, body, whatsapp_template: null });
    expect(response.json()).toEqual([
      expect.objectContaining({
        name: 'Absence alert',
        purpose: 'absence_alert',
        subject: 'Absence alert',
        texts: [
          {
            language: 'en',
            body: '{student_name} was marked {status} on {date}.',
            whatsapp_template: 'tuitiondesk_absence_alert',
          },
          unmapped('bn', '{student_name} {date} তারিখে {status} হিসেবে চিহ্নিত হয়েছে।'),
          unmapped('hi', '{student_name} को {date} को {status} दर्ज किया गया।'),
          unmapped('mr', '{student_name} यांची {date} रोजी {status} अशी नोंद झाली.'),
          unmapped('ta', '{student_name} {date} அன்று {status} எனப் பதிவு செய்யப்பட்டார்.'),
          unmapped('ur', '{student_name} کو {date} کو {status} درج کیا گیا۔'),
        ],
      }),
      expect.objectContaining({
        name: 'Late alert',
        purpose: 'late_alert',
        subject: 'Late arrival',
        texts: expect.arrayContaining([
          {
            language: 'en',
            body: '{student_name} was marked {status} on {date}.',
            whatsapp_template: 'tuitiondesk_late_alert',
          },
          unmapped('hi', '{student_name} को {date} को {status} दर्ज किया गया।'),
        ]),
      }),
    ]);
  });

  it('lets an admin add, change and delete a notice template, each with an activity row', async () => {
    const created = await api.as('admin').post('/api/v1/message-templates', NOTICE);
    expect(created.statusCode).toBe(201);
    const id = created.json().id as number;
    expect(created.json()).toMatchObject({ name: 'Holiday notice', texts: NOTICE.texts, updated_by: 'Administrator' });

    const changed = await api.as('admin').put(`/api/v1/message-templates/${id}`, {
      ...NOTICE,
      texts: [{ language: 'en', body: 'Closed on {date}.', whatsapp_template: '' }],
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().texts).toEqual([{ language: 'en', body: 'Closed on {date}.', whatsapp_template: null }]);

    const removed = await api.as('admin').delete(`/api/v1/message-templates/${id}`);
    expect(removed.json()).toEqual({ message: 'Template "Holiday notice" deleted' });
    const actions = await api.db.query<{ action: string }>(
      "SELECT action FROM activities WHERE action LIKE 'templates.%' ORDER BY id",
    );
    expect(actions.map((row) => row.action)).toEqual(['templates.created', 'templates.updated', 'templates.deleted']);
  });

  it.each([
    [
      'a placeholder a notice cannot fill',
      { ...NOTICE, texts: [{ language: 'en', body: 'Dear {student_name}', whatsapp_template: null }] },
      'texts[0].body: uses {student_name}, which a notice cannot fill; use {class}, {date}, {centre_name}',
    ],
    [
      'no English text',
      { ...NOTICE, texts: [{ language: 'hi', body: 'नमस्ते', whatsapp_template: null }] },
      'texts: must include the English text',
    ],
    [
      'two texts in one language',
      {
        ...NOTICE,
        texts: [
          { language: 'en', body: 'One', whatsapp_template: null },
          { language: 'en', body: 'Two', whatsapp_template: null },
        ],
      },
      'texts[1].language: has a second en text',
    ],
    [
      'a WhatsApp template name Meta would not have',
      { ...NOTICE, texts: [{ language: 'en', body: 'Hi', whatsapp_template: 'Holiday Notice!' }] },
      'texts[0].whatsapp_template: must be the approved template name: lowercase letters, digits and _',
    ],
    [
      'a language the centre does not write in',
      { ...NOTICE, texts: [{ language: 'fr', body: 'Bonjour' }] },
      /^texts\[0\]\.language: /,
    ],
    [
      'a second absence alert',
      { ...NOTICE, purpose: 'absence_alert' },
      'purpose: only notice templates can be added; the absence and late alerts exist once',
    ],
  ])('refuses %s with 422 and stores nothing', async (_name, body, detail) => {
    const before = (await api.as('admin').get('/api/v1/message-templates')).json().length;
    expectRefusal(await api.as('admin').post('/api/v1/message-templates', body), 422, detail);
    expect((await api.as('admin').get('/api/v1/message-templates')).json()).toHaveLength(before);
  });

  it('refuses a teacher every change with 403', async () => {
    expect((await api.as('teacher').post('/api/v1/message-templates', NOTICE)).statusCode).toBe(403);
    expect((await api.as('teacher').put('/api/v1/message-templates/1', NOTICE)).statusCode).toBe(403);
    expect((await api.as('teacher').delete('/api/v1/message-templates/1')).statusCode).toBe(403);
  });

  it('keeps the alerts: their purpose does not change and they cannot be deleted', async () => {
    const [absence] = (await api.as('admin').get('/api/v1/message-templates')).json() as { id: number }[];
    expectRefusal(
      await api.as('admin').put(`/api/v1/message-templates/${absence?.id}`, NOTICE),
      422,
      'purpose: cannot change: this is the Absence alert template',
    );
    expectRefusal(
      await api.as('admin').delete(`/api/v1/message-templates/${absence?.id}`),
      409,
      'The Absence alert template cannot be deleted: absence alerts use it. Change its texts instead.',
    );
    expectRefusal(
      await api.as('admin').delete('/api/v1/message-templates/999999'),
      404,
      'Template 999999 was not found',
    );
  });

  it('gives one name to one template, even when two admins add it at once', async () => {
    const body = { ...NOTICE, name: 'Fees reminder' };
    const answers = await Promise.all([1, 2, 3].map(() => api.as('admin').post('/api/v1/message-templates', body)));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409, 409]);
    expectRefusal(
      await api.as('admin').post('/api/v1/message-templates', { ...body, name: 'FEES REMINDER' }),
      409,
      'A template named "Fees reminder" already exists',
    );
  });

  it("sends a notice from a template: each family gets its language's text, filled in", async () => {
    const template = (await api.as('admin').post('/api/v1/message-templates', { ...NOTICE, name: 'Closure' })).json();
    const hindi = uniquePhone();
    const english = uniquePhone();
    await api.student({ class_name: '9', parent_phone: hindi, parent_language: 'hi' });
    await api.student({ class_name: '9', parent_phone: english });
    const sent = await api.as('teacher').post('/api/v1/messages/send-to-parents', {
      subject: 'Holiday',
      message: 'The centre is closed on Friday for Class 9.',
      recipients: '9',
      template_id: template.id,
    });
    expect(sent.statusCode).toBe(200);
    const rows = await api.db.query<{ recipient: string; message: string; language: string }>(
      "SELECT recipient, message, language FROM messages WHERE subject = 'Holiday' AND recipient = ANY($1::text[])",
      [[hindi, english]],
    );
    expect(rows.find((row) => row.recipient === english)).toMatchObject({
      message: 'The centre is closed on Friday for Class 9.',
      language: 'en',
    });
    // The Hindi text is filled in Hindi: the class word and the date (Intl, Western digits).
    expect(rows.find((row) => row.recipient === hindi)?.message).toBe(
      `कक्षा 9 के लिए केंद्र ${readableDateIn(today(), 'hi')} को बंद रहेगा।`,
    );
    expectRefusal(
      await api.as('teacher').post('/api/v1/messages/send-to-parents', {
        subject: 'x',
        message: 'y',
        recipients: '9',
        template_id: 999999,
      }),
      422,
      'template_id: is not a known template',
    );
  });
});

describe('changing templates', () => {
  const notice = (name: string, texts = NOTICE.texts) => ({ ...NOTICE, name, texts });
  const create = async (name: string, texts = NOTICE.texts) => {
    const response = await api.as('admin').post('/api/v1/message-templates', notice(name, texts));
    expect(response.statusCode).toBe(201);
    return response.json() as { id: number; name: string };
  };
  const storedName = async (id: number) =>
    (await api.db.query<{ name: string }>('SELECT name FROM message_templates WHERE id = $1', [id]))[0]?.name;

  it('lists the alerts first, then notices by name in any case, each with its English text first', async () => {
    await create('zebra crossing', [
      { language: 'hi', body: '{date} को बंद', whatsapp_template: 'closed_hi' },
      { language: 'en', body: 'Closed on {date}', whatsapp_template: 'closed_en' },
    ]);
    await create('Apple days');
    const list = (await api.as('teacher').get('/api/v1/message-templates')).json() as {
      name: string;
      purpose: string;
      texts: { language: string }[];
    }[];
    expect(list.slice(0, 2).map((template) => template.purpose)).toEqual(['absence_alert', 'late_alert']);
    const notices = list.slice(2);
    expect(notices.every((template) => template.purpose === 'notice')).toBe(true);
    const names = notices.map((template) => template.name);
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(names).toContain('Apple days');
    expect(list.find((template) => template.name === 'zebra crossing')?.texts.map((text) => text.language)).toEqual([
      'en',
      'hi',
    ]);
  });

  it('answers 404 for a template that is not there', async () => {
    expectRefusal(
      await api.as('admin').put('/api/v1/message-templates/999999', notice('Nowhere')),
      404,
      'Template 999999 was not found',
    );
  });

  it("refuses a rename onto another template's name with 409, and lets a template keep its own in another case", async () => {
    const apple = await create('Orchard visit');
    expectRefusal(
      await api.as('admin').put(`/api/v1/message-templates/${apple.id}`, notice('ZEBRA CROSSING')),
      409,
      'A template named "zebra crossing" already exists',
    );
    expect(await storedName(apple.id)).toBe('Orchard visit');
    const renamed = await api.as('admin').put(`/api/v1/message-templates/${apple.id}`, notice('ORCHARD VISIT'));
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ id: apple.id, name: 'ORCHARD VISIT' });
  });

  it('gives a name to one template only, when two admins rename two templates to it at once', async () => {
    // A few rounds: on PostgreSQL the two checks sometimes both pass and the unique index decides.
    for (const round of [1, 2, 3, 4]) {
      const first = await create(`Sports day ${round}`);
      const second = await create(`Prize day ${round}`);
      const answers = await Promise.all(
        [first, second].map((template) =>
          api.as('admin').put(`/api/v1/message-templates/${template.id}`, notice(`Annual day ${round}`)),
        ),
      );
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      expect(answers.find((answer) => answer.statusCode === 409)?.json().detail).toBe(
        `A template named "Annual day ${round}" already exists`,
      );
      const kept = answers[0]?.statusCode === 200 ? `Prize day ${round}` : `Sports day ${round}`;
      expect([await storedName(first.id), await storedName(second.id)].sort()).toEqual(
        [`Annual day ${round}`, kept].sort(),
      );
    }
  });

  it('refuses on a change the texts an add refuses, and keeps the template as it was', async () => {
    const template = await create('Exam timetable');
    expectRefusal(
      await api.as('admin').put(`/api/v1/message-templates/${template.id}`, {
        ...notice('Exam timetable'),
        texts: [{ language: 'en', body: '{student_name} has exams', whatsapp_template: null }],
      }),
      422,
      'texts[0].body: uses {student_name}, which a notice cannot fill; use {class}, {date}, {centre_name}',
    );
    expectRefusal(
      await api.as('admin').put(`/api/v1/message-templates/${template.id}`, {
        ...notice('Exam timetable'),
        purpose: 'late_alert',
      }),
      422,
      'purpose: cannot change: this is the Notice to parents template',
    );
    const texts = await api.db.query<{ body: string }>(
      'SELECT body FROM message_template_texts WHERE template_id = $1 ORDER BY language',
      [template.id],
    );
    expect(texts.map((text) => text.body)).toEqual(NOTICE.texts.map((text) => text.body));
  });

  it('lets an admin change the alert texts, every placeholder allowed, and the sender reads them', async () => {
    const list = (await api.as('admin').get('/api/v1/message-templates')).json() as { id: number; purpose: string }[];
    const late = list.find((template) => template.purpose === 'late_alert');
    const texts = [
      {
        language: 'en',
        body: '{student_name} of {class} was {status} on {date}. {centre_name}',
        whatsapp_template: 'late_v2',
      },
      { language: 'mr', body: '{student_name} {date} रोजी उशिरा आला.', whatsapp_template: '' },
    ];
    const changed = await api.as('admin').put(`/api/v1/message-templates/${late?.id}`, {
      name: 'Late alert',
      purpose: 'late_alert',
      subject: 'Late arrival today',
      texts,
    });
    expect(changed.statusCode).toBe(200);
    expect(await findTemplateForSending(api.db, { purpose: 'late_alert' })).toEqual({
      id: late?.id,
      purpose: 'late_alert',
      subject: 'Late arrival today',
      texts: {
        en: { body: texts[0]?.body, whatsapp_template: 'late_v2' },
        mr: { body: texts[1]?.body, whatsapp_template: null },
      },
    });
    const [activity] = await api.db.query<{ description: string }>(
      "SELECT description FROM activities WHERE action = 'templates.updated' ORDER BY id DESC LIMIT 1",
    );
    expect(activity?.description).toBe('Administrator changed the message template "Late alert" (en, mr)');
  });

  it('finds a notice for sending by its id, and nothing for an id that is not there', async () => {
    const template = await create('Parents meeting');
    expect(await findTemplateForSending(api.db, { id: template.id })).toEqual({
      id: template.id,
      purpose: 'notice',
      subject: 'Holiday',
      texts: {
        en: { body: NOTICE.texts[0]?.body, whatsapp_template: 'holiday_notice' },
        hi: { body: NOTICE.texts[1]?.body, whatsapp_template: 'holiday_notice' },
      },
    });
    expect(await findTemplateForSending(api.db, { id: 999999 })).toBeUndefined();
  });

  it('deletes a notice with its texts once, even when two admins delete it at once; the late alert stays', async () => {
    const template = await create('Fee due');
    const answers = await Promise.all(
      [1, 2].map(() => api.as('admin').delete(`/api/v1/message-templates/${template.id}`)),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 404]);
    expect(
      await api.db.query('SELECT 1 FROM message_template_texts WHERE template_id = $1', [template.id]),
    ).toHaveLength(0);
    const late = (
      (await api.as('admin').get('/api/v1/message-templates')).json() as { id: number; purpose: string }[]
    ).find((row) => row.purpose === 'late_alert');
    expectRefusal(
      await api.as('admin').delete(`/api/v1/message-templates/${late?.id}`),
      409,
      'The Late alert template cannot be deleted: late alerts use it. Change its texts instead.',
    );
  });
});

describe('the audit log of template texts (ADR 025, migration 0026)', () => {
  interface TextRow {
    actor_id: number | null;
    actor_name: string | null;
    address: string | null;
    way: string;
    action: string;
    record_id: string;
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
  }
  const CONSOLE = { 'x-tuitiondesk-client': 'console' };
  const lastAuditId = async () =>
    (await api.db.query<{ id: number }>('SELECT coalesce(max(id), 0)::int AS id FROM audit_log'))[0]?.id ?? 0;
  /** The rows about template texts written after `from`, oldest first. */
  const textRows = (from: number) =>
    api.db.query<TextRow>(
      `SELECT actor_id, actor_name, address, way, action, record_id, before, after FROM audit_log
        WHERE id > $1 AND entity = 'message_template_texts' ORDER BY id`,
      [from],
    );
  const notice = (name: string, texts: { language: string; body: string; whatsapp_template: string | null }[]) => ({
    ...NOTICE,
    name,
    texts,
  });
  const EN = { language: 'en', body: 'The centre is closed on {date}.', whatsapp_template: 'holiday_notice' };
  const HI = { language: 'hi', body: 'केंद्र {date} को बंद रहेगा।', whatsapp_template: 'holiday_notice' };
  const PHISHING = {
    language: 'hi',
    body: 'Pay the fee now at http://pay.example/centre',
    whatsapp_template: 'fee_due',
  };

  it('records each text added, changed (text or WhatsApp template name) and removed, with before, after and who', async () => {
    const [admin] = await api.db.query<{ id: number; full_name: string }>(
      "SELECT id, full_name FROM users WHERE username = 'admin'",
    );
    const who = { actor_id: admin?.id, actor_name: admin?.full_name, way: 'console' };
    const address = '203.0.113.26';
    const options = { headers: CONSOLE, remoteAddress: address };

    let from = await lastAuditId();
    const created = await api
      .as('admin')
      .post('/api/v1/message-templates', notice('Audited notice', [EN, HI]), options);
    expect(created.statusCode).toBe(201);
    const id = created.json().id as number;
    expect(await textRows(from)).toEqual([
      { ...who, address, action: 'create', record_id: `${id}:en`, before: null, after: { template_id: id, ...EN } },
      { ...who, address, action: 'create', record_id: `${id}:hi`, before: null, after: { template_id: id, ...HI } },
    ]);

    // The Hindi notice becomes a phishing text, under another approved template; English keeps its
    // text and only its WhatsApp template name changes; Tamil is added.
    const TA = { language: 'ta', body: 'மையம் {date} அன்று மூடப்பட்டிருக்கும்.', whatsapp_template: null };
    from = await lastAuditId();
    const phished = await api
      .as('admin')
      .put(
        `/api/v1/message-templates/${id}`,
        notice('Audited notice', [{ ...EN, whatsapp_template: 'fee_due' }, PHISHING, TA]),
        options,
      );
    expect(phished.statusCode).toBe(200);
    expect(await textRows(from)).toEqual([
      {
        ...who,
        address,
        action: 'update',
        record_id: `${id}:en`,
        before: { whatsapp_template: 'holiday_notice' },
        after: { whatsapp_template: 'fee_due' },
      },
      {
        ...who,
        address,
        action: 'update',
        record_id: `${id}:hi`,
        before: { body: HI.body, whatsapp_template: 'holiday_notice' },
        after: { body: PHISHING.body, whatsapp_template: 'fee_due' },
      },
      { ...who, address, action: 'create', record_id: `${id}:ta`, before: null, after: { template_id: id, ...TA } },
    ]);

    // ...and back, Tamil dropped: the log keeps both changes.
    from = await lastAuditId();
    const back = await api
      .as('admin')
      .put(`/api/v1/message-templates/${id}`, notice('Audited notice', [EN, HI]), options);
    expect(back.statusCode).toBe(200);
    expect(await textRows(from)).toEqual([
      { ...who, address, action: 'delete', record_id: `${id}:ta`, before: { template_id: id, ...TA }, after: null },
      {
        ...who,
        address,
        action: 'update',
        record_id: `${id}:en`,
        before: { whatsapp_template: 'fee_due' },
        after: { whatsapp_template: 'holiday_notice' },
      },
      {
        ...who,
        address,
        action: 'update',
        record_id: `${id}:hi`,
        before: { body: PHISHING.body, whatsapp_template: 'fee_due' },
        after: { body: HI.body, whatsapp_template: 'holiday_notice' },
      },
    ]);

    // Saved as it is: no text changed, no row.
    from = await lastAuditId();
    expect(
      (await api.as('admin').put(`/api/v1/message-templates/${id}`, notice('Audited notice', [EN, HI]), options))
        .statusCode,
    ).toBe(200);
    expect(await textRows(from)).toEqual([]);

    // Deleted: each text's last words are in the log.
    from = await lastAuditId();
    expect((await api.as('admin').delete(`/api/v1/message-templates/${id}`, options)).statusCode).toBe(200);
    expect(await textRows(from)).toEqual([
      { ...who, address, action: 'delete', record_id: `${id}:en`, before: { template_id: id, ...EN }, after: null },
      { ...who, address, action: 'delete', record_id: `${id}:hi`, before: { template_id: id, ...HI }, after: null },
    ]);
  });

  it("records a change of an alert's text, and the Audit page finds a text's history by its record", async () => {
    const absence = (
      (await api.as('admin').get('/api/v1/message-templates')).json() as {
        id: number;
        name: string;
        subject: string;
        purpose: string;
        texts: { language: string; body: string; whatsapp_template: string | null }[];
      }[]
    ).find((template) => template.purpose === 'absence_alert');
    if (!absence) throw new Error('no absence alert');
    const from = await lastAuditId();
    const texts = absence.texts.map((text) =>
      text.language === 'ur' ? { ...text, body: '{student_name} غیر حاضر تھا، فیس یہاں بھیجیں' } : text,
    );
    const saved = await api.as('admin').put(`/api/v1/message-templates/${absence.id}`, {
      name: absence.name,
      purpose: absence.purpose,
      subject: absence.subject,
      texts,
    });
    expect(saved.statusCode).toBe(200);
    const rows = await textRows(from);
    expect(rows.map((row) => [row.action, row.record_id, row.after])).toEqual([
      ['update', `${absence.id}:ur`, { body: '{student_name} غیر حاضر تھا، فیس یہاں بھیجیں' }],
    ]);
    const history = await api.as('admin').get(`/api/v1/audit?entity=message_template_texts&record_id=${absence.id}:ur`);
    expect(history.statusCode).toBe(200);
    expect(history.json().entries).toEqual([
      expect.objectContaining({ action: 'update', record_id: `${absence.id}:ur`, after: rows[0]?.after }),
    ]);
  });

  it('pairs each language with its own before when one statement changes several at once', async () => {
    const created = await api
      .as('admin')
      .post(
        '/api/v1/message-templates',
        notice('Two at once', [EN, HI, { ...HI, language: 'mr', body: 'मराठी {date}' }]),
      );
    const id = created.json().id as number;
    const from = await lastAuditId();
    await api.db.query(
      "UPDATE message_template_texts SET body = language || ' changed by hand' WHERE template_id = $1",
      [id],
    );
    const rows = await textRows(from);
    expect(rows.map((row) => [row.record_id, row.before, row.after]).sort()).toEqual(
      [
        [`${id}:en`, { body: EN.body }, { body: 'en changed by hand' }],
        [`${id}:hi`, { body: HI.body }, { body: 'hi changed by hand' }],
        [`${id}:mr`, { body: 'मराठी {date}' }, { body: 'mr changed by hand' }],
      ].sort(),
    );
    expect(rows.every((row) => row.way === 'system' && row.actor_id === null)).toBe(true);
  });

  it('leaves no row for a change that was refused, and two admins saving at once are both on record in order', async () => {
    const taken = await api.as('admin').post('/api/v1/message-templates', notice('Taken name', [EN]));
    expect(taken.statusCode).toBe(201);
    const created = await api.as('admin').post('/api/v1/message-templates', notice('Raced notice', [EN, HI]));
    const id = created.json().id as number;

    let from = await lastAuditId();
    expectRefusal(
      await api.as('admin').put(`/api/v1/message-templates/${id}`, notice('Taken name', [EN, PHISHING])),
      409,
      'A template named "Taken name" already exists',
    );
    expect(await textRows(from)).toEqual([]);

    from = await lastAuditId();
    const answers = await Promise.all(
      ['First {date}', 'Second {date}'].map((body) =>
        api.as('admin').put(`/api/v1/message-templates/${id}`, notice('Raced notice', [EN, { ...HI, body }])),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const rows = await textRows(from);
    expect(rows).toHaveLength(2);
    // One after the other: the second change starts from the first one's after, and ends on what is stored.
    expect(rows[0]?.before).toEqual({ body: HI.body });
    expect(rows[1]?.before).toEqual(rows[0]?.after);
    const [stored] = await api.db.query<{ body: string }>(
      "SELECT body FROM message_template_texts WHERE template_id = $1 AND language = 'hi'",
      [id],
    );
    expect(rows[1]?.after).toEqual({ body: stored?.body });
  });
});
