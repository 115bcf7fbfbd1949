import { SUBJECTS } from '@tuitiondesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, testClient } from './helpers/client';
import { lastActivity } from './helpers/imports';
import { detailOf, signInNewTeacher, uniquePhone } from './helpers/test-app';
import { workbook } from './helpers/workbooks';

// The centre's classes and subjects (ADR 043): defaults equal to the spec's, then a centre's own.
let api: TestClient;
beforeAll(async () => {
  api = await testClient();
});
afterAll(async () => {
  await api?.close();
});

const admin = () => api.as('admin');

async function addClass(body: Record<string, unknown>) {
  const response = await admin().post('/api/v1/classes', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: number; value: string; label: string; display_label: string };
}

async function auditRows(entity: string, recordId: number) {
  return api.db.query<{ action: string; actor_name: string }>(
    'SELECT action, actor_name FROM audit_log WHERE entity = $1 AND record_id = $2 ORDER BY id',
    [entity, String(recordId)],
  );
}

describe('the defaults are the spec’s', () => {
  it('answers GET /students/classes exactly as the spec does, for admins and teachers', async () => {
    const spec = [
      { value: '7', label: 'Class 7' },
      { value: '8', label: 'Class 8' },
      { value: '9', label: 'Class 9' },
      { value: '10', label: 'Class 10' },
    ];
    for (const role of ['admin', 'teacher'] as const) {
      const response = await api.as(role).get('/api/v1/students/classes');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(spec);
    }
  });

  it('lists the four classes and the ten subjects, with what uses each', async () => {
    const classes = (await api.as('teacher').get('/api/v1/classes')).json();
    expect(classes.map((c: { value: string }) => c.value)).toEqual(['7', '8', '9', '10']);
    expect(classes[0]).toMatchObject({
      label: 'Class 7',
      section: null,
      display_label: 'Class 7',
      sort_order: 1,
      archived: false,
      in_use: { students: expect.any(Number), teachers: expect.any(Number), attendance_records: 0 },
    });
    const subjects = (await api.as('teacher').get('/api/v1/subjects')).json();
    expect(subjects.map((s: { value: string }) => s.value)).toEqual([...SUBJECTS]);
  });
});

describe('a centre’s own classes', () => {
  let elevenA: { id: number; value: string };
  let morning: { id: number; value: string };

  beforeAll(async () => {
    elevenA = await addClass({ value: '11-A', label: 'Class 11', section: 'A' });
    morning = await addClass({ value: 'Morning batch' });
  });

  it('adds them at the end, audited with an activity row, and offers them everywhere', async () => {
    expect((await api.as('admin').get('/api/v1/students/classes')).json().slice(4)).toEqual([
      { value: '11-A', label: 'Class 11 – A' },
      { value: 'Morning batch', label: 'Morning batch' },
    ]);
    expect(await lastActivity(api)).toEqual({
      action: 'classes.added',
      description: 'Administrator added the class Morning batch',
    });
    expect(await auditRows('classes', morning.id)).toEqual([
      expect.objectContaining({ action: 'create', actor_name: 'Administrator' }),
    ]);
  });

  it('lets only an admin change the lists', async () => {
    const refused = await api.as('teacher').post('/api/v1/classes', { value: '12' });
    expect(refused.statusCode).toBe(403);
    expect((await api.as('teacher').delete(`/api/v1/classes/${morning.id}`)).statusCode).toBe(403);
    expect((await api.as('teacher').post('/api/v1/subjects', { value: 'Art' })).statusCode).toBe(403);
  });

  it('takes a student in 11-A written as people write it, and names the classes when it cannot', async () => {
    const student = await api.student({ full_name: 'Kiran Bose', class_name: 'class 11-a' });
    expect(student.class_name).toBe('11-A');
    const listed = (await admin().get('/api/v1/students/?class_name=Class%2011%20%E2%80%93%20A')).json();
    expect(listed.map((s: { id: number }) => s.id)).toEqual([student.id]);
    const bad = await admin().post('/api/v1/students/', {
      full_name: 'No Class',
      class_name: '11-B',
      parent_name: 'P',
      parent_phone: uniquePhone(),
    });
    expect(bad.statusCode).toBe(422);
    expect(detailOf(bad)).toBe('class_name: must be one of 7, 8, 9, 10, 11-A or Morning batch');
    expect(bad.json()).toMatchObject({ code: 'validation.not_a_class', params: { field: 'class_name' } });
  });

  it('assigns Morning batch and a new subject to a teacher, who marks that class', async () => {
    await admin().post('/api/v1/subjects', { value: 'Art' });
    const pupil = await api.student({ full_name: 'Meher Jain', class_name: 'morning batch' });
    const teacher = await signInNewTeacher(api.app, api.db, await admin().token(), {
      classes_assigned: ['Morning Batch'],
      subjects: ['art', 'Mathematics'],
    });
    const [record] = await api.db.query<{ classes_assigned: string[]; subjects: string[] }>(
      'SELECT classes_assigned, subjects FROM teachers WHERE id = $1',
      [teacher.teacherId],
    );
    expect(record).toEqual({ classes_assigned: ['Morning batch'], subjects: ['Art', 'Mathematics'] });

    const scope = (await api.as('teacher', teacher).get('/api/v1/attendance/marking-scope')).json();
    expect(scope.classes).toEqual(['Morning batch']);
    const roster = await api.as('teacher', teacher).get('/api/v1/attendance/roster?class_name=Morning%20batch');
    expect(roster.json()).toMatchObject({ class_name: 'Morning batch', can_mark: true });
    const today = roster.json().date;
    const marked = await api
      .as('teacher', teacher)
      .post('/api/v1/attendance/mark', { date: today, records: [{ student_id: pupil.id, status: 'absent' }] });
    expect(marked.statusCode, marked.body).toBe(200);
    const refused = await api.as('teacher', teacher).get('/api/v1/attendance/roster?class_name=7');
    expect(refused.json().can_mark).toBe(false);

    const badSubject = await admin().put(`/api/v1/teachers/${teacher.teacherId}`, { subjects: ['Art', 'Pottery'] });
    expect(badSubject.statusCode).toBe(422);
    expect(detailOf(badSubject)).toBe(`subjects[1]: must be one of ${[...SUBJECTS, 'Art'].join(', ')}`);
  });

  it('sends a message to the families of Morning batch', async () => {
    const count = await admin().get('/api/v1/messages/family-count?recipients=morning%20batch');
    expect(count.json()).toMatchObject({ recipients: 'Morning batch', families: 1 });
    const sent = await admin().post('/api/v1/messages/send-to-parents', {
      subject: 'Timing',
      message: 'The morning batch starts at 7 tomorrow.',
      recipients: 'Morning batch',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().recipients_count).toBe(1);
    const bad = await admin().get('/api/v1/messages/family-count?recipients=Evening%20batch');
    expect(detailOf(bad)).toBe('recipients: must be all_parents or a class (7, 8, 9, 10, 11-A or Morning batch)');
  });

  it('imports students and teachers into the new classes, and lists them in the templates', async () => {
    const students = workbook([
      ['first_name', 'last_name', 'class_name', 'parent_phone'],
      ['Asha', 'Verma', 'Class 11 – A', uniquePhone()],
      ['Bilal', '', 'Morning batch', uniquePhone()],
      ['Chitra', 'Nair', '12', uniquePhone()],
    ]);
    const imported = await admin().upload('/api/v1/import/students/import', [
      { field: 'file', filename: 'batches.xlsx', content: students },
    ]);
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json().imported_students).toEqual([
      expect.objectContaining({ name: 'Asha Verma', class_name: '11-A' }),
      expect.objectContaining({ name: 'Bilal', class_name: 'Morning batch' }),
    ]);
    expect(imported.json().errors).toEqual([
      { row: 4, error: 'class_name: must be one of 7, 8, 9, 10, 11-A or Morning batch' },
    ]);

    const teachers = workbook([
      ['first_name', 'last_name', 'email', 'phone_number', 'subjects', 'classes_assigned'],
      ['Dev', 'Rao', 'dev.rao@example.com', uniquePhone(), 'Art, Maths', '11-A, morning batch'],
    ]);
    const teacherImport = await admin().upload('/api/v1/import/teachers/import', [
      { field: 'file', filename: 'staff.xlsx', content: teachers },
    ]);
    expect(teacherImport.statusCode, teacherImport.body).toBe(200);
    const [dev] = await api.db.query<{ classes_assigned: string[]; subjects: string[] }>(
      "SELECT classes_assigned, subjects FROM teachers WHERE email = 'dev.rao@example.com'",
    );
    expect(dev).toEqual({ classes_assigned: ['11-A', 'Morning batch'], subjects: ['Art', 'Mathematics'] });

    const template = await admin().get('/api/v1/import/teachers/template');
    expect(template.statusCode).toBe(200);
    const XLSX = await import('@e965/xlsx');
    const book = XLSX.read(template.rawPayload);
    const text = JSON.stringify(XLSX.utils.sheet_to_json(book.Sheets.Instructions as never, { header: 1 }));
    expect(text).toContain('7, 8, 9, 10, 11-A or \\"Morning batch\\"');
    expect(text).toContain('Physical Education, Art');
  });

  it('relabels a class: students keep its value, the lists show the new label', async () => {
    const changed = await admin().put(`/api/v1/classes/${elevenA.id}`, { label: 'Science 11', section: '' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ value: '11-A', label: 'Science 11', section: null });
    const options = (await admin().get('/api/v1/students/classes')).json();
    expect(options).toContainEqual({ value: '11-A', label: 'Science 11' });
    expect(await lastActivity(api)).toEqual({
      action: 'classes.changed',
      description: 'Administrator changed the class 11-A: now shown as Science 11',
    });
    const clash = await admin().put(`/api/v1/classes/${elevenA.id}`, { label: 'class 7' });
    expect(clash.statusCode).toBe(409);
    expect(detailOf(clash)).toBe('There is already a class Class 7: choose another name, or unarchive that class');
  });

  it('archives a class in use: its students keep it, nothing new goes in, selects no longer offer it', async () => {
    const kept = await api.student({ full_name: 'Tara Sen', class_name: '11-A' });
    const archived = await admin().post(`/api/v1/classes/${elevenA.id}/archive`);
    expect(archived.statusCode, archived.body).toBe(200);
    expect(archived.json()).toMatchObject({ archived: true, archived_at: expect.any(String) });
    const options = (await admin().get('/api/v1/students/classes')).json();
    expect(options.map((o: { value: string }) => o.value)).not.toContain('11-A');

    const renamed = await admin().put(`/api/v1/students/${kept.id}`, { full_name: 'Tara Sen Gupta' });
    expect(renamed.json()).toMatchObject({ class_name: '11-A' });
    const refused = await admin().post('/api/v1/students/', {
      full_name: 'Late Comer',
      class_name: '11-A',
      parent_name: 'P',
      parent_phone: uniquePhone(),
    });
    expect(refused.statusCode).toBe(422);
    expect(detailOf(refused)).toBe(
      'class_name: Science 11 is archived: choose another class, or unarchive it under Classes and subjects',
    );
    // Its records can still be found.
    const listed = (await admin().get('/api/v1/students/?class_name=11-A')).json();
    expect(listed.map((s: { id: number }) => s.id)).toContain(kept.id);

    const deleted = await admin().delete(`/api/v1/classes/${elevenA.id}`);
    expect(deleted.statusCode).toBe(409);
    expect(detailOf(deleted)).toMatch(
      /^Science 11 is in use \(\d+ students, 1 teacher, 0 attendance records\) and cannot be deleted: archive it instead/,
    );
    const back = await admin().post(`/api/v1/classes/${elevenA.id}/unarchive`);
    expect(back.json()).toMatchObject({ archived: false, archived_at: null });
    expect(await auditRows('classes', elevenA.id)).toEqual([
      expect.objectContaining({ action: 'create' }),
      expect.objectContaining({ action: 'update' }),
      expect.objectContaining({ action: 'update' }),
      expect.objectContaining({ action: 'update' }),
    ]);
  });

  it('deletes an unused class and subject, and refuses a subject a teacher teaches', async () => {
    // Empty label and section fields (a form's) are none.
    const unused = await addClass({ value: '12', label: '', section: '' });
    expect(unused).toMatchObject({ value: '12', label: 'Class 12', section: null });
    const deleted = await admin().delete(`/api/v1/classes/${unused.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ message: 'Class "Class 12" deleted' });
    expect(await lastActivity(api)).toEqual({
      action: 'classes.deleted',
      description: 'Administrator deleted the class Class 12',
    });
    expect((await admin().delete(`/api/v1/classes/${unused.id}`)).statusCode).toBe(404);

    const subjects = (await admin().get('/api/v1/subjects')).json() as { id: number; value: string }[];
    const art = subjects.find((s) => s.value === 'Art');
    const inUse = await admin().delete(`/api/v1/subjects/${art?.id}`);
    expect(inUse.statusCode).toBe(409);
    expect(detailOf(inUse)).toBe(
      'Art is taught by 2 teachers and cannot be deleted: archive it instead, so it is no longer offered',
    );
    const music = (await admin().post('/api/v1/subjects', { value: 'Music' })).json();
    expect((await admin().delete(`/api/v1/subjects/${music.id}`)).statusCode).toBe(200);
  });

  it('refuses a second class that reads the same, and of two adds at once creates one', async () => {
    for (const value of ['7', 'Class 8', 'IX', '10th', 'morning BATCH']) {
      const response = await admin().post('/api/v1/classes', { value });
      expect(response.statusCode, value).toBe(409);
    }
    const reserved = await admin().post('/api/v1/classes', { value: 'all_parents' });
    expect(reserved.statusCode).toBe(422);
    const comma = await admin().post('/api/v1/classes', { value: '11, 12' });
    expect(detailOf(comma)).toBe('value: must not contain a comma');

    const both = await Promise.all([
      admin().post('/api/v1/classes', { value: 'Evening batch' }),
      admin().post('/api/v1/classes', { value: 'Evening batch' }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const rows = await api.db.query("SELECT id FROM classes WHERE lower(value) = 'evening batch'");
    expect(rows).toHaveLength(1);
  });

  it('reorders the classes, and refuses an order that leaves one out', async () => {
    const classes = (await admin().get('/api/v1/classes')).json() as { id: number; value: string }[];
    const ids = classes.map((c) => c.id).reverse();
    const response = await admin().put('/api/v1/classes/order', { ids });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().map((c: { id: number }) => c.id)).toEqual(ids);
    const options = (await admin().get('/api/v1/students/classes')).json();
    expect(options[0].value).toBe('Evening batch');
    const incomplete = await admin().put('/api/v1/classes/order', { ids: ids.slice(1) });
    expect(incomplete.statusCode).toBe(422);
    expect(detailOf(incomplete)).toBe(`ids: must list every class id exactly once (${ids.length} in all)`);
    await admin().put('/api/v1/classes/order', { ids: classes.map((c) => c.id) });
  });

  it('keeps the last active class', async () => {
    const fresh = await testClient();
    try {
      const classes = (await fresh.as('admin').get('/api/v1/classes')).json() as { id: number }[];
      for (const c of classes.slice(0, -1)) {
        expect((await fresh.as('admin').post(`/api/v1/classes/${c.id}/archive`)).statusCode).toBe(200);
      }
      const last = await fresh.as('admin').post(`/api/v1/classes/${classes.at(-1)?.id}/archive`);
      expect(last.statusCode).toBe(409);
      expect(detailOf(last)).toBe(
        'Class 10 is the only class that is not archived: add or unarchive another class first',
      );
    } finally {
      await fresh.close();
    }
  });
});
