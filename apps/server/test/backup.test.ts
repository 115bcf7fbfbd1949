/**
 * Backups (ADR 015): the file format and its checks, a round trip of every table into a new empty
 * database, the refusals, the admin API, and the backup every clear-all takes before deleting.
 */

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app';
import { prepareContext } from '../src/bootstrap';
import {
  BACKUP_FILE_PATTERN,
  BackupFileError,
  backupDatabase,
  RestoreRefusedError,
  restoreBackup,
  writeBackupFile,
} from '../src/db/backup';
import { type Database, openPglite, type Queryable } from '../src/db/database';
import { keyIdOf } from '../src/lib/server-keys';
import { expectRefusal } from './helpers/answers';
import { refusal } from './helpers/async';
import { backupToFile, bytesSource, fileSource, linesOf } from './helpers/backup-files';
import { type TestClient, testClient } from './helpers/client';
import { scratchSpace } from './helpers/scratch';
import { ADMIN_PASSWORD, auth, createStudent, createTeacher, detailOf, login, testConfig } from './helpers/test-app';

let api: TestClient;
let admin: string;
let teacherLogin: { username: string; password: string };
const { tempDir, emptyDatabase } = scratchSpace('tuitiondesk-backup-test');

/** Every row of every table (as the database prints it), and every sequence's state. */
/** Every row of every table and every sequence, but the data versions, which a restore raises on purpose. */
async function contents(db: Queryable): Promise<Record<string, string[]>> {
  const tables = await db.query<{ name: string; kind: string }>(
    `SELECT c.relname AS name, c.relkind::text AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'S')
        AND c.relname NOT IN ('schema_migrations', 'data_versions', 'data_version_pending', 'audit_log_id_seq')
      ORDER BY c.relname`,
  );
  const result: Record<string, string[]> = {};
  for (const { name, kind } of tables) {
    const rows = await db.query<{ j: string }>(
      kind === 'S'
        ? `SELECT last_value::text || ' ' || is_called::text AS j FROM "${name}"`
        : name === 'message_counts'
          ? // Kept as changes added row by row: what they hold is each quarter-hour's sum.
            `SELECT quarter::text || ' ' || sum(messages)::text AS j FROM message_counts
              GROUP BY quarter HAVING sum(messages) <> 0 ORDER BY 1`
          : name === 'audit_log'
            ? // A restore adds one row of its own, saying so (ADR 025), and moves the sequence past it.
              `SELECT row_to_json(t)::text AS j FROM audit_log t WHERE action <> 'backup_restored' ORDER BY 1`
            : `SELECT row_to_json(t)::text AS j FROM "${name}" t ORDER BY 1`,
    );
    result[name] = rows.map((row) => row.j);
  }
  return result;
}

async function count(db: Queryable, table: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return row?.n ?? -1;
}

/** Runs `check` with the app's BACKUP_DIR below a plain file, where no directory can be made, and puts it back. */
async function withUnwritableBackupDir(check: () => Promise<void>): Promise<void> {
  const blocker = path.join(tempDir(), 'a-file');
  writeFileSync(blocker, '');
  const saved = api.ctx.config.backupDir;
  api.ctx.config.backupDir = path.join(blocker, 'backups');
  try {
    await check();
  } finally {
    api.ctx.config.backupDir = saved;
  }
}

/** A backup file with `edit`ed lines, and a checksum that matches them again. */
function rewritten(file: string, edit: (lines: string[]) => string[]): Buffer {
  const lines = edit(linesOf(file));
  const body = lines.slice(0, -1);
  const trailer = JSON.parse(lines.at(-1) as string);
  trailer.sha256 = createHash('sha256')
    .update(body.map((line) => `${line}\n`).join(''))
    .digest('hex');
  return gzipSync(`${[...body, JSON.stringify(trailer)].join('\n')}\n`);
}

beforeAll(async () => {
  api = await testClient();
  admin = await api.adminToken();

  // Students through the API (activities recorded), one of them with a name in another script.
  const students = [];
  for (const name of ['Ravi Kumar', 'अनन्या शर्मा', "Mary O'Brien", 'Zoë "Z" Chen 🙂', 'Leaving Soon']) {
    students.push(await createStudent(api.app, admin, { full_name: name, class_name: '8' }));
  }
  // A deleted student: the next code is STU0006, not STU0005 again.
  const gone = students.pop() as { id: number };
  expect((await api.withToken(admin).delete(`/api/v1/students/${gone.id}`)).statusCode).toBe(200);

  // Teachers with sign-in accounts; one changes the password.
  const anita = await createTeacher(api.app, admin, {
    first_name: 'Anita',
    last_name: 'Rao',
    email: 'anita@example.org',
  });
  await createTeacher(api.app, admin, { first_name: 'Vikram', last_name: 'Singh', subjects: ['Physics', 'Chemistry'] });
  const first = await login(api.app, anita.username, anita.initial_password);
  const changed = await api.withToken(first).post('/api/v1/auth/change-password', {
    current_password: anita.initial_password,
    new_password: 'her-own-password',
  });
  expect(changed.statusCode).toBe(200);
  teacherLogin = { username: anita.username, password: 'her-own-password' };

  // Attendance over many days (more rows than one batch reads or writes), some approved, with
  // remarks that need escaping; teacher attendance and a locked day.
  await api.db.query(
    `INSERT INTO attendance (student_id, date, class_name, status, remarks, marked_by, marked_by_user_id, marked_at,
                             approved_by, approved_by_user_id, approved_at)
     SELECT s.id, DATE '2026-01-01' + d, '8', (ARRAY['present','absent','late','leave'])[1 + (s.id + d) % 4],
            CASE WHEN d % 7 = 0 THEN E'came late\\n"bus" \\\\ rain' END, 'Anita Rao', u.id,
            TIMESTAMPTZ '2026-01-01 09:00:00.123456+05:30' + d * INTERVAL '1 day',
            CASE WHEN d < 2900 THEN 'Administrator' END, CASE WHEN d < 2900 THEN 1 END,
            CASE WHEN d < 2900 THEN TIMESTAMPTZ '2026-01-01 18:00:00.654321+05:30' + d * INTERVAL '1 day' END
       FROM students s CROSS JOIN generate_series(0, 2999) AS d
       JOIN users u ON u.username = $1`,
    [anita.username],
  );
  await api.db.query(
    `INSERT INTO teacher_attendance (teacher_id, date, status, remarks, check_in_time, check_out_time, marked_by_user_id)
     SELECT id, DATE '2026-01-05', 'present', NULL, '09:00', '17:00', 1 FROM teachers`,
  );
  await api.db.query(
    `INSERT INTO teacher_attendance_locks (date, locked_by, locked_by_user_id) VALUES ('2026-01-05', 'Administrator', 1)`,
  );

  // A parent with a device, a message about a student, and a push still waiting in the outbox.
  const student = students[0] as { id: number; parent_phone: string };
  await api.db.query(
    `INSERT INTO parent_access (phone, code_hash, issued_by, issued_by_user_id) VALUES ($1, 'hash', 'Administrator', 1)`,
    [student.parent_phone],
  );
  const [subscription] = await api.db.query<{ id: number }>(
    `INSERT INTO push_subscriptions (phone, endpoint, p256dh, auth, user_agent)
     VALUES ($1, 'https://push.example/abc', 'key', 'secret', 'Firefox') RETURNING id`,
    [student.parent_phone],
  );
  const [message] = await api.db.query<{ id: number }>(
    `INSERT INTO messages (subject, message, recipient, recipient_name, sent_by, sent_by_user_id, student_id, delivery_status)
     VALUES ('Absent today', E'Line one\\nLine two', $1, 'Parent', 'Administrator', 1, $2, 'sent') RETURNING id`,
    [student.parent_phone, student.id],
  );
  await api.db.query(
    `INSERT INTO push_outbox (message_id, subscription_id, attempts, last_error) VALUES ($1, $2, 2, 'HTTP 503')`,
    [message?.id, subscription?.id],
  );
  await api.db.query(`UPDATE settings SET value = 'false' WHERE key = 'absence_alerts'`);
  await api.db.query(`UPDATE users SET activities_viewed_at = now() WHERE username = 'admin'`);
  await api.db.query(
    `INSERT INTO login_throttle (key, failures, blocked_until) VALUES ('user:someone', 3, now() + INTERVAL '1 minute')`,
  );
});

afterAll(async () => {
  await api?.close();
});

describe('a backup restored into a new, empty database', () => {
  let file: string;
  let restored: Database;
  let before: Record<string, string[]>;
  let versionsBackedUp: { kind: string; version: string }[];
  const versions = (db: Queryable) =>
    db.query<{ kind: string; version: string }>('SELECT kind, version::text FROM data_versions ORDER BY kind');

  beforeAll(async () => {
    before = await contents(api.db);
    versionsBackedUp = await versions(api.db);
    file = await backupToFile(tempDir(), api.db);
    restored = await emptyDatabase();
    const summary = await restoreBackup(restored, fileSource(file), { label: file });
    expect(summary.tables.attendance).toBe(12_000);
    expect(summary.rows).toBe(Object.values(summary.tables).reduce((a, b) => a + b, 0));
  });

  it('is a gzip file of JSON lines: header, rows, trailer with counts and checksum; owner-only, named by kind and time', async () => {
    expect(path.basename(file)).toMatch(/^tuitiondesk-manual-\d{8}-\d{6}\.jsonl\.gz$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const lines = linesOf(file);
    const header = JSON.parse(lines[0] as string);
    expect(header).toMatchObject({
      format: 'tuitiondesk-backup',
      version: 2,
      database: api.db.kind,
      schema_version: header.migrations.at(-1),
      // Names the key file's sealing key without revealing it (ADR 017).
      key_id: keyIdOf(api.ctx.twoFactorKey),
    });
    const names = header.tables.map((table: { name: string }) => table.name);
    // Parents before the tables that refer to them.
    expect(names.indexOf('users')).toBeLessThan(names.indexOf('teachers'));
    expect(names.indexOf('students')).toBeLessThan(names.indexOf('attendance'));
    expect(names.indexOf('messages')).toBeLessThan(names.indexOf('push_outbox'));
    expect(names.indexOf('push_subscriptions')).toBeLessThan(names.indexOf('push_outbox'));
    expect(names).not.toContain('schema_migrations');
    const trailer = JSON.parse(lines.at(-1) as string);
    expect(trailer.end).toBe('tuitiondesk-backup');
    expect(lines).toHaveLength(1 + trailer.rows + 1);
    for (const table of header.tables) expect(trailer.tables[table.name]).toBe(table.rows);
    expect(trailer.tables.attendance).toBe(12_000);
  });

  it('holds every row of every table, and every sequence, exactly as they were', async () => {
    const after = await contents(restored);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    for (const name of Object.keys(before)) expect({ name, rows: after[name] }).toEqual({ name, rows: before[name] });
    expect(before.attendance).toHaveLength(12_000);
    expect(before.push_outbox).toHaveLength(1);
    // The backup's audit rows as they were, and one row more: this restore, not one per loaded record.
    expect(before.audit_log?.length).toBeGreaterThan(0);
    const restores = await restored.query<{ record_id: string; way: string }>(
      "SELECT record_id, way FROM audit_log WHERE action = 'backup_restored'",
    );
    expect(restores).toEqual([{ record_id: file, way: 'system' }]);
  });

  it('raises every data version past the backup’s, so no tag a console holds names the restored data', async () => {
    const original = versionsBackedUp;
    const now = await versions(restored);
    expect(now.map((row) => row.kind)).toEqual(original.map((row) => row.kind));
    now.forEach((row, index) => {
      expect(BigInt(row.version) > BigInt(original[index]?.version ?? '0')).toBe(true);
    });
  });

  it('restores into the embedded database from either kind, migrating a database that never was', async () => {
    // With TEST_DATABASE_URL set, the file came from PostgreSQL: the same format loads into PGlite.
    const other = await openPglite();
    try {
      const summary = await restoreBackup(other, fileSource(file), { label: file });
      expect(summary.migrated.length).toBeGreaterThan(0);
      expect(await contents(other)).toEqual(before);
    } finally {
      await other.close();
    }
  });

  it('runs the server: old passwords and sessions work, and new rows get new ids and codes', async () => {
    const { ctx, generatedAdminPassword } = await prepareContext(testConfig(), restored);
    expect(generatedAdminPassword).toBeUndefined();
    const app = await buildApp(ctx);
    try {
      await login(app, 'admin', ADMIN_PASSWORD);
      await login(app, teacherLogin.username, teacherLogin.password);
      // The same installation's key file: a token issued before the backup still works.
      expect((await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: auth(admin) })).statusCode).toBe(200);
      const [{ max }] = (await restored.query<{ max: number }>('SELECT max(id)::int AS max FROM students')) as [
        { max: number },
      ];
      const student = await createStudent(app, admin, { full_name: 'New After Restore' });
      expect(student.id).toBeGreaterThan(max);
      expect(student.unique_id).toBe('STU0006');
      const teacher = await createTeacher(app, admin, { first_name: 'Nina', last_name: 'New' });
      expect(teacher.unique_id).toBe('TCH0003');
    } finally {
      await app.close();
    }
  });
});

describe('restore refuses', () => {
  let file: string;
  beforeAll(async () => {
    file = await backupToFile(tempDir(), api.db);
  });

  it('a database that is not empty, naming what it holds, and changes nothing', async () => {
    const before = await contents(api.db);
    const error = await refusal(restoreBackup(api.db, fileSource(file), { label: file }));
    expect(error).toBeInstanceOf(RestoreRefusedError);
    expect(error.message).toMatch(
      /^The database is not empty \(it holds .*students: 4.*\)\. A restore only fills an empty database/,
    );
    expect(error.message).toContain('set DATA_DIR to a new directory');
    expect(error.message).toContain('create a new database');
    expect(await contents(api.db)).toEqual(before);
  });

  it('a database the server has started on (it created the admin)', async () => {
    const db = await emptyDatabase();
    await prepareContext(testConfig(), db);
    const error = await refusal(restoreBackup(db, fileSource(file), { label: file }));
    expect(error).toBeInstanceOf(RestoreRefusedError);
    expect(error.message).toMatch(/not empty \(it holds audit_log: \d+, users: 1\)/);
  });

  let fileErrorTarget: Promise<Database> | undefined;
  async function expectFileError(bytes: Buffer, message: RegExp): Promise<void> {
    // One empty database for all of them: each leaves it as it was.
    fileErrorTarget ??= emptyDatabase();
    const db = await fileErrorTarget;
    const before = await contents(db);
    const error = await refusal(restoreBackup(db, bytesSource(bytes), { label: 'x.jsonl.gz' }));
    expect(error).toBeInstanceOf(BackupFileError);
    expect(error.message).toMatch(message);
    expect(await contents(db)).toEqual(before);
  }

  it('a truncated file (the compressed copy cut short), writing nothing', async () => {
    const bytes = readFileSync(file);
    await expectFileError(bytes.subarray(0, Math.floor(bytes.length / 2)), /^The file x\.jsonl\.gz is truncated: /);
  });

  it('a file that ends before its rows do, naming where', async () => {
    const lines = linesOf(file);
    const cut = gzipSync(`${lines.slice(0, 10).join('\n')}\n`);
    await expectFileError(
      cut,
      /^The file x\.jsonl\.gz is truncated: it ends at line 10, before row \d+ of \d+ of table \w+/,
    );
    const noTrailer = gzipSync(`${lines.slice(0, -1).join('\n')}\n`);
    await expectFileError(noTrailer, /is truncated: it ends at line \d+, before the trailer/);
  });

  it('a corrupted file: damaged compressed data, or changed contents', async () => {
    const bytes = Buffer.from(readFileSync(file));
    const middle = Math.floor(bytes.length / 2);
    for (let i = middle; i < middle + 16; i += 1) bytes[i] = (bytes[i] as number) ^ 0xff;
    await expectFileError(bytes, /^The file x\.jsonl\.gz is (corrupted|truncated): /);

    const lines = linesOf(file);
    const edited = lines.map((line) => line.replace('Ravi Kumar', 'Ravi Kumaz'));
    await expectFileError(gzipSync(`${edited.join('\n')}\n`), /is corrupted: its checksum does not match its contents/);

    const notARow = [...lines];
    notARow[3] = 'garbage';
    await expectFileError(
      gzipSync(`${notARow.join('\n')}\n`),
      /is corrupted: line 4 \(row .* of table \w+\) is not a row/,
    );

    const extra = gzipSync(`${lines.join('\n')}\n{"more":1}\n`);
    await expectFileError(extra, /is corrupted: it has more lines after its trailer/);
  });

  it('a file that is not a TuitionDesk backup', async () => {
    await expectFileError(Buffer.from('name,class\nRavi,7\n'), /is not a TuitionDesk backup: it is not a gzip file/);
    await expectFileError(gzipSync('{"hello":"world"}\n'), /is not a TuitionDesk backup: its header names no format/);
    await expectFileError(
      gzipSync('PK\u0003\u0004 not json\n'),
      /is not a TuitionDesk backup: its first line is not a backup header/,
    );
    await expectFileError(gzipSync(''), /is empty/);
    const future = rewritten(file, (lines) => {
      const header = JSON.parse(lines[0] as string);
      header.version = 3;
      return [JSON.stringify(header), ...lines.slice(1)];
    });
    await expectFileError(future, /is in backup format version 3; this TuitionDesk reads versions 1 and 2/);
  });

  it('a backup from a newer schema than this code knows, writing nothing', async () => {
    const newer = rewritten(file, (lines) => {
      const header = JSON.parse(lines[0] as string);
      header.migrations.push('9999_future.sql');
      header.schema_version = '9999_future.sql';
      return [JSON.stringify(header), ...lines.slice(1)];
    });
    const db = await emptyDatabase();
    const before = await contents(db);
    const error = await refusal(restoreBackup(db, bytesSource(newer), { label: 'newer.jsonl.gz' }));
    expect(error).toBeInstanceOf(RestoreRefusedError);
    expect(error.message).toMatch(
      /^The file newer\.jsonl\.gz was made by a newer TuitionDesk: its schema is 9999_future\.sql, and this one knows schemas up to \d{4}_\w+\.sql\. Upgrade TuitionDesk first/,
    );
    expect(await contents(db)).toEqual(before);
  });

  it('rows the database rejects, loading none of them', async () => {
    const bad = rewritten(file, (lines) =>
      lines.map((line) =>
        line.includes('"class_name":"8","parent_name"') ? line.replace('"class_name":"8"', '"class_name":"12"') : line,
      ),
    );
    const db = await emptyDatabase();
    const before = await contents(db);
    const error = await refusal(restoreBackup(db, bytesSource(bad), { label: 'bad.jsonl.gz' }));
    expect(error).toBeInstanceOf(RestoreRefusedError);
    expect(error.message).toMatch(
      /^The rows of table students on lines \d+-\d+ of the file bad\.jsonl\.gz could not be loaded: .*Nothing was changed\.$/,
    );
    // Not even the schema: the migrations ran in the same transaction (on an unmigrated database).
    expect(await contents(db)).toEqual(before);
  });
});

describe('backup files', () => {
  it('are never overwritten: a second backup in the same second gets its own name', async () => {
    const dir = tempDir();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 10, 23, 21, 5, 9));
    try {
      const one = await writeBackupFile(dir, 'console', (write) => backupDatabase(api.db, write));
      writeFileSync(path.join(dir, 'tuitiondesk-console-20261123-210509-2.jsonl.gz'), 'keep me');
      const three = await writeBackupFile(dir, 'console', (write) => backupDatabase(api.db, write));
      expect(one.file).toBe('tuitiondesk-console-20261123-210509.jsonl.gz');
      expect(three.file).toBe('tuitiondesk-console-20261123-210509-3.jsonl.gz');
      expect(readFileSync(path.join(dir, 'tuitiondesk-console-20261123-210509-2.jsonl.gz'), 'utf8')).toBe('keep me');
      for (const name of [one.file, three.file]) expect(name).toMatch(BACKUP_FILE_PATTERN);
      expect(readdirSync(dir).sort()).toEqual(
        [one.file, 'tuitiondesk-console-20261123-210509-2.jsonl.gz', three.file].sort(),
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it('leave nothing behind when the backup fails', async () => {
    const dir = tempDir();
    const error = await refusal(
      writeBackupFile(dir, 'manual', async (write) => {
        await write('{"format":"tuitiondesk-backup"}\n');
        throw new Error('the database went away');
      }),
    );
    expect(error.message).toBe('the database went away');
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('POST and GET /backups', () => {
  const call = (method: 'GET' | 'POST', token?: string) =>
    (token ? api.withToken(token) : api.anonymous()).request(method, '/api/v1/backups');

  it('refuses without a token (401) and for a teacher (403)', async () => {
    const teacher = await api.teacherToken();
    for (const method of ['GET', 'POST'] as const) {
      expect((await call(method)).statusCode).toBe(401);
      const forbidden = await call(method, teacher);
      expect(forbidden.statusCode).toBe(403);
      expect(detailOf(forbidden)).toBe('You do not have permission to do this');
    }
  });

  it('writes a backup into BACKUP_DIR for an admin (201), lists it first, and records who took it', async () => {
    const response = await call('POST', admin);
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.file).toMatch(/^tuitiondesk-console-\d{8}-\d{6}(-\d+)?\.jsonl\.gz$/);
    expect(body.path).toBe(path.join(api.ctx.config.backupDir, body.file));
    expect(body.size_bytes).toBe(statSync(body.path).size);
    expect(statSync(body.path).mode & 0o777).toBe(0o600);
    expect(body.tables).toMatchObject({ students: 4, teachers: await count(api.db, 'teachers'), attendance: 12_000 });
    expect(body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/);

    const list = await call('GET', admin);
    expect(list.statusCode).toBe(200);
    expect(list.json().directory).toBe(api.ctx.config.backupDir);
    expect(list.json().backups[0]).toEqual({
      file: body.file,
      path: body.path,
      size_bytes: body.size_bytes,
      created_at: expect.any(String),
    });
    const [activity] = await api.db.query<{ action: string; description: string }>(
      'SELECT action, description FROM activities ORDER BY id DESC LIMIT 1',
    );
    expect(activity).toEqual({
      action: 'backup.created',
      description: `Administrator took a backup of all data (${body.file})`,
    });
  });

  it('answers 503 with the reason when BACKUP_DIR cannot be written, keeping nothing', async () => {
    await withUnwritableBackupDir(async () => {
      const response = await call('POST', admin);
      expectRefusal(response, 503, /^Could not write the backup: .*ENOTDIR.*\. No backup file was kept\.$/);
      expectRefusal(await call('GET', admin), 503, /^Could not read the backup directory /);
    });
  });
});

describe('clear-all takes a backup first', () => {
  const clear = (what: 'students' | 'teachers') => api.withToken(admin).delete(`/api/v1/${what}/clear-all`);

  it('deletes nothing, and says so, when the backup cannot be written', async () => {
    await withUnwritableBackupDir(async () => {
      for (const what of ['students', 'teachers'] as const) {
        expectRefusal(
          await clear(what),
          503,
          /^Could not take a backup before clearing: .*ENOTDIR.*\. Nothing was deleted\.$/,
        );
      }
      expect(await count(api.db, 'students')).toBe(4);
      expect(await count(api.db, 'teachers')).toBeGreaterThan(0);
      expect(await count(api.db, 'attendance')).toBe(12_000);
    });
  });

  it('answers where the backup is, and restoring it gives back everything that was cleared', async () => {
    const before = await contents(api.db);
    const teachers = await count(api.db, 'teachers');

    const students = await clear('students');
    expect(students.statusCode).toBe(200);
    const studentsBody = students.json();
    expect(studentsBody).toMatchObject({ deleted_count: 4, message: 'Deleted 4 students' });
    expect(path.basename(studentsBody.backup_file)).toMatch(
      /^tuitiondesk-before-clear-students-\d{8}-\d{6}(-\d+)?\.jsonl\.gz$/,
    );
    expect(path.dirname(studentsBody.backup_file)).toBe(api.ctx.config.backupDir);

    const teachersResponse = await clear('teachers');
    expect(teachersResponse.statusCode).toBe(200);
    const teachersBody = teachersResponse.json();
    expect(teachersBody).toMatchObject({
      deleted_count: teachers,
      deleted_teachers: teachers,
      deleted_users: teachers,
    });
    expect(path.basename(teachersBody.backup_file)).toMatch(/^tuitiondesk-before-clear-teachers-/);
    expect(await count(api.db, 'students')).toBe(0);
    expect(await count(api.db, 'teachers')).toBe(0);

    const [activity] = await api.db.query<{ description: string }>(
      "SELECT description FROM activities WHERE action = 'student.cleared' ORDER BY id DESC LIMIT 1",
    );
    expect(activity?.description).toBe(
      `Administrator cleared all students (4 students deleted; backup ${path.basename(studentsBody.backup_file)} taken first)`,
    );

    // The first backup was taken before anything was deleted: it holds it all.
    const restored = await emptyDatabase();
    await restoreBackup(restored, fileSource(studentsBody.backup_file));
    expect(await contents(restored)).toEqual(before);

    // The second holds the teachers (the students were gone by then).
    const second = await emptyDatabase();
    const summary = await restoreBackup(second, fileSource(teachersBody.backup_file));
    expect(summary.tables).toMatchObject({ students: 0, attendance: 0, teachers });
    // Two backups of 12,000 records and two new databases, each migrated: on the embedded database,
    // with the other runs of the suite on two loaded cores, this took over the 60 s hang guard.
  }, 240_000);

  it('a student added while a clear-all runs is either in its backup and deleted, or kept: never lost', async () => {
    for (const name of ['Before One', 'Before Two']) await createStudent(api.app, admin, { full_name: name });
    const present = await count(api.db, 'students');
    const [cleared, added] = await Promise.all([
      clear('students'),
      createStudent(api.app, admin, { full_name: 'Racing Student' }),
    ]);
    expect(cleared.statusCode).toBe(200);
    const inBackup = linesOf(cleared.json().backup_file).some((line) => line.includes('"Racing Student"'));
    const kept = (await api.db.query('SELECT 1 FROM students WHERE id = $1', [added.id])).length === 1;
    expect({ inBackup, kept }).toEqual(inBackup ? { inBackup: true, kept: false } : { inBackup: false, kept: true });
    expect(cleared.json().deleted_count).toBe(present + (inBackup ? 1 : 0));
  });

  it('two clear-alls at once both finish, one after the other, each with its own backup', async () => {
    await createStudent(api.app, admin, { full_name: 'Last Student' });
    await createTeacher(api.app, admin, { first_name: 'Last', last_name: 'Teacher' });
    const present = await count(api.db, 'students');
    const [students, teachers] = await Promise.all([clear('students'), clear('teachers')]);
    expect([students.statusCode, teachers.statusCode]).toEqual([200, 200]);
    expect(students.json().deleted_count).toBe(present);
    expect(teachers.json().deleted_teachers).toBeGreaterThanOrEqual(1);
    expect(students.json().backup_file).not.toBe(teachers.json().backup_file);
    expect(await count(api.db, 'students')).toBe(0);
    expect(await count(api.db, 'teachers')).toBe(0);
  });
});
