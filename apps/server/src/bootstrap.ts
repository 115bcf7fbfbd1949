import { randomBytes } from 'node:crypto';
import type { AppConfig } from './config';
import type { AppContext } from './context';
import type { Database } from './db/database';
import { migrate } from './db/migrate';
import { generatePassword, hashPassword } from './lib/passwords';
import { TokenService } from './lib/tokens';
import { countUsers, ensureSetting, insertUser } from './modules/auth/repository';
import { createWhatsappSender } from './modules/messages/whatsapp';
import { PushDelivery } from './modules/push/delivery';
import { resolveVapidDetails } from './modules/push/vapid';
import { PushWorker } from './modules/push/worker';
import { deriveSecretKey } from './modules/two-factor/secrets';

export interface PreparedContext {
  ctx: AppContext;
  /** Set only on the start that created the admin without ADMIN_PASSWORD: shown once, then gone. */
  generatedAdminPassword: string | undefined;
}

/**
 * Brings a database up to date and builds the context the app runs on: migrations, the signing
 * secret and the VAPID keys (kept with the data so restarts keep everyone signed in and subscribed),
 * and on an empty database the first admin account.
 */
export async function prepareContext(config: AppConfig, db: Database): Promise<PreparedContext> {
  await migrate(db);
  const secret = config.jwtSecret ?? (await ensureSetting(db, 'jwt_secret', randomBytes(32).toString('base64url')));
  const generatedAdminPassword = await ensureAdmin(db, config.adminPassword);
  const tokens = new TokenService(secret, config.tokenTtlSeconds);
  // Not started here: the server starts it once listening (tests start theirs when they need it).
  const push = new PushWorker({ db, tokens, vapid: await resolveVapidDetails(config.push, db), config: config.push });
  return {
    ctx: {
      config,
      db,
      tokens,
      delivery: new PushDelivery(() => push.wake()),
      whatsapp: config.whatsapp ? createWhatsappSender(config.whatsapp) : undefined,
      push,
      twoFactorKey: deriveSecretKey(secret),
    },
    generatedAdminPassword,
  };
}

async function ensureAdmin(db: Database, adminPassword: string | undefined): Promise<string | undefined> {
  const password = adminPassword ?? generatePassword();
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    // Serialises two instances starting at once on an empty database.
    await tx.query('LOCK TABLE users IN EXCLUSIVE MODE');
    if ((await countUsers(tx)) > 0) return undefined;
    await insertUser(tx, {
      username: 'admin',
      full_name: 'Administrator',
      role: 'admin',
      password_hash: passwordHash,
      must_change_password: true,
    });
    return adminPassword ? undefined : password;
  });
}
