import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * TOTP (RFC 6238) on HOTP (RFC 4226), written on node:crypto: a secret of 160 bits, HMAC-SHA1, a
 * 30-second step and 6 digits, which is what every authenticator app reads from an otpauth:// URI.
 * The generator takes other algorithms and lengths only so it can be checked against the RFC's
 * test vectors (Appendix B gives 8 digits for SHA-1, SHA-256 and SHA-512).
 */

export type TotpAlgorithm = 'sha1' | 'sha256' | 'sha512';

export interface TotpOptions {
  digits?: number;
  periodSeconds?: number;
  algorithm?: TotpAlgorithm;
}

const DEFAULTS: Required<TotpOptions> = { digits: 6, periodSeconds: 30, algorithm: 'sha1' };

/** RFC 4648 base 32, the alphabet otpauth:// secrets are written in. */
const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export const SECRET_BYTES = 20;

export function generateSecret(): Buffer {
  return randomBytes(SECRET_BYTES);
}

/** Base 32 without padding (authenticator apps accept and most prefer it so). */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32_ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** Reads base 32 in any case, with spaces, dashes or padding; undefined when it is not base 32. */
export function base32Decode(text: string): Buffer | undefined {
  const compact = text.toUpperCase().replace(/[\s-]/g, '').replace(/=+$/, '');
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of compact) {
    const index = BASE32_ALPHABET.indexOf(char);
    if (index < 0) return undefined;
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
    value &= (1 << bits) - 1;
  }
  return Buffer.from(bytes);
}

/** HOTP (RFC 4226 section 5.3): dynamic truncation of HMAC(key, counter as 8 bytes big-endian). */
export function hotp(
  key: Uint8Array,
  counter: number,
  digits: number = DEFAULTS.digits,
  algorithm: TotpAlgorithm = 'sha1',
): string {
  if (!Number.isSafeInteger(counter) || counter < 0) throw new RangeError('counter must be a non-negative integer');
  if (!Number.isInteger(digits) || digits < 6 || digits > 10) throw new RangeError('digits must be 6 to 10');
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(message).digest();
  const offset = (mac[mac.length - 1] as number) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The time step (RFC 6238's T) that a moment falls in. */
export function timeStep(timeMs: number, periodSeconds: number = DEFAULTS.periodSeconds): number {
  return Math.floor(timeMs / 1000 / periodSeconds);
}

/** The code an authenticator shows at `timeMs`. */
export function totp(key: Uint8Array, timeMs: number, options: TotpOptions = {}): string {
  const { digits, periodSeconds, algorithm } = { ...DEFAULTS, ...options };
  return hotp(key, timeStep(timeMs, periodSeconds), digits, algorithm);
}

/**
 * The time step whose code `code` is, looking one step either side of now (a phone's clock a little
 * off, or a code typed as it changed), or undefined when none matches. Every candidate is compared in
 * constant time, and all are computed, so the answer's timing does not say which one matched.
 */
export function matchingStep(
  key: Uint8Array,
  code: string,
  nowMs: number,
  options: TotpOptions & { window?: number } = {},
): number | undefined {
  const { digits, periodSeconds, algorithm } = { ...DEFAULTS, ...options };
  const window = options.window ?? 1;
  const given = Buffer.from(code);
  const current = timeStep(nowMs, periodSeconds);
  let found: number | undefined;
  for (let step = current - window; step <= current + window; step += 1) {
    if (step < 0) continue;
    const expected = Buffer.from(hotp(key, step, digits, algorithm));
    if (expected.length === given.length && timingSafeEqual(expected, given) && found === undefined) found = step;
  }
  return found;
}

/** The otpauth:// URI (Key Uri Format) that authenticator apps read from the QR code. */
export function otpauthUri(input: { secret: string; account: string; issuer: string }): string {
  const label = `${encodeURIComponent(input.issuer)}:${encodeURIComponent(input.account)}`;
  const params = new URLSearchParams({
    secret: input.secret,
    issuer: input.issuer,
    algorithm: 'SHA1',
    digits: String(DEFAULTS.digits),
    period: String(DEFAULTS.periodSeconds),
  });
  return `otpauth://totp/${label}?${params.toString()}`;
}
