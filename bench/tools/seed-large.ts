/**
 * The bench's large centre (bench/api.ts runs it: `npx tsx bench/tools/seed-large.ts`): a
 * chain-of-centres sized database on the server's configuration (DATA_DIR with PGlite, or
 * DATABASE_URL), in set-based SQL (a dozen statements, not row by row):
 * 5,000 students with 5,000 distinct parent phones, 200 teachers with accounts, a year of school days
 * (Monday to Saturday) of student and teacher attendance, 100,000 message rows and 20,000 activities.
 * The last school day is left pending approval. Refuses a database that already holds students.
 *   SEED_STUDENTS, SEED_TEACHERS, SEED_DAYS change the size; SEED_SMALL_CLASS=n makes class 10 a class of n.
 *   SEED_PUSH_ENDPOINT (a base URL) also gives every parent an access code and one device subscribed
 *   to Web Push at `<base>/<n>`, with the keys SEED_PUSH_P256DH and SEED_PUSH_AUTH (a fake push
 *   service could decrypt with them).
 */
import { prepareContext } from '../../apps/server/src/bootstrap';
import { loadConfig } from '../../apps/server/src/config';
import type { Database } from '../../apps/server/src/db/database';
import { openConfiguredDatabase } from '../../apps/server/src/db/open';
import { skipRowAudit } from '../../apps/server/src/lib/audit-log';
import { GENERATED_PASSWORD_COST, hashPassword } from '../../apps/server/src/lib/passwords';
import { today } from '../../apps/server/src/lib/time';
import { runScript } from '../../apps/server/src/scripts/run-script';

const STUDENTS = Number(process.env.SEED_STUDENTS ?? 5000);
const TEACHERS = Number(process.env.SEED_TEACHERS ?? 200);
const CALENDAR_DAYS = Number(process.env.SEED_DAYS ?? 365);
const SMALL_CLASS = Number(process.env.SEED_SMALL_CLASS ?? 0);
const PUSH_ENDPOINT = process.env.SEED_PUSH_ENDPOINT ?? '';
/** Every seeded teacher signs in with this password (bench only). */
const SEED_TEACHER_PASSWORD = 'bench-teacher-password';

const FIRST = `{Aarav,Diya,Kabir,Meera,Rohan,Sana,Tanvi,Vivaan,Zoya,Ishaan,Anaya,Arjun,Kavya,Reyansh,Saanvi,Vihaan,Myra,Aditya,Kiara,Dhruv}`;
const LAST = `{Sharma,Patel,Iyer,Khan,Das,Nair,Joshi,Gill,Rao,Mehta,Reddy,Singh,Bose,Menon,Kapoor,Verma,Chopra,Pillai,Sethi,Ghosh}`;

async function seed(db: Database): Promise<Record<string, number>> {
  const teacherHash = await hashPassword(SEED_TEACHER_PASSWORD, GENERATED_PASSWORD_COST);
  const last = today();
  return db.transaction(async (tx) => {
    // Millions of seeded rows leave no audit rows (ADR 025): the bench measures the centre, not the seeding.
    await skipRowAudit(tx);
    const [existing] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM students');
    if ((existing?.n ?? 0) > 0) throw new Error('The database already holds students; seed a fresh one.');
    const timings: Record<string, number> = {};
    const step = async (name: string, sql: string, params: unknown[] = []) => {
      const started = performance.now();
      await tx.query(sql, params);
      timings[name] = Math.round(performance.now() - started);
    };

    await step(
      'students',
      `INSERT INTO students (full_name, class_name, parent_name, parent_phone)
       SELECT ($2::text[])[1 + i % 20] || ' ' || ($3::text[])[1 + (i / 20) % 20] || ' ' || i,
              -- SEED_SMALL_CLASS=n: class 10 holds only n students (a teacher's register of a usual
              -- size), the others of its share spread over classes 7 to 9.
              CASE WHEN $4::int > 0 AND i % 4 = 3 AND i / 4 >= $4::int THEN (7 + i % 3) ELSE 7 + i % 4 END::text,
              'Parent ' || ($3::text[])[1 + (i / 20) % 20] || ' ' || i,
              '+9197' || lpad(i::text, 8, '0')
         FROM generate_series(1, $1::int) AS i`,
      [STUDENTS, FIRST, LAST, SMALL_CLASS],
    );
    await step(
      'teacher accounts',
      `INSERT INTO users (username, full_name, role, password_hash)
       SELECT format_code('TCH', i), ($2::text[])[1 + i % 20] || ' ' || ($3::text[])[1 + (i / 7) % 20], 'teacher', $4
         FROM generate_series(1, $1::int) AS i`,
      [TEACHERS, FIRST, LAST, teacherHash],
    );
    await step(
      'teachers',
      `INSERT INTO teachers (unique_id, user_id, first_name, last_name, full_name, email, phone_number,
                             subjects, classes_assigned, qualification, experience_years)
       SELECT u.username, u.id, split_part(u.full_name, ' ', 1), split_part(u.full_name, ' ', 2), u.full_name,
              lower(u.username) || '@centre.example', '+9188' || lpad(substr(u.username, 4), 8, '0'),
              ARRAY['Mathematics', 'Science'], ARRAY[(7 + u.id % 4)::text], 'B.Ed', u.id % 20
         FROM users u WHERE u.role = 'teacher'`,
    );
    await tx.query("SELECT setval('teacher_number_seq', $1::int)", [TEACHERS]);
    await tx.query(
      `CREATE TEMP TABLE seed_days ON COMMIT DROP AS
       SELECT d::date AS date FROM generate_series($1::date - ($2::int - 1), $1::date, interval '1 day') AS d
        WHERE extract(isodow FROM d) <> 7`,
      [last, CALENDAR_DAYS],
    );
    // The last school day is left pending approval.
    const [{ pending_day: pendingDay } = { pending_day: last }] = await tx.query<{ pending_day: string }>(
      'SELECT max(date)::text AS pending_day FROM seed_days',
    );
    const [admin] = await tx.query<{ id: number; full_name: string }>(
      "SELECT id, full_name FROM users WHERE role = 'admin' ORDER BY id LIMIT 1",
    );
    await step(
      'attendance',
      `INSERT INTO attendance (student_id, date, class_name, status, remarks, marked_by, marked_at,
                               approved_by, approved_by_user_id, approved_at)
       SELECT s.id, d.date, s.class_name,
              CASE WHEN h < 88 THEN 'present' WHEN h < 94 THEN 'absent' WHEN h < 98 THEN 'late' ELSE 'leave' END,
              CASE WHEN h >= 98 THEN 'Family function' END,
              'Class teacher', d.date + time '09:30',
              CASE WHEN d.date < $1::date THEN $2 END,
              CASE WHEN d.date < $1::date THEN $3::int END,
              CASE WHEN d.date < $1::date THEN d.date + time '17:00' END
         FROM students s CROSS JOIN seed_days d
         CROSS JOIN LATERAL (SELECT abs(hashtext(s.id::text || d.date::text)) % 100 AS h) AS r`,
      [pendingDay, admin?.full_name, admin?.id],
    );
    await step(
      'teacher attendance',
      `INSERT INTO teacher_attendance (teacher_id, date, status, check_in_time, check_out_time, updated_at)
       SELECT t.id, d.date,
              CASE WHEN abs(hashtext(t.id::text || d.date::text)) % 20 = 0 THEN 'on_leave' ELSE 'present' END,
              '09:00', '17:00', d.date + time '17:30'
         FROM teachers t CROSS JOIN seed_days d`,
    );
    await step(
      'teacher attendance locks',
      `INSERT INTO teacher_attendance_locks (date, locked_by, locked_by_user_id, locked_at)
       SELECT date, $2, $3::int, date + time '18:00' FROM seed_days WHERE date < $1::date`,
      [pendingDay, admin?.full_name, admin?.id],
    );
    await step(
      'messages',
      `INSERT INTO messages (message_type, subject, message, recipient, recipient_name, sent_by, sent_by_user_id,
                             sent_at, delivery_status, delivered_at)
       SELECT 'IN_APP', 'Notice ' || n, 'The centre will be closed on the coming public holiday. Notice ' || n || '.',
              s.parent_phone, s.parent_name, $2, $3::int, $1::date - (n * 7) + time '11:00',
              CASE WHEN s.id % 3 = 0 THEN 'sent' ELSE 'delivered' END,
              CASE WHEN s.id % 3 = 0 THEN NULL ELSE $1::date - (n * 7) + time '12:00' END
         FROM generate_series(1, 20) AS n CROSS JOIN students s`,
      [last, admin?.full_name, admin?.id],
    );
    await step(
      'activities',
      `INSERT INTO activities (user_id, actor, action, description, created_at)
       SELECT $2::int, $3, 'attendance.approved', $3 || ' approved attendance of Class ' || (7 + i % 4) || ' (' || (20 + i % 30) || ' records)',
              $1::date - (i / 60) + (i % 60) * interval '7 minutes'
         FROM generate_series(1, 20000) AS i`,
      [last, admin?.id, admin?.full_name],
    );
    if (PUSH_ENDPOINT) {
      // Parents who signed in once and allowed notifications (the code hash is of no code anyone knows).
      await step(
        'parent access',
        `INSERT INTO parent_access (phone, code_hash, issued_by, issued_by_user_id)
         SELECT DISTINCT parent_phone, $1, $2, $3::int FROM students`,
        [teacherHash, admin?.full_name, admin?.id],
      );
      await step(
        'push subscriptions',
        `INSERT INTO push_subscriptions (phone, endpoint, p256dh, auth, user_agent)
         SELECT phone, $1 || '/' || row_number() OVER (ORDER BY phone), $2, $3, 'bench'
           FROM parent_access`,
        [PUSH_ENDPOINT.replace(/\/$/, ''), process.env.SEED_PUSH_P256DH, process.env.SEED_PUSH_AUTH],
      );
    }
    const [counts] = await tx.query<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM students) AS students, (SELECT count(*)::int FROM teachers) AS teachers,
              (SELECT count(*)::int FROM attendance) AS attendance,
              (SELECT count(*)::int FROM attendance WHERE approved_at IS NULL) AS pending,
              (SELECT count(*)::int FROM teacher_attendance) AS teacher_attendance,
              (SELECT count(*)::int FROM messages) AS messages, (SELECT count(*)::int FROM activities) AS activities,
              (SELECT count(*)::int FROM push_subscriptions) AS push_subscriptions`,
    );
    return { ...counts, ...Object.fromEntries(Object.entries(timings).map(([k, v]) => [`ms ${k}`, v])) };
  });
}

async function main(): Promise<void> {
  const started = performance.now();
  const config = loadConfig();
  const { db, release } = await openConfiguredDatabase(config.database, { max: 2 });
  try {
    await prepareContext(config, db);
    const result = await seed(db);
    // As autovacuum would in time: statistics, and the visibility map that index-only counts need.
    await db.exec('VACUUM ANALYZE');
    result['ms total'] = Math.round(performance.now() - started);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await db.close();
    release();
  }
}

runScript(main, {
  locked: 'Seed a data directory no server is using.',
  known: () => undefined,
  failed: 'seed-large failed, nothing was seeded',
});
