/**
 * What the import test files share: the app (and one with tiny limits, for the size and row caps), an
 * upload as the admin or another caller, the counts an import changes, and sheets to build.
 */
import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll } from 'vitest';
import { type TestClient, testClient } from './client';

export let api: TestClient;
/** An app with tiny limits, for the size and row caps (opened only when asked for). */
export let small: TestClient;

/** Opens the app (and the one with tiny limits when asked) before the file's tests, closes them after. */
export function importApps(options: { small?: boolean } = {}): void {
  beforeAll(async () => {
    const [opened, limited] = await Promise.all([
      testClient(),
      options.small ? testClient({ config: { importMaxBytes: 20_000, importMaxRows: 5 } }) : undefined,
    ]);
    api = opened;
    if (limited) small = limited;
  });
  afterAll(async () => {
    await Promise.all([api?.close(), small?.close()]);
  });
}

export type Kind = 'students' | 'teachers';

interface UploadOptions {
  app?: TestClient;
  query?: string;
  /** Whose upload it is: the admin's unless a token says otherwise. */
  token?: string;
  field?: string;
}

export function upload(kind: Kind, file: Buffer, filename = `${kind}.xlsx`, options: UploadOptions = {}) {
  const app = options.app ?? api;
  const caller = options.token ? app.withToken(options.token) : app.as('admin');
  const url = `/api/v1/import/${kind}/import${options.query ?? ''}`;
  return caller.upload(url, [{ field: options.field ?? 'file', filename, content: file }]);
}

export async function count(table: 'students' | 'teachers' | 'users' | 'activities', app = api): Promise<number> {
  const rows = await app.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return rows[0]?.n ?? 0;
}

export async function counts(app = api) {
  return {
    students: await count('students', app),
    teachers: await count('teachers', app),
    users: await count('users', app),
    activities: await count('activities', app),
  };
}

export async function lastActivity(app = api) {
  const [row] = await app.db.query<{ action: string; description: string }>(
    'SELECT action, description FROM activities ORDER BY id DESC LIMIT 1',
  );
  return row;
}

export const STUDENT_HEADER = ['first_name', 'last_name', 'class_name', 'parent_phone'];
export const TEACHER_HEADER = ['first_name', 'last_name', 'email', 'phone_number'];

let phone = 0;
/** A distinct valid phone for each call, within a test file. */
export function nextPhone(): string {
  phone += 1;
  return `+9197${String(phone).padStart(8, '0')}`;
}

export function sheetRows(file: Buffer, sheet: string): unknown[][] {
  const book = XLSX.read(file, { type: 'buffer' });
  return XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[sheet] as XLSX.WorkSheet, { header: 1 });
}
