/**
 * The server key file (ADR 017): created once, owner-only, the same for processes that start at once;
 * refused at start when unreadable by the server, readable by others or malformed, or not the one the
 * database was set up with; an older database's secrets moved out of it at start; the signing key
 * rotated by `npm run rotate-signing-key`, which ends every session and leaves two-factor working.
 */
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { prepareContext } from '../src/bootstrap';
import { ConfigError, loadConfig } from '../src/config';
import { lockDataDir } from '../src/db/data-dir-lock';
import {
  keyIdOf,
  loadOrCreateKeyFile,
  readKeyFile,
  rotateSigningKey,
  ServerKeyError,
  type ServerKeys,
} from '../src/lib/server-keys';
import { decryptSecret } from '../src/modules/auth/two-factor/secrets';
import { refusal } from './helpers/async';
import {
  expectTwoFactorSignIns,
  freshCode,
  get,
  legacySessionToken,
  parentSignIn,
  populate,
  signIn,
  writeLegacyState,
} from './helpers/key-scenario';
import { scratchSpace } from './helpers/scratch';
import { cleanUpProcesses, runProcess, runScript, SERVER_DIR, spawnServer } from './helpers/server-process';
import { ADMIN_PASSWORD, createTestApp, testConfig } from './helpers/test-app';

const { tempDir, emptyDatabase } = scratchSpace('tuitiondesk-server-keys');

afterAll(async () => {
  await cleanUpProcesses();
});

describe('the key file', () => {
  it('is created on first start, owner-only in an owner-only directory, and read as it is afterwards', () => {
    const file = path.join(tempDir(), 'new', 'server-keys.json');
    const keys = loadOrCreateKeyFile(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    const json = JSON.parse(readFileSync(file, 'utf8'));
    expect(json).toMatchObject({
      version: 1,
      signing_key: keys.signingKey.toString('base64url'),
      sealing_key: keys.sealingKey.toString('base64url'),
      vapid_public_key: keys.vapid.publicKey,
      vapid_private_key: keys.vapid.privateKey,
    });
    expect(keys.signingKey).toHaveLength(32);
    expect(keys.sealingKey).toHaveLength(32);
    expect(keys.signingKey.equals(keys.sealingKey)).toBe(false);
    expect(loadOrCreateKeyFile(file)).toEqual(keys);
  });

  it('is the same for processes that create it at the same moment (one wins, the others read it)', async () => {
    const file = path.join(tempDir(), 'server-keys.json');
    const module = path.join(SERVER_DIR, 'src/lib/server-keys.ts');
    const code = `import(${JSON.stringify(module)}).then((m) => process.stdout.write(m.keyIdOf(m.loadOrCreateKeyFile(${JSON.stringify(file)}).sealingKey)))`;
    const runs = await Promise.all(
      Array.from({ length: 4 }, () => runProcess(process.execPath, ['--import', 'tsx', '-e', code], {})),
    );
    for (const run of runs) expect(run.stderr).toBe('');
    const ids = runs.map((run) => run.stdout);
    expect(new Set(ids)).toEqual(new Set([keyIdOf((readKeyFile(file) as ServerKeys).sealingKey)]));
  });

  it('is refused, naming the file and what to do, when others may read it or it is not a key file', () => {
    const dir = tempDir();
    const file = path.join(dir, 'server-keys.json');
    loadOrCreateKeyFile(file);
    const good = readFileSync(file, 'utf8');
    chmodSync(file, 0o644);
    expect(() => readKeyFile(file)).toThrow(ServerKeyError);
    expect(() => readKeyFile(file)).toThrow(
      `The key file ${file} (KEY_FILE) can be read or changed by other users of this machine (mode 0644). Make it the server user's alone: chmod 600 ${file}`,
    );
    chmodSync(file, 0o620);
    expect(() => readKeyFile(file)).toThrow(/mode 0620/);

    const cases: [string, RegExp][] = [
      ['', /is not a valid TuitionDesk key file: it is not JSON\. Put back the copy you kept of it; do not delete it/],
      ['{"version": 1', /it is not JSON/],
      [good.replace(/"sealing_key": "[^"]+"/, '"sealing_key": "short"'), /sealing_key must be 32 bytes in base64url/],
      [good.replace(/"signing_key": "[^"]+",\n/, ''), /signing_key /],
      [
        good.replace(/"vapid_private_key": "[^"]+"/, '"vapid_private_key": "not base64url!"'),
        /vapid_private_key must be base64url/,
      ],
      [good.replace('"version": 1', '"version": 0'), /version must be 1/],
      [
        good.replace('"version": 1', '"version": 2'),
        /is version 2, written by a newer TuitionDesk; this one reads version 1\. Upgrade TuitionDesk\./,
      ],
      ['[]', /is not a valid TuitionDesk key file/],
    ];
    for (const [text, message] of cases) {
      writeFileSync(file, text, { mode: 0o600 });
      chmodSync(file, 0o600);
      expect(() => readKeyFile(file), text.slice(0, 40)).toThrow(message);
      expect(() => readKeyFile(file)).toThrow(`The key file ${file} (KEY_FILE) `);
    }

    mkdirSync(path.join(dir, 'a-directory'), { mode: 0o700 });
    expect(() => readKeyFile(path.join(dir, 'a-directory'))).toThrow(/is not a file/);
    expect(readKeyFile(path.join(dir, 'missing.json'))).toBeUndefined();
  });

  it('stops the server from starting, with the message on stderr and exit 1', async () => {
    const dataDir = tempDir();
    const file = path.join(dataDir, 'server-keys.json');
    writeFileSync(file, '{"version": 1}', { mode: 0o600 });
    const server = await spawnServer({ DATA_DIR: dataDir, ADMIN_PASSWORD: 'keys-start-password' });
    expect(await server.exited).toBe(1);
    expect(server.output().stderr).toMatch(
      new RegExp(`^The key file ${file} \\(KEY_FILE\\) is not a valid TuitionDesk key file: signing_key `),
    );
    expect(server.output().stdout).not.toMatch(/running at/);
  });

  it('KEY_FILE: default <DATA_DIR>/server-keys.json for both databases; never inside BACKUP_DIR', () => {
    expect(loadConfig({ DATA_DIR: '/srv/td' }).keyFile).toBe('/srv/td/server-keys.json');
    expect(loadConfig({ DATA_DIR: '/srv/td', DATABASE_URL: 'postgres://x@h/db' }).keyFile).toBe(
      '/srv/td/server-keys.json',
    );
    expect(loadConfig({ KEY_FILE: '/etc/tuitiondesk/keys.json' }).keyFile).toBe('/etc/tuitiondesk/keys.json');
    expect(() => loadConfig({ DATA_DIR: '/srv/td', KEY_FILE: '/srv/td/backups/keys.json' })).toThrow(ConfigError);
    expect(() => loadConfig({ BACKUP_DIR: '/b', KEY_FILE: '/b/k.json' })).toThrow(
      'KEY_FILE: must not be inside BACKUP_DIR /b: the keys must not travel with the backups',
    );
  });
});

describe('a database set up with another key file', () => {
  it('refuses to start, saying to copy that key file (or how to go on without it)', async () => {
    const db = await emptyDatabase();
    const first = path.join(tempDir(), 'server-keys.json');
    await prepareContext(testConfig({ keyFile: first }), db);
    const second = path.join(tempDir(), 'server-keys.json');
    const error = await refusal(prepareContext(testConfig({ keyFile: second }), db));
    expect(error).toBeInstanceOf(ServerKeyError);
    const ids = [first, second].map((file) => keyIdOf((readKeyFile(file) as ServerKeys).sealingKey));
    expect(error.message).toBe(
      `This database was set up with another key file (key id ${ids[0]}); the key file ${second} (KEY_FILE) has key id ${ids[1]}. ` +
        "Every server on one database needs the same key file: copy that installation's key file (from the first instance, " +
        `or from where you kept it) to ${second}. If it is lost for good, take a backup (npm run backup) and restore it ` +
        'into a new, empty database with npm run restore -- --reset-two-factor <file>, which turns two-factor sign-in off for every account.',
    );
    // The first key file still starts it.
    await prepareContext(testConfig({ keyFile: first }), db);
  });
});

describe('a database an older TuitionDesk left (the secrets in settings)', () => {
  it('is converted at start, once even when two instances start at once; two-factor and the VAPID key carry on', async () => {
    const db = await emptyDatabase();
    const jwtSecret = 'a JWT_SECRET of the time, at least thirty-two characters long';
    const legacy = await writeLegacyState(db);
    // A second account sealed while JWT_SECRET was set: the key derived from it is tried too.
    const sealedWithEnv = await writeLegacyState(db, {
      username: 'env.teacher',
      sealedWith: jwtSecret,
      signingSecret: legacy.signingSecret,
    });
    const tokenOfThen = await legacySessionToken(legacy);
    // writeLegacyState wrote a new VAPID pair for the second account's call: the last one is in settings.
    const vapid = sealedWithEnv.vapid;

    const keyFile = path.join(tempDir(), 'server-keys.json');
    const config = testConfig({ keyFile, jwtSecret });
    const [a, b] = await Promise.all([prepareContext(config, db), prepareContext(config, db)]);
    const keys = readKeyFile(keyFile) as ServerKeys;
    expect(keys.vapid).toEqual(vapid);
    expect(a?.ctx.push.publicKey).toBe(vapid.publicKey);
    expect(b?.ctx.push.publicKey).toBe(vapid.publicKey);

    const settings = await db.query<{ key: string; value: string }>('SELECT key, value FROM settings ORDER BY key');
    expect(settings.map((s) => s.key)).not.toContain('jwt_secret');
    expect(settings.map((s) => s.key)).not.toContain('vapid_keys');
    expect(settings).toContainEqual({ key: 'server_key_id', value: keyIdOf(keys.sealingKey) });
    const sealed = await db.query<{ user_id: number; secret_encrypted: string }>(
      'SELECT user_id, secret_encrypted FROM user_two_factor ORDER BY user_id',
    );
    for (const [row, account] of [
      [sealed[0], legacy.teacher],
      [sealed[1], sealedWithEnv.teacher],
    ] as const) {
      expect(row?.secret_encrypted).toMatch(/^v2\./);
      expect(decryptSecret(keys.sealingKey, account.id, row?.secret_encrypted as string)).toEqual(account.secret);
    }
    const hashes = await db.query<{ code_hash: string }>('SELECT code_hash FROM two_factor_recovery_codes');
    expect(hashes).toHaveLength(6);
    for (const { code_hash } of hashes) expect(code_hash).toMatch(/^v2\.[0-9a-f]{64}$/);

    // Started again: nothing changes any more.
    await prepareContext(config, db);
    expect(await db.query('SELECT user_id, secret_encrypted FROM user_two_factor ORDER BY user_id')).toEqual(sealed);

    const app = await buildApp(a.ctx);
    try {
      for (const account of [legacy.teacher, sealedWithEnv.teacher]) {
        const alone = await signIn(app, { username: account.username, password: account.password });
        expect(alone.statusCode).toBe(401);
        await expectTwoFactorSignIns(app, db, account, 2);
      }
      // Sessions signed with the old settings secret end.
      expect((await get(app, '/auth/me', tokenOfThen)).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });
});

describe('rotating the signing key', () => {
  it('ends every staff and parent session at the restart; new sign-ins and two-factor work', async () => {
    const keyFile = path.join(tempDir(), 'server-keys.json');
    const t = await createTestApp({ config: { keyFile } });
    try {
      const before = await populate(t.app, t.db, ADMIN_PASSWORD);
      const receipt = await t.ctx.tokens.signReceipt(1);
      const old = readKeyFile(keyFile) as ServerKeys;
      const rotated = rotateSigningKey(keyFile);
      expect(rotated.signingKey.equals(old.signingKey)).toBe(false);
      expect(rotated.sealingKey).toEqual(old.sealingKey);
      expect(rotated.vapid).toEqual(old.vapid);
      expect(readKeyFile(keyFile)).toEqual(rotated);
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);

      // The restart: the same database, the key file read again.
      const { ctx } = await prepareContext(t.ctx.config, t.db);
      const app = await buildApp(ctx);
      try {
        expect((await get(app, '/auth/me', before.adminToken)).statusCode).toBe(401);
        expect((await get(app, '/parent/me', before.parent.token)).statusCode).toBe(401);
        expect(await ctx.tokens.verifyReceipt(receipt)).toBeUndefined();
        const admin = await signIn(app, { username: 'admin', password: ADMIN_PASSWORD });
        expect(admin.statusCode).toBe(200);
        expect((await get(app, '/auth/me', admin.json().access_token)).statusCode).toBe(200);
        const { teacher } = before;
        const otp = await freshCode(t.db, teacher.id, teacher.secret);
        const withCode = await signIn(app, { username: teacher.username, password: teacher.password, otp });
        expect(withCode.statusCode, withCode.body).toBe(200);
        const parent = await parentSignIn(app, before.parent.phone, before.parent.code);
        expect(parent.statusCode, parent.body).toBe(200);
        expect((await get(app, '/parent/me', parent.json().access_token)).statusCode).toBe(200);
      } finally {
        await app.close();
      }
    } finally {
      await t.close();
    }
  });

  it('npm run rotate-signing-key: refused with JWT_SECRET, or while a server holds DATA_DIR; says what to do', async () => {
    const dataDir = tempDir();
    const keyFile = path.join(dataDir, 'server-keys.json');
    const keys = loadOrCreateKeyFile(keyFile);

    const withSecret = await runScript('rotate-signing-key', [], { DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40) });
    expect(withSecret.code).toBe(1);
    expect(withSecret.stderr).toMatch(
      /^JWT_SECRET is set, so tokens are signed with it and not with the key file: nothing was changed\. To end every session, set JWT_SECRET to a new random value/,
    );

    // This process holds the lock, as a running server would.
    const release = lockDataDir(dataDir);
    try {
      const locked = await runScript('rotate-signing-key', [], { DATA_DIR: dataDir });
      expect(locked.code).toBe(1);
      expect(locked.stderr).toContain(
        `Another TuitionDesk server (pid ${process.pid}) is using the data directory ${dataDir}`,
      );
      expect(locked.stderr).toContain(
        'A running server keeps the signing key it read at start, so the key was not changed.',
      );
    } finally {
      release();
    }
    expect(readKeyFile(keyFile)).toEqual(keys);

    const done = await runScript('rotate-signing-key', [], { DATA_DIR: dataDir });
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    expect(done.stdout).toContain(`The signing key in ${keyFile} was replaced. Every session has ended:`);
    expect(done.stdout).toContain("parents' devices must sign in again with their access code");
    const after = readKeyFile(keyFile) as ServerKeys;
    expect(after.signingKey.equals(keys.signingKey)).toBe(false);
    expect(after.sealingKey).toEqual(keys.sealingKey);

    // With PostgreSQL nothing can tell whether instances run: it says to restart them all.
    const shared = await runScript('rotate-signing-key', [], {
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      KEY_FILE: keyFile,
    });
    expect(shared.code).toBe(0);
    expect(shared.stdout).toContain(
      'Restart every server instance now, each with this key file (copy it to every instance)',
    );

    const missing = await runScript('rotate-signing-key', [], { DATA_DIR: tempDir() });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^There is no key file at .*server-keys\.json \(KEY_FILE\): nothing to rotate\./);
  });
});
