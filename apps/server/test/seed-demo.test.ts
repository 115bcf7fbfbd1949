/**
 * `npm run seed:demo` as a process: what it writes into an empty database, that the server then runs
 * on it and the printed passwords sign in, and that it refuses a database already in use (a running
 * server's DATA_DIR, or one that holds students) without changing anything. On PGlite by default;
 * with TEST_DATABASE_URL the seed and the server run on a database of their own there.
 */
import path from 'node:path';
import { CLASS_NAMES, SUBJECTS } from '@tuitiondesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPglite, openPostgres } from '../src/db/database';
import { addDays, today } from '../src/lib/time';
import { buildDemoCentre, DEMO_DAYS } from '../src/scripts/demo/centre';
import {
  choosePassword,
  cleanUpProcesses,
  type Finished,
  login,
  runScript,
  SLOW,
  startServer,
  stopServer,
  tempDir,
} from './helpers/server-process';
import { emptyServerDatabase } from './helpers/test-app';

const serverUrl = process.env.TEST_DATABASE_URL || undefined;

interface Run extends Finished {
  ms: number;
}

let dataDir = '';
let databaseUrl: string | undefined;
let dropDatabase: () => Promise<void> = async () => {};

/** Where the seed and the server find their database: DATA_DIR, or DATABASE_URL on PostgreSQL. */
function databaseEnv(): Record<string, string> {
  return databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir };
}

async function seed(env: Record<string, string> = {}): Promise<Run> {
  const started = performance.now();
  const run = await runScript('seed-demo', [], { ...databaseEnv(), ...env });
  return { ...run, ms: performance.now() - started };
}

async function openDatabase(): Promise<Database> {
  return databaseUrl ? openPostgres(databaseUrl, { max: 1 }) : openPglite(path.join(dataDir, 'pgdata'));
}

/** Everything the seed could have written, to compare before and after a refused run. */
async function snapshot(db: Database): Promise<Record<string, unknown>> {
  const tables = [
    'users',
    'settings',
    'students',
    'teachers',
    'attendance',
    'teacher_attendance',
    'teacher_attendance_locks',
    'messages',
    'activities',
    'schema_migrations',
  ];
  const result: Record<string, unknown> = {};
  for (const table of tables) {
    const [row] = await db.query<{ rows: string }>(
      `SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS rows FROM ${table} t`,
    );
    result[table] = row?.rows;
  }
  return result;
}

beforeAll(async () => {
  dataDir = tempDir();
  if (serverUrl) {
    const created = await emptyServerDatabase(serverUrl, 'tuitiondesk_seed');
    databaseUrl = created.url;
    dropDatabase = created.drop;
  }
});

afterAll(async () => {
  await cleanUpProcesses();
  await dropDatabase();
});

describe('the demo data', () => {
  it('is the same for the same day and seed, and the same people whatever the day', () => {
    const now = new Date(2026, 2, 18, 19, 30);
    const a = buildDemoCentre(now);
    expect(buildDemoCentre(now)).toEqual(a);
    const later = buildDemoCentre(new Date(2026, 6, 2, 9, 0));
    const people = (centre: typeof a) => ({
      students: centre.students.map(({ created_at: _, ...student }) => student),
      teachers: centre.teachers.map(({ created_at: _, ...teacher }) => teacher),
    });
    expect(people(later)).toEqual(people(a));
    expect(buildDemoCentre(now, 7).students).not.toEqual(a.students);
  });

  it('is valid for the schema and believable', () => {
    const now = new Date(2026, 2, 18, 10, 0); // a Wednesday morning
    const centre = buildDemoCentre(now);
    const { students, teachers, days } = centre;
    expect(students.length).toBeGreaterThanOrEqual(110);
    expect(students.length).toBeLessThanOrEqual(130);
    expect(new Set(students.map((s) => s.full_name)).size).toBe(students.length);
    for (const student of students) {
      expect(CLASS_NAMES).toContain(student.class_name);
      expect(student.parent_phone).toMatch(/^\+91[6-9]\d{9}$/);
      expect(student.parent_name.trim()).not.toBe('');
    }
    // Brothers and sisters share a parent and a phone.
    expect(new Set(students.map((s) => s.parent_phone)).size).toBeLessThan(students.length);
    expect(teachers).toHaveLength(8);
    for (const teacher of teachers) {
      for (const subject of teacher.subjects) expect(SUBJECTS).toContain(subject);
      expect(teacher.classes_assigned.length).toBeGreaterThan(0);
      expect(teacher.phone_number).toMatch(/^\+91\d{10}$/);
    }
    const dates = days.map((day) => day.date);
    expect(dates.some((date) => new Date(`${date}T00:00:00Z`).getUTCDay() === 0)).toBe(false);
    expect(dates.at(-1)).toBe(today(now));
    expect((dates[0] as string) >= addDays(today(now), -(DEMO_DAYS - 1))).toBe(true);
    expect(days.filter((day) => day.approved_at === null).map((day) => day.date)).toEqual(dates.slice(-2));
    expect(days.filter((day) => day.locked_at === null).map((day) => day.date)).toEqual(dates.slice(-2));
    // Nothing happens after `now`, even on today's afternoon.
    const stamps = [
      ...days.flatMap((day) => [
        day.approved_at,
        day.locked_at,
        day.teachers_marked_at,
        ...day.classes.map((c) => c.marked_at),
      ]),
      ...centre.sends.flatMap((send) => [send.sent_at, ...send.recipients.map((r) => r.delivered_at)]),
      ...centre.activities.map((activity) => activity.at),
    ].filter((stamp): stamp is string => stamp !== null);
    for (const stamp of stamps) expect(Date.parse(stamp)).toBeLessThan(now.getTime());
  });
});

describe("the demo's families", () => {
  it('mostly agreed to WhatsApp, read a few languages, and each family agrees with itself', () => {
    const centre = buildDemoCentre(new Date(2026, 2, 18, 10, 0));
    const families = new Map<string, string>();
    for (const student of centre.students) {
      const family = `${student.parent_whatsapp_opt_in} ${student.parent_language}`;
      expect(families.get(student.parent_phone) ?? family).toBe(family);
      families.set(student.parent_phone, family);
    }
    const optedIn = [...families.values()].filter((family) => family.startsWith('true')).length;
    expect(optedIn / families.size).toBeGreaterThan(0.5);
    expect(optedIn / families.size).toBeLessThan(0.7);
    const languages = new Set([...families.values()].map((family) => family.split(' ')[1]));
    expect(languages.size).toBeGreaterThanOrEqual(4);
    // The last logged change of each family's consent is what its records say; never-asked families have none.
    const last = new Map(centre.consents.map((change) => [change.phone, change.opted_in]));
    for (const [phone, family] of families) expect(last.get(phone) ?? false).toBe(family.startsWith('true'));
    expect(new Set(centre.consents.map((change) => change.source))).toEqual(
      new Set(['import', 'staff', 'whatsapp_reply']),
    );
  });
});

describe('npm run seed:demo', SLOW, () => {
  let first: Run;
  let adminPassword = '';
  let accounts: { username: string; name: string; password: string }[] = [];

  it('fills an empty database in one run and prints the admin and teacher passwords once', async () => {
    first = await seed();
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/Demo centre created in [\d.]+ s:/);
    expect(first.stdout).toMatch(/120 students \(Class 7: \d+, Class 8: \d+, Class 9: \d+, Class 10: \d+\)/);

    adminPassword = /username: admin\n {2}password: (\S+)/.exec(first.stdout)?.[1] ?? '';
    expect(adminPassword).toMatch(/^\S{16}$/);
    accounts = [...first.stdout.matchAll(/^ {2}(TCH\d{4,}) +(\S.*?\S) {2,}(\S{16})$/gm)].map(
      ([, username, name, password]) => ({
        username: username as string,
        name: name as string,
        password: password as string,
      }),
    );
    expect(accounts).toHaveLength(8);
    for (const account of accounts) expect(first.stdout.split(account.password)).toHaveLength(2);
  });

  it('writes students, teachers with accounts, a month of attendance, messages and activity', async () => {
    const db = await openDatabase();
    try {
      const classes = await db.query<{ class_name: string; count: number }>(
        'SELECT class_name, count(*)::int AS count FROM students GROUP BY class_name ORDER BY class_name::int',
      );
      expect(classes.map((c) => c.class_name)).toEqual(['7', '8', '9', '10']);
      expect(classes.reduce((sum, c) => sum + c.count, 0)).toBe(120);
      for (const c of classes) expect(c.count).toBeGreaterThanOrEqual(25);
      const [ids] = await db.query<{ first: string; last: string }>(
        'SELECT min(unique_id) AS first, max(unique_id) AS last FROM students',
      );
      expect(ids).toEqual({ first: 'STU0001', last: 'STU0120' });

      const teachers = await db.query<{
        unique_id: string;
        full_name: string;
        username: string;
        role: string;
        must_change_password: boolean;
        password_hash: string;
      }>(
        `SELECT t.unique_id, t.full_name, u.username, u.role, u.must_change_password, u.password_hash
           FROM teachers t JOIN users u ON u.id = t.user_id ORDER BY t.unique_id`,
      );
      expect(teachers).toHaveLength(8);
      for (const teacher of teachers) {
        expect(teacher).toMatchObject({ username: teacher.unique_id, role: 'teacher', must_change_password: true });
        expect(teacher.password_hash).toMatch(/^scrypt\$12\$8\$1\$/); // the cost for generated passwords
      }
      expect(accounts.map((a) => [a.username, a.name])).toEqual(teachers.map((t) => [t.unique_id, t.full_name]));
      const [users] = await db.query<{ admins: number; teachers: number }>(
        `SELECT count(*) FILTER (WHERE role = 'admin')::int AS admins, count(*) FILTER (WHERE role = 'teacher')::int AS teachers
           FROM users`,
      );
      expect(users).toEqual({ admins: 1, teachers: 8 });

      const day = today();
      const [attendance] = await db.query<{
        days: number;
        first: string;
        last: string;
        sundays: number;
        pending: number;
        approved: number;
        statuses: string[];
        wrong_class: number;
        unapproved_but_named: number;
      }>(
        `SELECT count(DISTINCT a.date)::int AS days, min(a.date) AS first, max(a.date) AS last,
                count(*) FILTER (WHERE extract(dow FROM a.date) = 0)::int AS sundays,
                count(*) FILTER (WHERE a.approved_at IS NULL)::int AS pending,
                count(*) FILTER (WHERE a.approved_at IS NOT NULL AND a.approved_by IS NOT NULL)::int AS approved,
                array_agg(DISTINCT a.status ORDER BY a.status) AS statuses,
                count(*) FILTER (WHERE a.class_name <> s.class_name)::int AS wrong_class,
                count(*) FILTER (WHERE a.approved_at IS NULL AND a.approved_by IS NOT NULL)::int AS unapproved_but_named
           FROM attendance a JOIN students s ON s.id = a.student_id`,
      );
      expect(attendance).toMatchObject({ sundays: 0, wrong_class: 0, unapproved_but_named: 0 });
      expect(attendance?.statuses).toEqual(['absent', 'late', 'leave', 'present']);
      expect(attendance?.days).toBeGreaterThanOrEqual(24);
      expect((attendance?.first as string) >= addDays(day, -(DEMO_DAYS - 1))).toBe(true);
      expect((attendance?.last as string) <= day).toBe(true);
      expect(attendance?.pending).toBeGreaterThan(0);
      expect(attendance?.approved).toBeGreaterThan(attendance?.pending ?? 0);
      // Pending are the last two school days; every day before them is approved.
      const pendingDays = await db.query<{ date: string }>(
        'SELECT DISTINCT date FROM attendance WHERE approved_at IS NULL ORDER BY date',
      );
      const [lastApproved] = await db.query<{ date: string }>(
        'SELECT max(date) AS date FROM attendance WHERE approved_at IS NOT NULL',
      );
      expect(pendingDays).toHaveLength(2);
      expect(pendingDays.every((p) => p.date > (lastApproved?.date as string))).toBe(true);
      const [marker] = await db.query<{ by_teacher: number; total: number }>(
        `SELECT count(*) FILTER (WHERE u.role = 'teacher' AND a.marked_by = u.full_name)::int AS by_teacher,
                count(*)::int AS total
           FROM attendance a LEFT JOIN users u ON u.id = a.marked_by_user_id`,
      );
      expect(marker?.by_teacher).toBe(marker?.total);

      const [teacherDays] = await db.query<{ rows: number; days: number; locked: number; open_days: number }>(
        `SELECT count(*)::int AS rows, count(DISTINCT date)::int AS days,
                (SELECT count(*)::int FROM teacher_attendance_locks) AS locked,
                count(DISTINCT date) FILTER (WHERE date NOT IN (SELECT date FROM teacher_attendance_locks))::int AS open_days
           FROM teacher_attendance`,
      );
      expect(teacherDays?.days).toBe(attendance?.days);
      expect(teacherDays?.rows).toBe((teacherDays?.days ?? 0) * 8);
      expect(teacherDays?.open_days).toBe(2);
      expect(teacherDays?.locked).toBe((teacherDays?.days ?? 0) - 2);

      const sends = await db.query<{ subject: string; sent_at: string; recipients: number; statuses: string[] }>(
        `SELECT subject, sent_at, count(*)::int AS recipients, array_agg(DISTINCT delivery_status) AS statuses
           FROM messages GROUP BY subject, sent_at ORDER BY sent_at`,
      );
      expect(sends.length).toBeGreaterThanOrEqual(5);
      for (const send of sends) expect(send.recipients).toBeGreaterThan(20);
      expect(new Set(sends.flatMap((s) => s.statuses))).toEqual(new Set(['sent', 'delivered', 'failed']));
      const [messageRules] = await db.query<{ bad: number }>(
        `SELECT count(*) FILTER (WHERE (delivery_status = 'delivered') <> (delivered_at IS NOT NULL)
                                   OR (delivery_status = 'failed') <> (failure_reason IS NOT NULL)
                                   OR recipient NOT IN (SELECT parent_phone FROM students))::int AS bad
           FROM messages`,
      );
      expect(messageRules?.bad).toBe(0);

      const [families] = await db.query<{ families: number; opted_in: number; disagree: number; logged: number }>(
        `SELECT count(*)::int AS families, count(*) FILTER (WHERE opted_in)::int AS opted_in,
                count(*) FILTER (WHERE kinds > 1)::int AS disagree,
                (SELECT count(DISTINCT phone)::int FROM whatsapp_consent_log) AS logged
           FROM (SELECT parent_phone, bool_and(parent_whatsapp_opt_in) AS opted_in,
                        count(DISTINCT (parent_whatsapp_opt_in, parent_language, parent_whatsapp_opt_in_changed_at)) AS kinds
                   FROM students GROUP BY parent_phone) f`,
      );
      expect(families?.disagree).toBe(0);
      expect((families?.opted_in ?? 0) / (families?.families ?? 1)).toBeGreaterThan(0.5);
      expect(families?.logged).toBeGreaterThanOrEqual(families?.opted_in ?? 0);

      const [activities] = await db.query<{ total: number; actions: string[]; future: number; orphans: number }>(
        `SELECT count(*)::int AS total, array_agg(DISTINCT action ORDER BY action) AS actions,
                count(*) FILTER (WHERE created_at > now())::int AS future,
                count(*) FILTER (WHERE user_id IS NULL)::int AS orphans
           FROM activities`,
      );
      expect(activities?.total).toBeGreaterThan(100);
      expect(activities).toMatchObject({ future: 0, orphans: 0 });
      expect(activities?.actions).toEqual(
        expect.arrayContaining([
          'attendance.marked',
          'attendance.approved',
          'teacher.created',
          'teacher_attendance.locked',
          'messages.sent_to_parents',
        ]),
      );
    } finally {
      await db.close();
    }
  });

  it('leaves a database the server runs on, where the printed passwords sign in', async () => {
    const server = await startServer(databaseEnv());
    try {
      const admin = await login(server, 'admin', adminPassword);
      expect(admin.status).toBe(200);
      expect(admin.body.user).toMatchObject({ must_change_password: true });

      const account = accounts[0] as (typeof accounts)[0];
      const teacher = await login(server, account.username.toLowerCase(), account.password);
      expect(teacher.status).toBe(200);
      expect(teacher.body.user).toMatchObject({
        username: account.username,
        role: 'teacher',
        must_change_password: true,
      });

      // The printed password is for choosing their own: nothing else is allowed before.
      const pendingUrl = `${server.url}/api/v1/attendance/pending-approval`;
      const refused = await fetch(pendingUrl, {
        headers: { authorization: `Bearer ${teacher.body.access_token as string}` },
      });
      expect(refused.status).toBe(403);
      const own = await choosePassword(
        server,
        teacher.body.access_token as string,
        account.password,
        'Orchard-Window-Demo-5',
      );
      const pending = await fetch(pendingUrl, { headers: { authorization: `Bearer ${own}` } });
      expect(pending.status).toBe(200);
      expect(((await pending.json()) as unknown[]).length).toBeGreaterThan(100);

      if (!databaseUrl) {
        // Beside a running server it does not even open the database.
        const beside = await seed();
        expect(beside.code).toBe(1);
        expect(beside.stderr).toMatch(/^Another TuitionDesk server \(pid \d+\) is using the data directory /);
        expect(beside.stderr).toContain('seed:demo did not run: stop the server');
        expect(beside.stdout).toBe('');
      }
    } finally {
      expect(await stopServer(server)).toBe(0);
    }
  });

  it('refuses a database that already holds students and teachers, and changes nothing', async () => {
    const reader = await openDatabase();
    const before = await snapshot(reader);
    await reader.close();
    const again = await seed();
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      'The database is not empty: it holds 120 students and 8 teachers. seed:demo only fills an empty database, ' +
        'so nothing was changed. To look at the demo, run it with a new DATA_DIR (or DATABASE_URL pointing at an ' +
        'empty database).\n',
    );
    expect(again.stdout).toBe('');
    const db = await openDatabase();
    try {
      const after = await snapshot(db);
      expect(after).toEqual(before);
    } finally {
      await db.close();
    }
  });
});
