import { randomBytes } from 'node:crypto';
import type { AppConfig } from './config';
import type { AppContext } from './context';
import type { Database } from './db/database';
import { migrate } from './db/migrate';
import { generatePassword, hashPassword } from './lib/passwords';
import { TokenService } from './lib/tokens';
import { countUsers, ensureSetting, insertUser } from './modules/auth/repository';
import { inAppOnlyDelivery } from './modules/messages/delivery';
import { createWhatsappSender } from './modules/messages/whatsapp';

export interface PreparedContext {
  ctx: AppContext;
  /** Set only on the start that created the admin without ADMIN_PASSWORD: shown once, then gone. */
  generatedAdminPassword: string | undefined;
}

/**
 * Brings a database up to date and builds the context the app runs on: migrations, the signing
 * secret (kept with the data so restarts keep everyone signed in), and on an empty database the
 * first admin account.
 */
export async function prepareContext(config: AppConfig, db: Database): Promise<PreparedContext> {
  await migrate(db);
  const secret = config.jwtSecret ?? (await ensureSetting(db, 'jwt_secret', randomBytes(32).toString('base64url')));
  const generatedAdminPassword = await ensureAdmin(db, config.adminPassword);
  return {
    ctx: {
      config,
      db,
      tokens: new TokenService(secret, config.tokenTtlSeconds),
      delivery: inAppOnlyDelivery,
      whatsapp: config.whatsapp ? createWhatsappSender(config.whatsapp) : undefined,
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
