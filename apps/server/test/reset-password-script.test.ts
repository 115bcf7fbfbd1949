/**
 * `npm run reset-password -- <username>` (issue 28, item 7; ADR 046): the owner's way back in. On the
 * embedded database it refuses while the server holds DATA_DIR; stopped, it prints a new password
 * once, forces a change, ends the account's sessions and leaves the audit log and the feed a record
 * naming the server command.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  choosePassword,
  cleanUpProcesses,
  login,
  me,
  runScript,
  SLOW,
  startServer,
  stopServer,
  tempDir,
} from './helpers/server-process';

afterAll(cleanUpProcesses);

const FIRST = 'first-start-password-9';
const CHOSEN = 'meadow-signal-47';

describe('npm run reset-password', () => {
  it('refuses while the server runs, then resets the owner’s password once it is stopped', SLOW, async () => {
    const dataDir = tempDir();
    let server = await startServer({ DATA_DIR: dataDir, ADMIN_PASSWORD: FIRST });
    const first = await login(server, 'admin', FIRST);
    const token = await choosePassword(server, first.body.access_token as string, FIRST, CHOSEN);

    const usage = await runScript('reset-password', [], { DATA_DIR: dataDir });
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('Usage: npm run reset-password -- <username>');

    const locked = await runScript('reset-password', ['admin'], { DATA_DIR: dataDir });
    expect(locked.code).toBe(1);
    expect(locked.stderr).toContain('is using the data directory');
    expect(locked.stderr).toContain('The password was not reset: the running server holds the data. Stop the server');
    expect(locked.stdout).toBe('');

    expect(await stopServer(server)).toBe(0);
    const unknown = await runScript('reset-password', ['nobody'], { DATA_DIR: dataDir });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('No staff account has the username nobody; nothing was changed.');

    const done = await runScript('reset-password', ['ADMIN'], { DATA_DIR: dataDir });
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    const password = done.stdout.match(/^ {2}(\S{16})$/m)?.[1] as string;
    expect(password).toBeDefined();
    expect(done.stdout).toContain('New password for admin (Administrator), shown once:');
    expect(done.stdout).toContain('Every session of this account has ended.');

    server = await startServer({ DATA_DIR: dataDir });
    expect((await me(server, token)).status).toBe(401);
    expect((await login(server, 'admin', CHOSEN)).status).toBe(401);
    const signedIn = await login(server, 'admin', password);
    expect(signedIn.status).toBe(200);
    expect((signedIn.body.user as { must_change_password: boolean }).must_change_password).toBe(true);
    const again = await choosePassword(server, signedIn.body.access_token as string, password, 'harbour-lantern-58');

    const feed = await fetch(`${server.url}/api/v1/activities/recent?limit=5`, {
      headers: { authorization: `Bearer ${again}` },
    });
    expect(JSON.stringify(await feed.json())).toContain(
      'The password of Administrator was reset with the server command; they choose a new one at their next sign-in',
    );
    const audit = await fetch(`${server.url}/api/v1/audit?entity=users`, {
      headers: { authorization: `Bearer ${again}` },
    });
    const entries = JSON.stringify(await audit.json());
    expect(entries).toContain('server command (npm run reset-password)');
    expect(entries).not.toContain(password);
    expect(await stopServer(server)).toBe(0);
  });
});
