import { randomInt } from 'node:crypto';
import { ACCESS_CODE_ALPHABET, ACCESS_CODE_LENGTH } from '@tuitiondesk/contract';
import { decoyPasswordHash, hashPassword, PERSONAL_PASSWORD_COST, verifyPassword } from '../../lib/passwords';

/**
 * Access codes are 8 characters of Crockford base 32 (40 bits), drawn with a CSPRNG. Online guessing
 * is held back by the sign-in throttle; the hash is there for the day the database leaks, so it gets
 * the full personal-password cost (Argon2id at OWASP's parameters; 40 bits at that cost a guess are
 * out of reach offline). See ADR 010.
 */
export function generateAccessCode(): string {
  let code = '';
  for (let i = 0; i < ACCESS_CODE_LENGTH; i += 1) code += ACCESS_CODE_ALPHABET[randomInt(ACCESS_CODE_ALPHABET.length)];
  return code;
}

/** `code` is the normalised form (normaliseAccessCode): what is hashed is what a sign-in will compare. */
export function hashAccessCode(code: string): Promise<string> {
  return hashPassword(code, PERSONAL_PASSWORD_COST);
}

/**
 * Compares a normalised code with the stored hash. Without a hash (unknown phone) it still spends one
 * hash of the same cost, so the answer's timing does not tell which phones have access. Text that
 * cannot be a code is refused at once: that depends only on what was typed, not on the phone.
 */
export async function verifyAccessCode(code: string | undefined, storedHash: string | undefined): Promise<boolean> {
  if (code === undefined) return false;
  const isValid = await verifyPassword(code, storedHash ?? (await decoyPasswordHash()));
  return isValid && storedHash !== undefined;
}
