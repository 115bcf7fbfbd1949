import type { AppConfig } from './config';
import type { AppContext } from './context';
import { KEY_ID_SETTING } from './db/backup';
import type { Database, Queryable } from './db/database';
import { lockMigrations, migrate } from './db/migrate';
import { ensureSetting } from './db/settings';
import { convertLegacySecrets } from './legacy-secrets';
import { FIRST_ADMIN } from './lib/password-policy';
import { generatePassword, hashPassword } from './lib/passwords';
import {
  keyIdOf,
  loadOrCreateKeyFile,
  readKeyFile,
  ServerKeyError,
  type ServerKeys,
  signingSecretOf,
} from './lib/server-keys';
import { TokenService } from './lib/tokens';
import { AnswerCache } from './lib/versioned-answer';
import { countUsers, insertUser } from './modules/auth';
import { followCentreClock } from './modules/centre';
import { createDelivery, loadConsoleWhatsapp } from './modules/delivery';

export interface PreparedContext {
  ctx: AppContext;
  /** Set only on the start that created the admin without ADMIN_PASSWORD: shown once, then gone. */
  generatedAdminPassword: string | undefined;
}

/**
 * Brings a database up to date and builds the context the app runs on: migrations, the server keys
 * (the key file, KEY_FILE: never in the database, ADR 017), and on an empty database the first admin
 * account. Throws ServerKeyError when the key file is unusable or not the one the database was set
 * up with.
 */
export async function prepareContext(config: AppConfig, db: Database): Promise<PreparedContext> {
  await migrate(db);
  // Every date from here on is on the centre's clock (ADR 042).
  await followCentreClock({ config, db });
  const keys = await prepareKeys(config, db, loadOrCreateKeyFile(config.keyFile));
  const generatedAdminPassword = await ensureAdmin(db, config.adminPassword);
  const tokens = new TokenService(signingSecretOf(keys, config.jwtSecret), config.tokenTtlSeconds);
  // Not started here: the server starts them once listening (tests start theirs when they need it).
  const { push, whatsapp, whatsappWorker } = createDelivery(config, db, tokens, keys.vapid);
  const ctx: AppContext = {
    config,
    db,
    tokens,
    whatsapp,
    whatsappWorker,
    push,
    twoFactorKey: keys.sealingKey,
    // PGlite keeps its own read cache (db/read-cache.ts): there, only the compressed answers are kept.
    answers: new AnswerCache(config.answerCacheBytes, { keepText: db.kind === 'postgres' }),
  };
  // Without WHATSAPP_* variables, the connection an admin made from the console (ADR 045).
  await loadConsoleWhatsapp(ctx, keys);
  return { ctx, generatedAdminPassword };
}

/**
 * Under the migration lock (two instances starting at once on one PostgreSQL database take turns):
 * the database is claimed for this key file, or refused when another one's rows are in it, and what
 * an older TuitionDesk kept in the database is converted (lib/legacy-secrets.ts).
 */
async function prepareKeys(config: AppConfig, db: Database, loaded: ServerKeys): Promise<ServerKeys> {
  return db.transaction(async (tx) => {
    await lockMigrations(tx);
    // Read again under the lock: an instance that held it before may have moved the VAPID pair in.
    const keys = readKeyFile(config.keyFile) ?? loaded;
    await claimDatabase(tx, keys, config.keyFile);
    return (await convertLegacySecrets(tx, config.keyFile, keys, config.jwtSecret)).keys;
  });
}

async function claimDatabase(tx: Queryable, keys: ServerKeys, keyFile: string): Promise<void> {
  const keyId = keyIdOf(keys.sealingKey);
  const claimed = await ensureSetting(tx, KEY_ID_SETTING, keyId);
  if (claimed === keyId) return;
  throw new ServerKeyError(
    `This database was set up with another key file (key id ${claimed}); the key file ${keyFile} (KEY_FILE) has key id ${keyId}. ` +
      "Every server on one database needs the same key file: copy that installation's key file (from the first instance, " +
      `or from where you kept it) to ${keyFile}. If it is lost for good, take a backup (npm run backup) and restore it ` +
      'into a new, empty database with npm run restore -- --reset-two-factor <file>, which turns two-factor sign-in off for every account.',
  );
}

async function ensureAdmin(db: Database, adminPassword: string | undefined): Promise<string | undefined> {
  const password = adminPassword ?? generatePassword();
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    // Serialises two instances starting at once on an empty database.
    await tx.query('LOCK TABLE users IN EXCLUSIVE MODE');
    if ((await countUsers(tx)) > 0) return undefined;
    await insertUser(tx, {
      username: FIRST_ADMIN.username,
      full_name: FIRST_ADMIN.full_name,
      role: 'admin',
      password_hash: passwordHash,
      must_change_password: true,
    });
    return adminPassword ? undefined : password;
  });
}
