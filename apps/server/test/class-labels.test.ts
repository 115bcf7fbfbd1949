import { myClassesSchema } from '@tuitiondesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, readableDateIn, today } from '../src/lib/time';
import { remindTeachers } from '../src/modules/reminders/service';
import { callerOf, type TestClient, testClient } from './helpers/client';
import { signInNewTeacher, uniquePhone } from './helpers/test-app';

/**
 * A class the centre named itself (ADR 043) is called by its label wherever the server names a class:
 * "Morning batch", never "Class Morning batch"; the spec's classes keep their words ("Class 9", and
 * "कक्षा 9" to a Hindi family).
 */
let api: TestClient;

beforeAll(async () => {
  api = await testClient();
  const added = await Promise.all([
    api.as('admin').post('/api/v1/classes', { value: 'Morning batch' }),
    api.as('admin').post('/api/v1/classes', { value: '11', section: 'A' }),
  ]);
  for (const response of added) expect(response.statusCode, response.body).toBe(201);
});
afterAll(async () => {
  await api?.close();
});

/** Each test marks its own past day, so pending lists never mix. */
let dayOffset = 3;
function nextDay(): string {
  dayOffset += 1;
  return addDays(today(), -dayOffset);
}

async function family(language: string, name: string, className: string) {
  const phone = uniquePhone();
  const student = await api.student({
    full_name: name,
    class_name: className,
    parent_phone: phone,
    parent_language: language,
  });
  return { phone, student };
}

async function alertTo(phone: string): Promise<string | undefined> {
  const [row] = await api.db.query<{ message: string }>(
    "SELECT message FROM messages WHERE recipient = $1 AND kind = 'absence_alert' ORDER BY id",
    [phone],
  );
  return row?.message;
}

describe('a class the centre named', () => {
  it('is named by its label in an absence alert, in every language; the spec’s classes keep the class word', async () => {
    const templates = (await api.as('admin').get('/api/v1/message-templates')).json() as {
      id: number;
      purpose: string;
    }[];
    const absence = templates.find((template) => template.purpose === 'absence_alert');
    const put = await api.as('admin').put(`/api/v1/message-templates/${absence?.id}`, {
      name: 'Absence alert',
      purpose: 'absence_alert',
      subject: 'Absence alert',
      texts: [
        { language: 'en', body: '{student_name} ({class}) was marked {status} on {date}.', whatsapp_template: '' },
        { language: 'hi', body: '{student_name} ({class}) को {date} को {status} दर्ज किया गया।', whatsapp_template: '' },
      ],
    });
    expect(put.statusCode, put.body).toBe(200);
    const date = nextDay();
    const batch = await family('en', 'Asha Verma', 'Morning batch');
    const batchHindi = await family('hi', 'Bina Rao', 'Morning batch');
    const section = await family('en', 'Chetan Das', '11');
    const nine = await family('en', 'Divya Iyer', '9');
    const nineHindi = await family('hi', 'Esha Jain', '9');
    const families = [batch, batchHindi, section, nine, nineHindi];
    expect(
      (
        await api.as('admin').post('/api/v1/attendance/mark', {
          date,
          records: families.map(({ student }) => ({ student_id: student.id, status: 'absent' })),
        })
      ).statusCode,
    ).toBe(200);
    const pending = (
      await api.as('admin').get(`/api/v1/attendance/pending-approval?attendance_date=${date}`)
    ).json() as { id: number }[];
    const approved = await api.as('admin').post('/api/v1/attendance/approve', {
      attendance_ids: pending.map((record) => record.id),
    });
    expect(approved.json()).toMatchObject({ approved_count: 5, alerted_families: 5 });

    const en = readableDateIn(date, 'en');
    const hi = readableDateIn(date, 'hi');
    expect(await alertTo(batch.phone)).toBe(`Asha Verma (Morning batch) was marked absent on ${en}.`);
    expect(await alertTo(batchHindi.phone)).toBe(`Bina Rao (Morning batch) को ${hi} को अनुपस्थित दर्ज किया गया।`);
    expect(await alertTo(section.phone)).toBe(`Chetan Das (Class 11 – A) was marked absent on ${en}.`);
    expect(await alertTo(nine.phone)).toBe(`Divya Iyer (Class 9) was marked absent on ${en}.`);
    expect(await alertTo(nineHindi.phone)).toBe(`Esha Jain (कक्षा 9) को ${hi} को अनुपस्थित दर्ज किया गया।`);
  });

  it('is named by its label in a marking reminder and on the teacher’s dashboard', async () => {
    const teacher = await signInNewTeacher(api.app, api.db, await api.adminToken(), {
      first_name: 'Meena',
      classes_assigned: ['Morning batch', '11', '9'],
    });
    await family('en', 'Farah Khan', 'Morning batch');
    await family('en', 'Gopal Nair', '11');
    await family('en', 'Hari Sen', '9');
    // Reminders from midnight on, so that the round made now reminds of today's unmarked classes.
    expect((await api.as('admin').put('/api/v1/settings/reminders', { reminder_time: '00:00' })).statusCode).toBe(200);
    const claimed = await remindTeachers(api.db, new Date());
    expect(
      claimed
        .filter((reminder) => reminder.user_id === teacher.id)
        .map((reminder) => reminder.class_name)
        .sort(),
    ).toEqual(['11', '9', 'Morning batch']);
    const answer = await callerOf(api.app, teacher.token).get('/api/v1/dashboard/my-classes');
    expect(answer.statusCode, answer.body).toBe(200);
    const mine = myClassesSchema.parse(answer.json());
    expect(mine.classes.map((item) => item.class_name).sort()).toEqual(['11', '9', 'Morning batch']);
    expect(Object.fromEntries(mine.reminders.map((reminder) => [reminder.class_name, reminder.text]))).toEqual({
      'Morning batch': 'Morning batch has no attendance marked today',
      '11': 'Class 11 – A has no attendance marked today',
      '9': 'Class 9 has no attendance marked today',
    });
  });

  it('is named by its label in a notice sent to the class, in every language, and in its parent codes’ message', async () => {
    const template = await api.as('admin').post('/api/v1/message-templates', {
      name: 'Batch holiday',
      purpose: 'notice',
      subject: 'Batch holiday',
      texts: [
        { language: 'en', body: 'The centre is closed for {class}.', whatsapp_template: '' },
        { language: 'hi', body: '{class} के लिए केंद्र बंद रहेगा।', whatsapp_template: '' },
      ],
    });
    expect(template.statusCode, template.body).toBe(201);
    const batchHindi = await family('hi', 'Ira Bose', 'Morning batch');
    const nineHindi = await family('hi', 'Jaya Pillai', '9');
    await family('en', 'Nila Roy', '11');
    const noticeTo = async (recipients: string, phone: string) => {
      const sent = await api.as('admin').post('/api/v1/messages/send-to-parents', {
        subject: 'Batch holiday',
        message: 'The centre is closed.',
        recipients,
        template_id: template.json().id,
      });
      expect(sent.statusCode, sent.body).toBe(200);
      const [row] = await api.db.query<{ message: string }>(
        "SELECT message FROM messages WHERE subject = 'Batch holiday' AND recipient = $1",
        [phone],
      );
      return row?.message;
    };
    expect(await noticeTo('Morning batch', batchHindi.phone)).toBe('Morning batch के लिए केंद्र बंद रहेगा।');
    expect(await noticeTo('9', nineHindi.phone)).toBe('कक्षा 9 के लिए केंद्र बंद रहेगा।');

    const codes = async (className: string) => {
      const answer = await api.as('admin').post('/api/v1/parent-access/bulk', { class_name: className });
      expect(answer.statusCode, answer.body).toBe(200);
      return (answer.json() as { message: string }).message;
    };
    expect(await codes('Morning batch')).toMatch(/^Issued \d+ access code\(s\) for Morning batch; /);
    expect(await codes('11')).toMatch(/^Issued \d+ access code\(s\) for Class 11 – A; /);

    // A class with nobody in it: the refusals name it by its label too, the params by its value.
    expect((await api.as('admin').post('/api/v1/classes', { value: 'Evening batch' })).statusCode).toBe(201);
    const noCodes = await api.as('admin').post('/api/v1/parent-access/bulk', { class_name: 'Evening batch' });
    expect(noCodes.statusCode).toBe(404);
    expect(noCodes.json()).toMatchObject({
      detail: 'Evening batch has no students who attend the centre: there is nobody to give codes to',
      params: { class: 'Evening batch' },
    });
    const noNotice = await api.as('admin').post('/api/v1/messages/send-to-parents', {
      subject: 'Batch holiday',
      message: 'The centre is closed.',
      recipients: 'Evening batch',
    });
    expect(noNotice.statusCode).toBe(422);
    expect(noNotice.json()).toMatchObject({
      detail: 'recipients: no parents found for Evening batch',
      params: { field: 'recipients', class_name: 'Evening batch' },
    });
  });

  it('is named by its label in a refusal’s detail and in an activity, while the params keep its value', async () => {
    const teacher = await signInNewTeacher(api.app, api.db, await api.adminToken(), {
      first_name: 'Kavya',
      classes_assigned: ['9'],
    });
    const batch = await family('en', 'Lata Menon', 'Morning batch');
    const refused = await callerOf(api.app, teacher.token).post('/api/v1/attendance/mark', {
      date: today(),
      records: [{ student_id: batch.student.id, status: 'present' }],
    });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json()).toEqual({
      detail: 'You can mark attendance only for your class (9). Morning batch is not assigned to you.',
      code: 'attendance.class_not_yours',
      params: { count: 1, classes: '9', other: 'Morning batch' },
    });
    const section = await family('en', 'Mohan Das', '11');
    const moved = await callerOf(api.app, teacher.token).put(`/api/v1/students/${section.student.id}`, {
      class_name: '9',
    });
    expect(moved.statusCode, moved.body).toBe(403);
    expect(moved.json()).toMatchObject({
      detail:
        'Only an admin can move this student from Class 11 – A to Class 9: you mark only Class 9. Ask an admin to change the class.',
      params: { from: '11', to: '9' },
    });

    const activities = await api.db.query<{ description: string; params: Record<string, unknown> }>(
      "SELECT description, params FROM activities WHERE text_code = 'student.created' AND params->>'name' = ANY($1)",
      [['Lata Menon', 'Mohan Das']],
    );
    expect(
      activities.map((row) => [row.description.replace(/^.* added student /, ''), row.params.class_name]).sort(),
    ).toEqual([
      [`Lata Menon (${batch.student.unique_id}) to Morning batch`, 'Morning batch'],
      [`Mohan Das (${section.student.unique_id}) to Class 11 – A`, '11'],
    ]);
  });

  it('names each class of a list by its label once one of them is the centre’s own, with no class word glued on', async () => {
    const teacher = await signInNewTeacher(api.app, api.db, await api.adminToken(), {
      first_name: 'Nandini',
      classes_assigned: ['Morning batch', '9'],
    });
    const caller = callerOf(api.app, teacher.token);
    const seven = await family('en', 'Om Prakash', '7');
    const eight = await family('en', 'Pia Sen', '8');
    const refused = await caller.post('/api/v1/attendance/mark', {
      date: today(),
      records: [{ student_id: seven.student.id, status: 'present' }],
    });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json()).toEqual({
      detail: 'You can mark attendance only for your classes (Class 9, Morning batch). Class 7 is not assigned to you.',
      code: 'attendance.class_not_yours',
      params: { count: 2, classes: '9, Morning batch', other: '7' },
    });
    const both = await caller.post('/api/v1/attendance/mark', {
      date: today(),
      records: [seven, eight].map(({ student }) => ({ student_id: student.id, status: 'present' })),
    });
    expect(both.statusCode, both.body).toBe(403);
    expect(both.json()).toMatchObject({
      detail:
        'You can mark attendance only for your classes (Class 9, Morning batch). Classes 7 and 8 are not assigned to you.',
      params: { count: 2, classes: '9, Morning batch', others: '7', last: '8' },
    });
    const moved = await caller.put(`/api/v1/students/${seven.student.id}`, { class_name: '9' });
    expect(moved.statusCode, moved.body).toBe(403);
    expect(moved.json()).toMatchObject({
      detail:
        'Only an admin can move this student from Class 7 to Class 9: you mark only Class 9, Morning batch. Ask an admin to change the class.',
      params: { from: '7', to: '9', count: 2, classes: '9, Morning batch' },
    });
    const leave = await caller.get('/api/v1/leave-requests?class_name=7');
    expect(leave.statusCode, leave.body).toBe(403);
    expect(leave.json()).toEqual({
      detail: 'You can see leave requests only for your classes (Class 9, Morning batch).',
      code: 'leave.classes_only',
      params: { count: 2, classes: '9, Morning batch' },
    });

    const batch = await family('en', 'Qasim Ali', 'Morning batch');
    const nine = await family('en', 'Rekha Das', '9');
    // Today: a teacher marks only the last few days.
    const date = today();
    const marked = await caller.post('/api/v1/attendance/mark', {
      date,
      records: [batch, nine].map(({ student }) => ({ student_id: student.id, status: 'present' })),
    });
    expect(marked.statusCode, marked.body).toBe(200);
    const activities = await api.db.query<{ description: string; params: Record<string, unknown> }>(
      "SELECT description, params FROM activities WHERE text_code = 'attendance.marked' AND user_id = $1",
      [teacher.id],
    );
    expect(activities.map((row) => [row.description, row.params.classes, row.params.class_count])).toEqual([
      [
        `Nandini Rao marked attendance for 2 students of Class 9, Morning batch on ${readableDateIn(date, 'en')}`,
        '9, Morning batch',
        2,
      ],
    ]);
  });
});
