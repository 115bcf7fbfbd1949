/**
 * `npm run seed:demo`: fills an EMPTY database with a demo centre (demo/centre.ts), on the same
 * configuration as the server (DATA_DIR with PGlite, or DATABASE_URL). It takes the data directory's
 * lock, so it never runs beside a server; it refuses a database that holds any student or teacher;
 * and it writes every row in one transaction, so it either seeds everything or nothing.
 */
import { prepareContext } from '../bootstrap';
import { ConfigError, loadConfig } from '../config';
import { withConfiguredDatabase } from '../db/open';
import { plural } from '../lib/activity-log';
import { recordAudit, skipRowAudit } from '../lib/audit-log';
import { adminPasswordProblem } from '../lib/password-policy';
import { prepareAccounts } from '../modules/teachers';
import { buildDemoCentre } from './demo/centre';
import { assertNoPeople, SeedRefusedError, type SeedResult, writeDemo } from './demo/write';
import { runScript } from './run-script';

function report(result: SeedResult, days: number, seconds: number, generatedAdminPassword: string | undefined): string {
  const lines = [
    '',
    `Demo centre created in ${seconds.toFixed(1)} s:`,
    `  ${plural(
      result.classes.reduce((sum, c) => sum + c.count, 0),
      'student',
    )} (${result.classes.map((c) => `Class ${c.class_name}: ${c.count}`).join(', ')})`,
    `  ${plural(result.teachers.length, 'teacher')}, each with a sign-in account`,
    `  ${plural(result.attendance, 'attendance record')} over ${plural(days, 'school day')}` +
      ` (waiting for approval: ${result.pendingDays.join(', ') || 'none'})`,
    `  ${plural(result.teacherAttendance, 'teacher attendance record')} (${plural(result.lockedDays, 'day')} locked)`,
    `  ${plural(result.sends, 'message')} to parents (${plural(result.messageRows, 'recipient')})`,
    `  ${plural(result.activities, 'activity entry', 'activity entries')}`,
    '',
  ];
  if (generatedAdminPassword) {
    lines.push(
      'Admin account (shown once; it must be changed at first sign-in):',
      '  username: admin',
      `  password: ${generatedAdminPassword}`,
      '',
    );
  } else {
    lines.push('Admin account: admin (it existed already, or its password is ADMIN_PASSWORD).', '');
  }
  const nameWidth = Math.max(4, ...result.teachers.map((t) => t.full_name.length));
  lines.push(
    'Teacher sign-in accounts (shown once; each must change the password at first sign-in):',
    `  ${'username'.padEnd(10)}${'name'.padEnd(nameWidth + 2)}password`,
    ...result.teachers.map((t) => `  ${t.username.padEnd(10)}${t.full_name.padEnd(nameWidth + 2)}${t.password}`),
    '',
  );
  return lines.join('\n');
}

async function main(): Promise<void> {
  const started = performance.now();
  const config = loadConfig();
  const adminProblem = adminPasswordProblem(config.adminPassword);
  if (adminProblem) throw new ConfigError(`Invalid configuration:\n  ADMIN_PASSWORD: ${adminProblem}`);

  await withConfiguredDatabase(config.database, async (db) => {
    // Refuse before anything is written, migrations and admin account included.
    await assertNoPeople(db);
    const centre = buildDemoCentre();
    // Hashing is the slow part; done before the transaction, as the teachers module does.
    const accounts = await prepareAccounts(centre.teachers.length);
    const { generatedAdminPassword } = await prepareContext(config, db);
    // One audit row for the whole demo, not one per seeded record (ADR 025).
    const result = await db.transaction(async (tx) => {
      await skipRowAudit(tx);
      const written = await writeDemo(tx, centre, accounts);
      await recordAudit(tx, {
        entity: 'demo_data',
        action: 'create',
        after: {
          students: centre.students.length,
          teachers: centre.teachers.length,
          attendance: written.attendance,
          messages: written.messageRows,
        },
      });
      return written;
    });
    process.stdout.write(
      report(result, centre.days.length, (performance.now() - started) / 1000, generatedAdminPassword),
    );
  });
}

runScript(main, {
  locked: 'seed:demo did not run: stop the server, run npm run seed:demo, then start the server again.',
  known: (error) => (error instanceof SeedRefusedError ? error.message : undefined),
  failed: 'seed:demo failed, nothing was seeded',
});
