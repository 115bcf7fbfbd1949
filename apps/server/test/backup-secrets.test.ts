/**
 * Backups cannot forge sessions or open two-factor secrets (ADR 017): a backup file
 * is scanned, string by string, for anything that signs a live token, opens the authenticator seed,
 * matches a recovery code or pushes to a parent's phone; then restored onto the same installation
 * (everything works), onto another installation's key file (refused, or two-factor reset), and a
 * backup of the older kind, which carried the signing secret, is converted as it is restored.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { prepareContext } from '../src/bootstrap';
import { RestoreRefusedError, restoreBackup } from '../src/db/backup';
import type { Database, Queryable } from '../src/db/database';
import { keyIdOf, loadOrCreateKeyFile, readKeyFile, type ServerKeys } from '../src/lib/server-keys';
import {
  decryptLegacySecret,
  decryptSecret,
  deriveLegacyKey,
  hashRecoveryCode,
} from '../src/modules/auth/two-factor/secrets';
import { restoreKeys } from '../src/modules/backups/restore-keys';
import { backupToFile, fileSource, linesOf } from './helpers/backup-files';
import {
  expectTwoFactorSignIns,
  freshCode,
  get,
  type Installation,
  legacySessionToken,
  parentSignIn,
  populate,
  sha256Hex,
  signIn,
  writeLegacyState,
} from './helpers/key-scenario';
import { scratchSpace } from './helpers/scratch';
import { ADMIN_PASSWORD, createTestApp, type TestApp, testConfig } from './helpers/test-app';

let t: TestApp;
let keyFile: string;
let installation: Installation;
let backupFile: string;
const { tempDir, emptyDatabase } = scratchSpace('tuitiondesk-backup-secrets');

beforeAll(async () => {
  keyFile = path.join(tempDir(), 'server-keys.json');
  t = await createTestApp({ config: { keyFile } });
  installation = await populate(t.app, t.db, ADMIN_PASSWORD);
  // The real backup code, as npm run backup and POST /backups run it.
  backupFile = await backupToFile(tempDir(), t.db);
});

afterAll(async () => {
  await t?.close();
});

/** Every string in a JSON value, object keys too, and the strings inside strings that are JSON themselves. */
function collectStrings(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') {
    into.add(value);
    if (/^[[{]/.test(value)) {
      try {
        collectStrings(JSON.parse(value), into);
      } catch {
        // plain text that starts with a bracket
      }
    }
  } else if (Array.isArray(value)) {
    for (const item of value) collectStrings(item, into);
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      into.add(key);
      collectStrings(item, into);
    }
  }
}

/** A string read as a key: its characters (as JWT_SECRET is), and its base64url bytes (as the key file writes keys). */
function keysFrom(text: string): Buffer[] {
  const keys = [Buffer.from(text, 'utf8')];
  if (/^[A-Za-z0-9_-]+={0,2}$/.test(text)) {
    const decoded = Buffer.from(text, 'base64url');
    if (decoded.length > 0) keys.push(decoded);
  }
  return keys;
}

async function verifies(token: string, key: Uint8Array): Promise<boolean> {
  if (key.length === 0) return false;
  try {
    await jwtVerify(token, key, { algorithms: ['HS256'] });
    return true;
  } catch {
    return false;
  }
}

/** What a string of the backup, used as a key, would give an attacker; empty when nothing. */
async function whatItUnlocks(
  text: string,
  live: { tokens: string[]; secretEncrypted: string; userId: number; recoveryHashes: Set<string>; code: string },
): Promise<string[]> {
  const found: string[] = [];
  for (const key of keysFrom(text)) {
    for (const token of live.tokens) if (await verifies(token, key)) found.push('verifies a live token');
    // The two-factor secret: as the code before ADR 017 derived its key from the signing secret, and as it seals now.
    if (decryptLegacySecret(deriveLegacyKey(key.toString('utf8')), live.userId, live.secretEncrypted)) {
      found.push('opens the TOTP secret (v1 derivation)');
    }
    if (key.length === 32 && decryptSecret(key, live.userId, live.secretEncrypted)) {
      found.push('opens the TOTP secret (as the sealing key)');
    }
    if (live.recoveryHashes.has(hashRecoveryCode(key, live.code))) found.push('computes a recovery-code hash');
    const keyed = createHmac('sha256', key).update(sha256Hex(live.code)).digest('hex');
    if (live.recoveryHashes.has(keyed) || live.recoveryHashes.has(`v2.${keyed}`)) {
      found.push('computes a recovery-code hash (HMAC)');
    }
  }
  return found;
}

describe('a backup file', () => {
  it('holds nothing that signs a live token, opens a two-factor secret, matches a recovery code or pushes', async () => {
    const strings = new Set<string>();
    for (const line of linesOf(backupFile)) collectStrings(JSON.parse(line), strings);
    expect(strings.size).toBeGreaterThan(100);

    const [row] = await t.db.query<{ secret_encrypted: string }>(
      'SELECT secret_encrypted FROM user_two_factor WHERE user_id = $1',
      [installation.teacher.id],
    );
    const hashes = await t.db.query<{ code_hash: string }>(
      'SELECT code_hash FROM two_factor_recovery_codes WHERE user_id = $1',
      [installation.teacher.id],
    );
    const live = {
      tokens: [installation.adminToken, installation.parent.token],
      secretEncrypted: row?.secret_encrypted as string,
      userId: installation.teacher.id,
      recoveryHashes: new Set(hashes.map((h) => h.code_hash)),
      code: (installation.teacher.recoveryCodes[0] as string).replace('-', ''),
    };
    // The checks can fail: the real keys (in the key file, not the backup) unlock each of them.
    const keys = readKeyFile(keyFile) as ServerKeys;
    expect(await whatItUnlocks(keys.signingKey.toString('base64url'), live)).toContain('verifies a live token');
    expect(await whatItUnlocks(keys.sealingKey.toString('base64url'), live)).toEqual(
      expect.arrayContaining(['opens the TOTP secret (as the sealing key)', 'computes a recovery-code hash']),
    );

    const unlocking: Record<string, string[]> = {};
    for (const text of strings) {
      const found = await whatItUnlocks(text, live);
      if (found.length > 0) unlocking[text.slice(0, 80)] = found;
    }
    expect(unlocking).toEqual({});

    // Nor is a recovery code's bare SHA-256 (what was stored before) there to test guesses against offline.
    for (const code of installation.teacher.recoveryCodes) {
      expect(strings.has(sha256Hex(code.replace('-', '')))).toBe(false);
      expect(live.recoveryHashes.has(sha256Hex(code.replace('-', '')))).toBe(false);
    }
    // No key of the key file, in any form, and no setting that holds one.
    const text = gunzipSync(readFileSync(backupFile)).toString('utf8');
    for (const secret of [
      keys.signingKey.toString('base64url'),
      keys.sealingKey.toString('base64url'),
      keys.signingKey.toString('hex'),
      keys.sealingKey.toString('hex'),
      keys.vapid.privateKey,
    ]) {
      expect(text).not.toContain(secret);
    }
    const settings = linesOf(backupFile)
      .map((line) => JSON.parse(line))
      .filter((row) => typeof row.key === 'string' && typeof row.value === 'string' && Object.keys(row).length === 2);
    expect(settings.map((row) => row.key)).not.toContain('jwt_secret');
    expect(settings.map((row) => row.key)).not.toContain('vapid_keys');
    expect(settings.filter((row) => /private|secret/i.test(row.value))).toEqual([]);
    // The parent's device is there (endpoint and its public keys), but not the VAPID private key that pushes to it.
    expect(text).toContain('updates.push.services.mozilla.com');
    expect(JSON.parse(linesOf(backupFile)[0] as string).key_id).toBe(keyIdOf(keys.sealingKey));
  });
});

describe('restored onto the same installation (its key file)', () => {
  let restored: Database;
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    restored = await emptyDatabase();
    await restoreBackup(restored, fileSource(backupFile), {
      label: backupFile,
      keys: restoreKeys({ keyFile, keys: readKeyFile(keyFile), jwtSecret: undefined, resetTwoFactor: false }),
    });
    const { ctx } = await prepareContext(testConfig({ keyFile }), restored);
    app = await buildApp(ctx);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('keeps sessions: the staff and parent tokens issued before the backup still work', async () => {
    expect((await get(app, '/auth/me', installation.adminToken)).statusCode).toBe(200);
    expect((await get(app, '/parent/me', installation.parent.token)).statusCode).toBe(200);
  });

  it('keeps two-factor sign-in: the authenticator and a recovery code both work, the password alone does not', async () => {
    const { teacher } = installation;
    const alone = await signIn(app, { username: teacher.username, password: teacher.password });
    expect(alone.statusCode).toBe(401);
    expect(alone.json().otp_required).toBe(true);
    const otp = await freshCode(restored, teacher.id, teacher.secret);
    const withCode = await signIn(app, { username: teacher.username, password: teacher.password, otp });
    expect(withCode.statusCode, withCode.body).toBe(200);
    const recovery = await signIn(app, {
      username: teacher.username,
      password: teacher.password,
      otp: teacher.recoveryCodes[1] as string,
    });
    expect(recovery.statusCode, recovery.body).toBe(200);
    const [{ used }] = (await restored.query<{ used: number }>(
      'SELECT count(*)::int AS used FROM two_factor_recovery_codes WHERE user_id = $1 AND used_at IS NOT NULL',
      [teacher.id],
    )) as [{ used: number }];
    expect(used).toBe(1);
  });
});

describe("restored onto another installation's key file", () => {
  const otherKeyFile = () => path.join(tempDir(), 'server-keys.json');

  /** The tables and how many rows each holds (an empty PGlite is migrated; an empty PostgreSQL database is not). */
  async function contents(db: Queryable): Promise<Record<string, number>> {
    const tables = await db.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind = 'r' ORDER BY 1`,
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables) {
      const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${name}"`);
      counts[name] = row?.n ?? -1;
    }
    return counts;
  }

  it('is refused before anything is written, saying to copy that key file or to reset two-factor', async () => {
    const db = await emptyDatabase();
    const before = await contents(db);
    // An installation with a key file of its own, and a new machine with none yet.
    const withKeys = otherKeyFile();
    loadOrCreateKeyFile(withKeys);
    const newMachine = otherKeyFile();
    for (const file of [withKeys, newMachine]) {
      const keys = readKeyFile(file);
      const error = await restoreBackup(db, fileSource(backupFile), {
        label: backupFile,
        keys: restoreKeys({ keyFile: file, keys, jwtSecret: undefined, resetTwoFactor: false }),
      }).catch((e: unknown) => e as Error);
      expect(error).toBeInstanceOf(RestoreRefusedError);
      expect((error as Error).message).toMatch(
        new RegExp(
          `^The file ${backupFile} was taken on an installation with another key file \\(key id [0-9a-f]{16}\\), and ` +
            `(the key file ${file} \\(KEY_FILE\\) here has key id [0-9a-f]{16}|there is no key file at ${file} \\(KEY_FILE\\) here)\\.`,
        ),
      );
      expect((error as Error).message).toContain(`copy that installation's key file (server-keys.json`);
      expect((error as Error).message).toContain('--reset-two-factor');
      expect((error as Error).message).toMatch(/Nothing was changed\.$/);
      expect(await contents(db)).toEqual(before);
    }
    // Refusing created no key file on the new machine.
    expect(existsSync(newMachine)).toBe(false);
  });

  it('with --reset-two-factor: restored, two-factor off (one activity row per account), devices forgotten', async () => {
    const db = await emptyDatabase();
    const file = otherKeyFile();
    await restoreBackup(db, fileSource(backupFile), {
      label: backupFile,
      keys: restoreKeys({ keyFile: file, keys: undefined, jwtSecret: undefined, resetTwoFactor: true }),
    });
    const keys = readKeyFile(file) as ServerKeys;
    expect(await db.query("SELECT value FROM settings WHERE key = 'server_key_id'")).toEqual([
      { value: keyIdOf(keys.sealingKey) },
    ]);
    expect(await db.query('SELECT * FROM user_two_factor')).toEqual([]);
    expect(await db.query('SELECT * FROM two_factor_recovery_codes')).toEqual([]);
    expect(await db.query('SELECT * FROM push_subscriptions')).toEqual([]);
    const activity = await db.query<{ user_id: number | null; actor: string; description: string }>(
      "SELECT user_id, actor, description FROM activities WHERE action = 'two_factor.reset'",
    );
    expect(activity).toEqual([
      {
        user_id: null,
        actor: 'npm run restore',
        description:
          'Two-factor sign-in for Tara Totp was turned off: the data was restored from a backup of an installation ' +
          'with another key file. They sign in with their password and can set it up again.',
      },
    ]);

    const { ctx } = await prepareContext(testConfig({ keyFile: file }), db);
    const app = await buildApp(ctx);
    try {
      const { teacher } = installation;
      const alone = await signIn(app, { username: teacher.username, password: teacher.password });
      expect(alone.statusCode, alone.body).toBe(200);
      // Signed with the other installation's key: sessions do not carry over.
      expect((await get(app, '/auth/me', installation.adminToken)).statusCode).toBe(401);
      expect((await get(app, '/parent/me', installation.parent.token)).statusCode).toBe(401);
      expect((await signIn(app, { username: 'admin', password: ADMIN_PASSWORD })).statusCode).toBe(200);
      const parent = await parentSignIn(app, installation.parent.phone, installation.parent.code);
      expect(parent.statusCode, parent.body).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('a backup of the kind before ADR 017 (version 1: settings.jwt_secret, v1 secrets)', () => {
  let legacyFile: string;
  let legacy: Awaited<ReturnType<typeof writeLegacyState>>;
  let tokenOfThen: string;

  /** The file as a TuitionDesk from before wrote it: version 1, no key_id, the secrets in settings. */
  async function legacyBackup(sealedWith?: string): Promise<{ file: string; state: typeof legacy }> {
    const db = await emptyDatabase();
    const state = await writeLegacyState(db, { sealedWith });
    const dir = tempDir();
    const lines = linesOf(await backupToFile(dir, db));
    const header = JSON.parse(lines[0] as string);
    expect(header.key_id).toBeNull();
    header.version = 1;
    delete header.key_id;
    const body = [JSON.stringify(header), ...lines.slice(1, -1)];
    const trailer = JSON.parse(lines.at(-1) as string);
    trailer.sha256 = sha256Hex(body.map((line) => `${line}\n`).join(''));
    const file = path.join(dir, 'tuitiondesk-manual-20250101-000000.jsonl.gz');
    writeFileSync(file, gzipSync(`${[...body, JSON.stringify(trailer)].join('\n')}\n`));
    return { file, state };
  }

  beforeAll(async () => {
    ({ file: legacyFile, state: legacy } = await legacyBackup());
    tokenOfThen = await legacySessionToken(legacy);
  });

  it('is converted as it is restored: the secrets leave the database, two-factor and the VAPID key carry on', async () => {
    const db = await emptyDatabase();
    const file = path.join(tempDir(), 'server-keys.json');
    await restoreBackup(db, fileSource(legacyFile), {
      label: legacyFile,
      keys: restoreKeys({ keyFile: file, keys: undefined, jwtSecret: undefined, resetTwoFactor: false }),
    });
    const keys = readKeyFile(file) as ServerKeys;
    expect(keys.vapid).toEqual(legacy.vapid);
    const settings = await db.query<{ key: string }>('SELECT key FROM settings ORDER BY key');
    expect(settings.map((s) => s.key)).not.toContain('jwt_secret');
    expect(settings.map((s) => s.key)).not.toContain('vapid_keys');
    const [row] = await db.query<{ secret_encrypted: string }>('SELECT secret_encrypted FROM user_two_factor');
    expect(row?.secret_encrypted).toMatch(/^v2\./);

    const { ctx } = await prepareContext(testConfig({ keyFile: file }), db);
    expect(ctx.push.publicKey).toBe(legacy.vapid.publicKey);
    const app = await buildApp(ctx);
    try {
      await expectTwoFactorSignIns(app, db, legacy.teacher, 0);
      // Sessions signed with the old settings secret end.
      expect((await get(app, '/auth/me', tokenOfThen)).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('sealed with a JWT_SECRET not set here: refused, unless restored with it or with --reset-two-factor', async () => {
    const jwtSecret = randomBytes(32).toString('base64url');
    const { file: sealedFile, state } = await legacyBackup(jwtSecret);
    const keyFile = path.join(tempDir(), 'server-keys.json');
    const attempt = async (options: { jwtSecret?: string; reset?: boolean }) => {
      const db = await emptyDatabase();
      const outcome = await restoreBackup(db, fileSource(sealedFile), {
        label: sealedFile,
        keys: restoreKeys({
          keyFile,
          keys: readKeyFile(keyFile),
          jwtSecret: options.jwtSecret,
          resetTwoFactor: options.reset ?? false,
        }),
      }).catch((e: unknown) => e as Error);
      return { db, outcome };
    };

    const refused = await attempt({});
    expect(refused.outcome).toBeInstanceOf(RestoreRefusedError);
    expect((refused.outcome as Error).message).toMatch(
      /holds two-factor secrets sealed with a JWT_SECRET that is not set here \(1 account\(s\)\)\. Restore with JWT_SECRET set to the value .* or restore with --reset-two-factor .*Nothing was changed\.$/,
    );
    // Nothing written: on PostgreSQL not even the schema (the restore's migrations were in its transaction).
    expect(await refused.db.query("SELECT 1 FROM settings WHERE key = 'jwt_secret'").catch(() => [])).toEqual([]);
    expect(await refused.db.query('SELECT id FROM users').catch(() => [])).toEqual([]);

    const withSecret = await attempt({ jwtSecret });
    expect(withSecret.outcome).not.toBeInstanceOf(Error);
    const [sealed] = await withSecret.db.query<{ secret_encrypted: string }>(
      'SELECT secret_encrypted FROM user_two_factor',
    );
    const keys = readKeyFile(keyFile) as ServerKeys;
    expect(decryptSecret(keys.sealingKey, state.teacher.id, sealed?.secret_encrypted as string)).toEqual(
      state.teacher.secret,
    );

    const reset = await attempt({ reset: true });
    expect(reset.outcome).not.toBeInstanceOf(Error);
    expect(await reset.db.query('SELECT * FROM user_two_factor')).toEqual([]);
    expect(await reset.db.query("SELECT description FROM activities WHERE action = 'two_factor.reset'")).toEqual([
      {
        description:
          'Two-factor sign-in for Lena Legacy was turned off: its secret could not be opened when the backup was restored. ' +
          'They sign in with their password and can set it up again.',
      },
    ]);
  });
});
