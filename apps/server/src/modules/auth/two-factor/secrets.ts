import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  randomInt,
} from 'node:crypto';
import { RECOVERY_CODE_ALPHABET, RECOVERY_CODE_COUNT, RECOVERY_CODE_LENGTH } from '@tuitiondesk/contract';

/**
 * TOTP secrets are kept encrypted: AES-256-GCM under a key derived (HKDF-SHA256) from the key file's
 * sealing key, with the user id as associated data, so a copied row does not work for another
 * account. The sealing key is never in the database, so a backup alone opens no secret (ADR 017).
 * Stored as `v2.<iv>.<ciphertext+tag>` in base64url.
 *
 * `v1.` secrets were sealed under a key derived from the token signing secret, which backups carried;
 * they are only opened once, to seal them again as `v2.` (lib/legacy-secrets.ts).
 */

const VERSION = 'v2';
const LEGACY_VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

interface SubKeys {
  totp: Buffer;
  recovery: Buffer;
}

// One derivation per sealing key, not one per sign-in.
const derived = new WeakMap<Buffer, SubKeys>();

function subKeys(sealingKey: Buffer): SubKeys {
  let keys = derived.get(sealingKey);
  if (!keys) {
    keys = {
      totp: Buffer.from(hkdfSync('sha256', sealingKey, '', 'tuitiondesk/two-factor-secret/v2', 32)),
      recovery: Buffer.from(hkdfSync('sha256', sealingKey, '', 'tuitiondesk/recovery-code/v2', 32)),
    };
    derived.set(sealingKey, keys);
  }
  return keys;
}

/** The key `v1.` secrets were sealed with: derived from the token signing secret (JWT_SECRET or settings.jwt_secret). */
export function deriveLegacyKey(signingSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', signingSecret, '', 'tuitiondesk/two-factor-secret/v1', 32));
}

function associatedData(userId: number): Buffer {
  return Buffer.from(`user:${userId}`);
}

function seal(version: string, key: Buffer, userId: number, secret: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(associatedData(userId));
  const body = Buffer.concat([cipher.update(secret), cipher.final(), cipher.getAuthTag()]);
  return `${version}.${iv.toString('base64url')}.${body.toString('base64url')}`;
}

function open(version: string, key: Buffer, userId: number, stored: string): Buffer | undefined {
  const [given, ivText, bodyText, ...rest] = stored.split('.');
  if (given !== version || !ivText || !bodyText || rest.length > 0) return undefined;
  const iv = Buffer.from(ivText, 'base64url');
  const body = Buffer.from(bodyText, 'base64url');
  if (iv.length !== IV_BYTES || body.length <= TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(associatedData(userId));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]);
  } catch {
    return undefined;
  }
}

/** `secret` sealed under the sealing key, for `userId` only. */
export function encryptSecret(sealingKey: Buffer, userId: number, secret: Buffer): string {
  return seal(VERSION, subKeys(sealingKey).totp, userId, secret);
}

/** The secret, or undefined when this sealing key cannot open it (another installation's) or it is damaged. */
export function decryptSecret(sealingKey: Buffer, userId: number, stored: string): Buffer | undefined {
  return open(VERSION, subKeys(sealingKey).totp, userId, stored);
}

export function isLegacySecret(stored: string): boolean {
  return stored.startsWith(`${LEGACY_VERSION}.`);
}

/** A `v1.` secret opened with a key from deriveLegacyKey, or undefined. */
export function decryptLegacySecret(legacyKey: Buffer, userId: number, stored: string): Buffer | undefined {
  return open(LEGACY_VERSION, legacyKey, userId, stored);
}

/** Ten codes of 50 random bits each, XXXXX-XXXXX in Crockford base 32 (no I, L, O, U to misread). */
export function generateRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let code = '';
    for (let i = 0; i < RECOVERY_CODE_LENGTH; i += 1)
      code += RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)];
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

const KEYED_PREFIX = 'v2.';
export const KEYED_RECOVERY_HASH = /^v2\.[0-9a-f]{64}$/;
export const LEGACY_RECOVERY_HASH = /^[0-9a-f]{64}$/;

/**
 * What is stored for a recovery code: `v2.` + HMAC-SHA256, under a key derived from the sealing key,
 * of the SHA-256 hex of the normalised code (normaliseRecoveryCode). Keyed, so a copy of the
 * database cannot test guesses offline; deterministic, so a code is still found with one indexed
 * lookup; over the old SHA-256, so the codes stored before (bare SHA-256) converted without knowing them.
 */
export function hashRecoveryCode(sealingKey: Buffer, code: string): string {
  return keyedRecoveryHash(sealingKey, createHash('sha256').update(code).digest('hex'));
}

/** The stored form of a code whose bare SHA-256 hex (the form before ADR 017) is `sha256Hex`. */
export function keyedRecoveryHash(sealingKey: Buffer, sha256Hex: string): string {
  return `${KEYED_PREFIX}${createHmac('sha256', subKeys(sealingKey).recovery).update(sha256Hex).digest('hex')}`;
}
