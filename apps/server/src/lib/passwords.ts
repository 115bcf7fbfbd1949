import { randomBytes, randomInt, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';

interface ScryptCost {
  logN: number;
  r: number;
  p: number;
}

/** OWASP's scrypt floor for passwords people choose: N=2^17, r=8, p=1. */
export const PERSONAL_PASSWORD_COST: ScryptCost = { logN: 17, r: 8, p: 1 };

/**
 * Initial passwords are 16 random characters (~95 bits); no hash cost adds to that, and their owner
 * must replace them at first sign-in. A cheap hash keeps a 500-teacher import fast. See ADR 004.
 */
export const GENERATED_PASSWORD_COST: ScryptCost = { logN: 12, r: 8, p: 1 };

const KEY_LENGTH = 32;

/**
 * Hashes at once, at most one per core. scrypt is memory-hard: with more running than cores (libuv
 * runs four), they evict each other's memory from the caches and throughput falls (measured: 16
 * sign-ins at once finished fewer per second than 8). The rest wait their turn, first come first.
 */
const HASH_SLOTS = Math.max(1, availableParallelism());
let hashing = 0;
const waiting: (() => void)[] = [];

async function inHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (hashing >= HASH_SLOTS) await new Promise<void>((resolve) => waiting.push(resolve));
  else hashing += 1;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else hashing -= 1;
  }
}

function scrypt(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  return inHashSlot(() => scryptNow(password, salt, cost));
}

function scryptNow(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const N = 2 ** cost.logN;
  return new Promise((resolve, reject) => {
    scryptCallback(
      password.normalize('NFC'),
      salt,
      KEY_LENGTH,
      { N, r: cost.r, p: cost.p, maxmem: 256 * N * cost.r + 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/** `scrypt$logN$r$p$salt$hash`: the cost travels with the hash, so it can be raised later. */
export async function hashPassword(password: string, cost: ScryptCost = PERSONAL_PASSWORD_COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, cost);
  return ['scrypt', cost.logN, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, logN, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), {
    logN: Number(logN),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash of a random password, to spend the same time on unknown usernames as on known ones. */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return decoyHash;
}

// No look-alikes (0/O, 1/l/I) so a password read aloud or from paper is typed right.
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

export function generatePassword(length = 16): string {
  let password = '';
  for (let i = 0; i < length; i += 1) password += ALPHABET[randomInt(ALPHABET.length)];
  return password;
}
