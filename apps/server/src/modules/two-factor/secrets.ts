import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomInt } from 'node:crypto';
import { RECOVERY_CODE_ALPHABET, RECOVERY_CODE_COUNT, RECOVERY_CODE_LENGTH } from '@tuitiondesk/contract';

/**
 * TOTP secrets are kept encrypted: AES-256-GCM under a key derived (HKDF-SHA256) from the server's
 * signing secret, with the user id as associated data, so a copied row does not work for another
 * account. With JWT_SECRET set in the environment, a copy of the database alone does not reveal any
 * secret. Stored as `v1.<iv>.<ciphertext+tag>` in base64url. See ADR 014.
 */

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export function deriveSecretKey(signingSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', signingSecret, '', 'tuitiondesk/two-factor-secret/v1', 32));
}

function associatedData(userId: number): Buffer {
  return Buffer.from(`user:${userId}`);
}

export function encryptSecret(key: Buffer, userId: number, secret: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(associatedData(userId));
  const body = Buffer.concat([cipher.update(secret), cipher.final(), cipher.getAuthTag()]);
  return `${VERSION}.${iv.toString('base64url')}.${body.toString('base64url')}`;
}

/** The secret, or undefined when it cannot be read with this key (the signing secret changed) or is damaged. */
export function decryptSecret(key: Buffer, userId: number, stored: string): Buffer | undefined {
  const [version, ivText, bodyText] = stored.split('.');
  if (version !== VERSION || !ivText || !bodyText) return undefined;
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

/** Ten codes of 50 random bits each, XXXXX-XXXXX in Crockford base 32 (no I, L, O, U to misread). */
export function generateRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let code = '';
    for (let i = 0; i < RECOVERY_CODE_LENGTH; i += 1)
      code += RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)];
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/**
 * `code` normalised (normaliseRecoveryCode). A fast hash is enough: 50 random bits cannot be found by
 * guessing offline, unlike a password, and online guesses are throttled like passwords.
 */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}
