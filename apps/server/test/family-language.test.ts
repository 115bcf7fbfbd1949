import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/db/migrate';
import { addDays, readableDateIn, today } from '../src/lib/time';
import { waitFor } from './helpers/async';
import { type TestClient, testClient } from './helpers/client';
import type { AcceptedMessage, FakeCloudApi } from './helpers/fake-cloud-api';
import { freshDatabase, uniquePhone } from './helpers/test-app';
import { callbackOf, postCallback, textFrom, whatsappConfig } from './helpers/whatsapp';
import { startTestCloudApi, withQuickWhatsappWorker } from './helpers/whatsapp-worker';

/**
 * Messages to a family in the language it reads (ADR 037): the absence and late alerts' texts, their
 * status word, date and class, their subjects, the WhatsApp template's language code, and the
 * server's own notices; English exactly as before, and what staff type sent as they typed it.
 */
let api: TestClient;
let cloud: FakeCloudApi;

beforeAll(async () => {
  cloud = await startTestCloudApi({ autoStatuses: false });
  api = await testClient({
    config: { whatsapp: whatsappConfig(cloud.baseUrl, { dailyLimit: 1000 }) },
    prepare: withQuickWhatsappWorker,
  });
  api.ctx.whatsappWorker?.start();
});
afterAll(async () => {
  await api?.ctx.whatsappWorker?.stop(1000);
  await cloud?.close();
  await api?.close();
});

let dayOffset = 3;
/** Each test marks its own past day, so pending lists never mix. */
function nextDay(): string {
  dayOffset += 1;
  return addDays(today(), -dayOffset);
}

/** Marks and approves the records of one day as the admin, which queues the alerts. */
async function markAndApprove(date: string, records: { student_id: number; status: string; remarks?: string }[]) {
  expect((await api.as('admin').post('/api/v1/attendance/mark', { date, records })).statusCode).toBe(200);
  const pending = await api.as('admin').get(`/api/v1/attendance/pending-approval?attendance_date=${date}`);
  const ids = (pending.json() as { id: number }[]).map((record) => record.id);
  expect((await api.as('admin').post('/api/v1/attendance/approve', { attendance_ids: ids })).statusCode).toBe(200);
}

interface Sent {
  subject: string;
  message: string;
  language: string;
  kind: string;
}

async function messagesTo(phone: string): Promise<Sent[]> {
  return api.db.query<Sent>('SELECT subject, message, language, kind FROM messages WHERE recipient = $1 ORDER BY id', [
    phone,
  ]);
}

async function family(language: string, name: string, fields: Record<string, unknown> = {}) {
  const phone = uniquePhone();
  const student = await api.student({
    full_name: name,
    class_name: '9',
    parent_phone: phone,
    parent_language: language,
    ...fields,
  });
  return { phone, student };
}

/** The Cloud API request WhatsApp got for `phone` (the worker sends it shortly after the commit). */
async function whatsappTo(phone: string): Promise<AcceptedMessage> {
  const digits = phone.slice(1);
  await waitFor(`WhatsApp to ${phone}`, () => cloud.accepted.some((message) => message.to === digits));
  return cloud.accepted.find((message) => message.to === digits) as AcceptedMessage;
}

async function alertTemplates(): Promise<{ id: number; purpose: string; name: string; subject: string }[]> {
  return (await api.as('admin').get('/api/v1/message-templates')).json();
}

describe('a day as each language reads it', () => {
  it('keeps English as it was, and writes the others with Intl in Western digits', () => {
    expect(readableDateIn('2026-11-23', 'en')).toBe('23 Nov 2026');
    expect(readableDateIn('2026-11-23', 'hi')).toBe('23 नवंबर 2026');
    expect(readableDateIn('2026-11-23', 'mr')).toBe('23 नोव्हेंबर, 2026');
    expect(readableDateIn('2026-11-23', 'ta')).toBe('23 நவம்பர், 2026');
    expect(readableDateIn('2026-11-23', 'bn')).toBe('23 নভেম্বর, 2026');
    expect(readableDateIn('2026-11-23', 'ur')).toBe('23 نومبر، 2026');
    expect(readableDateIn('2027-01-05', 'hi')).toBe('5 जनवरी 2027');
  });
});

describe('absence and late alerts in the family’s language', () => {
  it('sends a Hindi family and an Urdu family their alerts in their language, status, date and remarks included', async () => {
    const date = nextDay();
    const hindi = await family('hi', 'Riya Sharma');
    const urdu = await family('ur', 'Zoya Khan');
    const urduLate = await family('ur', 'Imran Ali');
    await markAndApprove(date, [
      { student_id: hindi.student.id, status: 'absent' },
      { student_id: urdu.student.id, status: 'absent', remarks: 'Fever' },
      { student_id: urduLate.student.id, status: 'late' },
    ]);
    const hi = readableDateIn(date, 'hi');
    const ur = readableDateIn(date, 'ur');
    expect(await messagesTo(hindi.phone)).toEqual([
      {
        kind: 'absence_alert',
        language: 'hi',
        subject: 'अनुपस्थिति सूचना',
        message: `Riya Sharma को ${hi} को अनुपस्थित दर्ज किया गया।`,
      },
    ]);
    expect(await messagesTo(urdu.phone)).toEqual([
      {
        kind: 'absence_alert',
        language: 'ur',
        subject: 'غیر حاضری کی اطلاع',
        message: `Zoya Khan کو ${ur} کو غیر حاضر درج کیا گیا۔ تبصرہ: Fever`,
      },
    ]);
    expect(await messagesTo(urduLate.phone)).toEqual([
      {
        kind: 'late_alert',
        language: 'ur',
        subject: 'تاخیر سے آمد',
        message: `Imran Ali کو ${ur} کو تاخیر سے حاضر درج کیا گیا۔`,
      },
    ]);
  });

  it('sends an English family exactly the English alert it got before', async () => {
    const date = nextDay();
    const english = await family('en', 'Asha Verma');
    const englishLate = await family('en', 'Bilal Sheikh');
    await markAndApprove(date, [
      { student_id: english.student.id, status: 'absent', remarks: '  Fever ' },
      { student_id: englishLate.student.id, status: 'late' },
    ]);
    const [y, m, d] = date.split('-').map(Number) as [number, number, number];
    const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    const spoken = `${d} ${months[m - 1]} ${y}`;
    expect(await messagesTo(english.phone)).toEqual([
      {
        kind: 'absence_alert',
        language: 'en',
        subject: 'Absence alert',
        message: `Asha Verma was marked absent on ${spoken}. Remarks: Fever`,
      },
    ]);
    expect(await messagesTo(englishLate.phone)).toEqual([
      {
        kind: 'late_alert',
        language: 'en',
        subject: 'Late arrival',
        message: `Bilal Sheikh was marked late on ${spoken}.`,
      },
    ]);
  });

  it('fills {class} in the text’s language, with the class as the centre stored it', async () => {
    const [absence] = (await alertTemplates()).filter((template) => template.purpose === 'absence_alert');
    const texts = [
      {
        language: 'en',
        body: '{student_name} ({class}) was marked {status} on {date}.',
        whatsapp_template: 'tuitiondesk_absence_alert',
      },
      {
        language: 'mr',
        body: '{student_name} ({class}) यांची {date} रोजी {status} अशी नोंद झाली.',
        whatsapp_template: '',
      },
    ];
    const put = (body: typeof texts) =>
      api.as('admin').put(`/api/v1/message-templates/${absence?.id}`, {
        name: 'Absence alert',
        purpose: 'absence_alert',
        subject: 'Absence alert',
        texts: body,
      });
    const before = (await api.as('admin').get('/api/v1/message-templates')).json() as {
      purpose: string;
      texts: { language: string; body: string; whatsapp_template: string | null }[];
    }[];
    const kept = before.find((template) => template.purpose === 'absence_alert')?.texts ?? [];
    expect((await put(texts)).statusCode).toBe(200);
    try {
      const date = nextDay();
      const marathi = await family('mr', 'Sai Patil');
      const english = await family('en', 'Tara Rao');
      await markAndApprove(date, [
        { student_id: marathi.student.id, status: 'absent' },
        { student_id: english.student.id, status: 'absent' },
      ]);
      expect((await messagesTo(marathi.phone))[0]?.message).toBe(
        `Sai Patil (इयत्ता 9) यांची ${readableDateIn(date, 'mr')} रोजी गैरहजर अशी नोंद झाली.`,
      );
      expect((await messagesTo(english.phone))[0]?.message).toBe(
        `Tara Rao (Class 9) was marked absent on ${readableDateIn(date, 'en')}.`,
      );
    } finally {
      expect(
        (await put(kept.map((text) => ({ ...text, whatsapp_template: text.whatsapp_template ?? '' })))).statusCode,
      ).toBe(200);
    }
  });

  it('sends a Tamil family the Tamil text the centre wrote, filled in Tamil', async () => {
    const [absence] = (await alertTemplates()).filter((template) => template.purpose === 'absence_alert');
    const changed = await api.as('admin').put(`/api/v1/message-templates/${absence?.id}`, {
      name: 'Absence alert',
      purpose: 'absence_alert',
      subject: 'Absence alert',
      texts: [
        {
          language: 'en',
          body: '{student_name} was marked {status} on {date}.',
          whatsapp_template: 'tuitiondesk_absence_alert',
        },
        { language: 'hi', body: '{student_name} को {date} को {status} दर्ज किया गया।', whatsapp_template: '' },
        { language: 'ur', body: '{student_name} کو {date} کو {status} درج کیا گیا۔', whatsapp_template: '' },
        { language: 'ta', body: 'அன்புள்ள பெற்றோரே, {student_name} இன்று ({date}) {status}.', whatsapp_template: '' },
      ],
    });
    expect(changed.statusCode).toBe(200);
    const date = nextDay();
    const tamil = await family('ta', 'Kavin Raj');
    await markAndApprove(date, [{ student_id: tamil.student.id, status: 'absent' }]);
    expect(await messagesTo(tamil.phone)).toEqual([
      {
        kind: 'absence_alert',
        language: 'ta',
        subject: 'வருகையின்மை அறிவிப்பு',
        message: `அன்புள்ள பெற்றோரே, Kavin Raj இன்று (${readableDateIn(date, 'ta')}) வரவில்லை.`,
      },
    ]);
  });

  it('falls back to the English text, words and subject when the family’s language has no text', async () => {
    // The centre removed its Bengali text in the step above (texts are replaced as a whole).
    const date = nextDay();
    const bengali = await family('bn', 'Arnab Das');
    await markAndApprove(date, [{ student_id: bengali.student.id, status: 'absent' }]);
    expect(await messagesTo(bengali.phone)).toEqual([
      {
        kind: 'absence_alert',
        language: 'en',
        subject: 'Absence alert',
        message: `Arnab Das was marked absent on ${readableDateIn(date, 'en')}.`,
      },
    ]);
  });

  it('keeps a subject the centre wrote itself, as written, in every language', async () => {
    const [late] = (await alertTemplates()).filter((template) => template.purpose === 'late_alert');
    const changed = await api.as('admin').put(`/api/v1/message-templates/${late?.id}`, {
      name: 'Late alert',
      purpose: 'late_alert',
      subject: 'देर से आए / Came late',
      texts: [
        {
          language: 'en',
          body: '{student_name} was marked {status} on {date}.',
          whatsapp_template: 'tuitiondesk_late_alert',
        },
        { language: 'hi', body: '{student_name} को {date} को {status} दर्ज किया गया।', whatsapp_template: '' },
      ],
    });
    expect(changed.statusCode).toBe(200);
    const date = nextDay();
    const hindi = await family('hi', 'Dev Mehta');
    await markAndApprove(date, [{ student_id: hindi.student.id, status: 'late' }]);
    expect(await messagesTo(hindi.phone)).toEqual([
      {
        kind: 'late_alert',
        language: 'hi',
        subject: 'देर से आए / Came late',
        message: `Dev Mehta को ${readableDateIn(date, 'hi')} को देरी से उपस्थित दर्ज किया गया।`,
      },
    ]);
  });
});

describe('alerts on WhatsApp', () => {
  it('uses the family’s language code and words once the centre maps its approved template, else English', async () => {
    const [absence] = (await alertTemplates()).filter((template) => template.purpose === 'absence_alert');
    const put = (hindiTemplate: string) =>
      api.as('admin').put(`/api/v1/message-templates/${absence?.id}`, {
        name: 'Absence alert',
        purpose: 'absence_alert',
        subject: 'Absence alert',
        texts: [
          {
            language: 'en',
            body: '{student_name} was marked {status} on {date}.',
            whatsapp_template: 'tuitiondesk_absence_alert',
          },
          {
            language: 'hi',
            body: '{student_name} को {date} को {status} दर्ज किया गया।',
            whatsapp_template: hindiTemplate,
          },
          {
            language: 'ur',
            body: '{student_name} کو {date} کو {status} درج کیا گیا۔',
            whatsapp_template: 'tuitiondesk_absence_alert',
          },
        ],
      });
    // Hindi not yet approved: the English template, with the English words, as before.
    expect((await put('')).statusCode).toBe(200);
    const firstDay = nextDay();
    const unmapped = await family('hi', 'Neha Joshi', { parent_whatsapp_opt_in: true });
    const english = await family('en', 'Om Prakash', { parent_whatsapp_opt_in: true });
    await markAndApprove(firstDay, [
      { student_id: unmapped.student.id, status: 'absent' },
      { student_id: english.student.id, status: 'absent' },
    ]);
    const englishDate = readableDateIn(firstDay, 'en');
    expect(await whatsappTo(unmapped.phone)).toMatchObject({
      template: 'tuitiondesk_absence_alert',
      language: 'en',
      parameters: ['Neha Joshi', 'absent', englishDate],
    });
    expect(await whatsappTo(english.phone)).toMatchObject({
      template: 'tuitiondesk_absence_alert',
      language: 'en',
      parameters: ['Om Prakash', 'absent', englishDate],
    });
    // The app shows the Hindi text all the same.
    expect((await messagesTo(unmapped.phone))[0]?.message).toBe(
      `Neha Joshi को ${readableDateIn(firstDay, 'hi')} को अनुपस्थित दर्ज किया गया।`,
    );

    // Approved and mapped: the Hindi and Urdu templates, their codes, and the words in their order.
    expect((await put('tuitiondesk_absence_alert')).statusCode).toBe(200);
    const secondDay = nextDay();
    const hindi = await family('hi', 'Meera Iyer', { parent_whatsapp_opt_in: true });
    const urdu = await family('ur', 'Sana Mirza', { parent_whatsapp_opt_in: true });
    await markAndApprove(secondDay, [
      { student_id: hindi.student.id, status: 'absent' },
      { student_id: urdu.student.id, status: 'absent' },
    ]);
    expect(await whatsappTo(hindi.phone)).toMatchObject({
      template: 'tuitiondesk_absence_alert',
      language: 'hi',
      parameters: ['Meera Iyer', readableDateIn(secondDay, 'hi'), 'अनुपस्थित'],
    });
    expect(await whatsappTo(urdu.phone)).toMatchObject({
      template: 'tuitiondesk_absence_alert',
      language: 'ur',
      parameters: ['Sana Mirza', readableDateIn(secondDay, 'ur'), 'غیر حاضر'],
    });
  });
});

describe('what staff type, and what the server says itself', () => {
  it('sends a notice staff typed exactly as typed to a Hindi family, in the app and on WhatsApp', async () => {
    const hindi = await family('hi', 'Kiran Bose', { class_name: '7', parent_whatsapp_opt_in: true });
    const typed = { subject: 'Holiday on Friday', message: 'The centre is closed on Friday. शुक्रवार को छुट्टी है।' };
    const sent = await api.as('admin').post('/api/v1/messages/send-to-parents', { ...typed, recipients: '7' });
    expect(sent.statusCode).toBe(200);
    expect((await messagesTo(hindi.phone)).find((row) => row.subject === typed.subject)).toEqual({
      kind: 'notice',
      language: 'en',
      subject: typed.subject,
      message: typed.message,
    });
    expect(await whatsappTo(hindi.phone)).toMatchObject({
      template: 'tuitiondesk_notice',
      parameters: [expect.any(String), typed.subject, typed.message],
    });
  });

  it('answers a Hindi family’s STOP and START in Hindi, and an English family’s in English as before', async () => {
    const hindi = await family('hi', 'Aman Gupta', { parent_whatsapp_opt_in: true });
    const english = await family('en', 'Ben Thomas', { parent_whatsapp_opt_in: true });
    for (const phone of [hindi.phone, english.phone]) {
      await postCallback(api.anonymous(), callbackOf({ messages: [textFrom(phone, 'STOP')] }));
      await postCallback(api.anonymous(), callbackOf({ messages: [textFrom(phone, 'START')] }));
    }
    const centre = 'TuitionDesk';
    const replies = async (phone: string) =>
      (await messagesTo(phone)).filter((row) => row.kind === 'whatsapp').map((row) => [row.language, row.message]);
    expect(await replies(hindi.phone)).toEqual([
      [
        'hi',
        `अब आपको ${centre} से व्हाट्सऐप संदेश नहीं मिलेंगे। अनुपस्थिति की सूचनाएँ और केंद्र की सूचनाएँ अभिभावक ऐप में मिलती रहेंगी। इन्हें फिर से पाने के लिए START लिखकर भेजें।`,
      ],
      ['hi', `आपको ${centre} से व्हाट्सऐप संदेश फिर से मिलेंगे। इन्हें बंद करने के लिए STOP लिखकर भेजें।`],
    ]);
    expect(await replies(english.phone)).toEqual([
      [
        'en',
        `You will no longer get WhatsApp messages from ${centre}. Absence alerts and notices stay in the parent app. Reply START to get them again.`,
      ],
      ['en', `You will get WhatsApp messages from ${centre} again. Reply STOP to stop them.`],
    ]);
  });

  it('tells an Urdu family in Urdu, and an English family in English, that its access code was replaced', async () => {
    const urdu = await api.family({ parent_language: 'ur' });
    const english = await api.family({});
    for (const phone of [urdu.phone, english.phone]) {
      const [student] = await api.db.query<{ id: number }>('SELECT id FROM students WHERE parent_phone = $1', [phone]);
      expect((await api.as('admin').post(`/api/v1/students/${student?.id}/parent-access`)).statusCode).toBe(201);
    }
    expect((await messagesTo(urdu.phone)).filter((row) => row.kind === 'access_notice')).toEqual([
      {
        kind: 'access_notice',
        language: 'ur',
        subject: 'TuitionDesk تک آپ کی رسائی تبدیل کر دی گئی ہے',
        message:
          'مرکز نے آپ کے خاندان کے لیے نیا رسائی کوڈ جاری کیا ہے، اور پرانے کوڈ سے سائن ان آلات سائن آؤٹ کر دیے گئے ہیں۔ اگر آپ نے یہ نہیں کہا تھا تو براہ کرم مرکز کو فون کریں۔',
      },
    ]);
    expect((await messagesTo(english.phone)).filter((row) => row.kind === 'access_notice')).toEqual([
      {
        kind: 'access_notice',
        language: 'en',
        subject: 'Your TuitionDesk access was changed',
        message:
          'The centre issued a new access code for your family, and the devices signed in with the old one were signed out. If you did not ask for this, call the centre.',
      },
    ]);
  });
});

describe('migration 0023', () => {
  it('adds the alerts’ texts in each language, and keeps a text the centre had already written', async () => {
    // A migrated database taken back to before 0023, which only adds rows: its rows and its record go.
    // (PGlite's fresh database comes migrated; PostgreSQL's is migrated here.)
    const { db, drop } = await freshDatabase();
    try {
      await migrate(db);
      await db.query("DELETE FROM schema_migrations WHERE name LIKE '0023\\_%'");
      await db.query(
        `DELETE FROM message_template_texts x USING message_templates t
          WHERE t.id = x.template_id AND t.purpose <> 'notice' AND x.language <> 'en'`,
      );
      await db.query(
        `INSERT INTO message_template_texts (template_id, language, body, whatsapp_template)
         SELECT id, 'ta', 'எங்கள் உரை: {student_name}', 'centre_ta' FROM message_templates WHERE purpose = 'absence_alert'`,
      );
      expect(await migrate(db)).toEqual(['0023_alerts_in_each_language.sql']);
      const rows = await db.query<{
        purpose: string;
        language: string;
        body: string;
        whatsapp_template: string | null;
      }>(
        `SELECT t.purpose, x.language, x.body, x.whatsapp_template
           FROM message_template_texts x JOIN message_templates t ON t.id = x.template_id
          WHERE t.purpose <> 'notice' ORDER BY t.purpose, x.language`,
      );
      expect(rows.filter((row) => row.purpose === 'absence_alert').map((row) => row.language)).toEqual([
        'bn',
        'en',
        'hi',
        'mr',
        'ta',
        'ur',
      ]);
      expect(rows.find((row) => row.purpose === 'absence_alert' && row.language === 'ta')).toMatchObject({
        body: 'எங்கள் உரை: {student_name}',
        whatsapp_template: 'centre_ta',
      });
      expect(rows.find((row) => row.purpose === 'late_alert' && row.language === 'ta')).toMatchObject({
        body: '{student_name} {date} அன்று {status} எனப் பதிவு செய்யப்பட்டார்.',
        whatsapp_template: null,
      });
      expect(rows.find((row) => row.purpose === 'late_alert' && row.language === 'en')).toMatchObject({
        body: '{student_name} was marked {status} on {date}.',
        whatsapp_template: 'tuitiondesk_late_alert',
      });
    } finally {
      await drop();
    }
  });
});
