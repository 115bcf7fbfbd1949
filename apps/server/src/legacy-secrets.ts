/**
 * The move of the keys out of the database (ADR 017), for a database that a TuitionDesk from before
 * it wrote: at start (bootstrap), or when a restore brings in such a backup. Idempotent; run inside
 * the caller's transaction while it holds the migration lock, so two instances starting at once on
 * one PostgreSQL database convert once.
 *
 *   settings.vapid_keys  → the key file, unchanged (the devices' subscriptions are bound to the pair)
 *   `v1.` TOTP secrets   → opened with the key derived from the old signing secret, sealed again as `v2.`
 *   SHA-256 recovery hashes → keyed (HMAC under a key from the sealing key, over the old hash)
 *   settings.jwt_secret, settings.vapid_keys → deleted: sessions signed with the old secret end
 */
import type { Queryable } from './db/database';
import { replaceKeyFile, ServerKeyError, type ServerKeys, type VapidKeyPair } from './lib/server-keys';
import {
  decryptLegacySecret,
  deriveLegacyKey,
  encryptSecret,
  findLegacyRecoveryHashes,
  findLegacySecrets,
  keyedRecoveryHash,
  replaceRecoveryHashes,
  replaceSecret,
} from './modules/auth';

/** Where the token signing secret was kept before ADR 017, unless JWT_SECRET was set. */
export const LEGACY_SIGNING_SETTING = 'jwt_secret';

/**
 * Where the VAPID pair was kept before ADR 017 (one setting, both halves); moved into the key file,
 * unchanged, since the devices' subscriptions are bound to it.
 */
export const LEGACY_VAPID_SETTING = 'vapid_keys';

export interface LegacyConversion {
  /** The keys in force afterwards (the VAPID pair may have come from the database). */
  keys: ServerKeys;
  /** Whether anything was converted or deleted. */
  converted: boolean;
  /** Accounts whose `v1.` secret no signing secret at hand opened. */
  unreadable: number[];
}

/**
 * What to do about `v1.` secrets that no signing secret at hand opens, before anything leaves the
 * transaction: keep them as they are (unusable, as they already were), or throw to refuse, or reset.
 */
export type UnreadableSecrets = (tx: Queryable, userIds: number[]) => Promise<void>;

async function tableExists(db: Queryable, name: string): Promise<boolean> {
  const [row] = await db.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [name]);
  return Boolean(row?.present);
}

function parseVapidSetting(value: string): VapidKeyPair {
  try {
    const pair = JSON.parse(value) as Partial<VapidKeyPair>;
    if (typeof pair.publicKey === 'string' && typeof pair.privateKey === 'string') {
      return { publicKey: pair.publicKey, privateKey: pair.privateKey };
    }
  } catch {
    // reported below
  }
  throw new ServerKeyError(
    `The database's setting ${LEGACY_VAPID_SETTING} is not a VAPID key pair, so it cannot be moved into the key file.`,
  );
}

/**
 * Converts whatever of the old way `tx` still holds. `jwtSecret` is JWT_SECRET, which sealed the
 * `v1.` secrets when it was set; the database's own old secret is tried too. `keyFile` receives a
 * VAPID pair found in the database, last, once nothing can refuse any more (a failure of the caller's
 * commit after it leaves the same pair in the file, and the next attempt writes it again).
 */
export async function convertLegacySecrets(
  tx: Queryable,
  keyFile: string,
  keys: ServerKeys,
  jwtSecret: string | undefined,
  onUnreadable: UnreadableSecrets = async () => {},
): Promise<LegacyConversion> {
  const settings = await tx.query<{ key: string; value: string }>(
    'SELECT key, value FROM settings WHERE key = ANY($1::text[]) ORDER BY key',
    [[LEGACY_SIGNING_SETTING, LEGACY_VAPID_SETTING]],
  );
  const storedSecret = settings.find((row) => row.key === LEGACY_SIGNING_SETTING)?.value;
  const storedVapid = settings.find((row) => row.key === LEGACY_VAPID_SETTING)?.value;
  const hasTwoFactor = await tableExists(tx, 'user_two_factor');
  const secrets = hasTwoFactor ? await findLegacySecrets(tx) : [];
  const hashes = hasTwoFactor ? await findLegacyRecoveryHashes(tx) : [];
  if (settings.length === 0 && secrets.length === 0 && hashes.length === 0) {
    return { keys, converted: false, unreadable: [] };
  }

  const legacyKeys = [...new Set([jwtSecret, storedSecret].filter((s): s is string => Boolean(s)))].map(
    deriveLegacyKey,
  );
  const unreadable: number[] = [];
  for (const row of secrets) {
    const secret = legacyKeys
      .map((key) => decryptLegacySecret(key, row.user_id, row.secret_encrypted))
      .find((opened) => opened !== undefined);
    if (secret) await replaceSecret(tx, row.user_id, encryptSecret(keys.sealingKey, row.user_id, secret));
    else unreadable.push(row.user_id);
  }
  if (hashes.length > 0) {
    await replaceRecoveryHashes(
      tx,
      hashes.map((row) => row.id),
      hashes.map((row) => keyedRecoveryHash(keys.sealingKey, row.code_hash)),
    );
  }
  if (unreadable.length > 0) await onUnreadable(tx, unreadable);
  await tx.query('DELETE FROM settings WHERE key = ANY($1::text[])', [[LEGACY_SIGNING_SETTING, LEGACY_VAPID_SETTING]]);

  let result = keys;
  if (storedVapid !== undefined) {
    const vapid = parseVapidSetting(storedVapid);
    if (vapid.publicKey !== keys.vapid.publicKey || vapid.privateKey !== keys.vapid.privateKey) {
      result = { ...keys, vapid };
      replaceKeyFile(keyFile, result);
    }
  }
  return { keys: result, converted: true, unreadable };
}
