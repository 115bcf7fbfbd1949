/** The family's language from the parent app: kept as parent_language on every child's record. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, testClient } from './helpers/client';
import { createStudent, detailOf } from './helpers/test-app';

let api: TestClient;
beforeAll(async () => {
  api = await testClient();
});
afterAll(async () => {
  await api?.close();
});

describe('/parent/language', () => {
  it("answers the family's language: English until chosen", async () => {
    const parent = api.as('parent', await api.family());
    const answer = await parent.get('/api/v1/parent/language');
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ language: 'en' });
  });

  it("sets the family's language on every child with that phone, and no other family's", async () => {
    const family = await api.family();
    const sibling = await createStudent(api.app, await api.adminToken(), { parent_phone: family.phone });
    const other = await api.family();
    const parent = api.as('parent', family);

    const chosen = await parent.put('/api/v1/parent/language', { language: 'mr' });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json()).toEqual({ language: 'mr' });
    expect((await parent.get('/api/v1/parent/language')).json()).toEqual({ language: 'mr' });

    const rows = await api.db.query<{ id: number; parent_language: string }>(
      'SELECT id, parent_language FROM students WHERE id = ANY($1::int[]) ORDER BY id',
      [[family.studentId, sibling.id, other.studentId]],
    );
    expect(Object.fromEntries(rows.map((row) => [row.id, row.parent_language]))).toEqual({
      [family.studentId]: 'mr',
      [sibling.id]: 'mr',
      [other.studentId]: 'en',
    });
    // Staff see the family's choice on the student's record.
    const student = await api.as('admin').get(`/api/v1/students/${sibling.id}`);
    expect(student.json().parent_language).toBe('mr');
  });

  it('refuses a language the centre does not write in, naming the field', async () => {
    const parent = api.as('parent', await api.family());
    for (const body of [{ language: 'fr' }, { language: null }, {}]) {
      const refused = await parent.put('/api/v1/parent/language', body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(422);
      expect(detailOf(refused)).toMatch(/^language: /);
    }
    expect((await parent.get('/api/v1/parent/language')).json()).toEqual({ language: 'en' });
  });

  it('is for parents only: a staff token is refused', async () => {
    const response = await api.as('admin').put('/api/v1/parent/language', { language: 'hi' });
    expect(response.statusCode).toBe(403);
  });
});
