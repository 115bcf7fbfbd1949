import { randomBytes, randomInt, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

export interface ScryptCost {
  algorithm: 'scrypt';
  logN: number;
  r: number;
  p: number;
}

export interface Argon2Cost {
  algorithm: 'argon2id';
  memoryKiB: number;
  iterations: number;
  parallelism: number;
}

export type PasswordCost = ScryptCost | Argon2Cost;

/**
 * OWASP's first choice for passwords people choose: Argon2id, 19 MiB, 2 passes, 1 lane. Its floor for
 * scrypt (N=2^17, r=8) costs 450 ms per sign-in on our 2-core machines; this costs about 80 ms for
 * comparable resistance (ADR 004, amended).
 */
export const PERSONAL_PASSWORD_COST: Argon2Cost = {
  algorithm: 'argon2id',
  memoryKiB: 19_456,
  iterations: 2,
  parallelism: 1,
};

/**
 * Initial passwords are 16 random characters (~95 bits); no hash cost adds to that, and their owner
 * must replace them at first sign-in. A cheap hash keeps a 500-teacher import fast. See ADR 004.
 */
export const GENERATED_PASSWORD_COST: ScryptCost = { algorithm: 'scrypt', logN: 12, r: 8, p: 1 };

const KEY_LENGTH = 32;

/**
 * Hashes at once, at most one per core. Both hashes are memory-hard: with more running than cores,
 * they evict each other's memory from the caches and throughput falls (measured with scrypt: 16
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

function scrypt(password: string, salt: Buffer, cost: Omit<ScryptCost, 'algorithm'>): Promise<Buffer> {
  const N = 2 ** cost.logN;
  return inHashSlot(
    () =>
      new Promise((resolve, reject) => {
        scryptCallback(
          password.normalize('NFC'),
          salt,
          KEY_LENGTH,
          { N, r: cost.r, p: cost.p, maxmem: 256 * N * cost.r + 1024 * 1024 },
          (error, key) => (error ? reject(error) : resolve(key)),
        );
      }),
  );
}

// ---- Argon2id, off the event loop: one worker thread per hash slot, kept while idle ----

const ARGON2_WORKER_URL = new URL('./argon2.worker.cjs', import.meta.url);
const idleWorkers: Worker[] = [];
let jobIds = 0;

type Argon2Job = ({ op: 'hash'; salt: Uint8Array } & Omit<Argon2Cost, 'algorithm'>) | { op: 'verify'; encoded: string };

function inArgon2Worker<T>(password: string, job: Argon2Job): Promise<T> {
  return inHashSlot(
    () =>
      new Promise<T>((resolve, reject) => {
        const worker = idleWorkers.pop() ?? new Worker(ARGON2_WORKER_URL);
        // An idle worker does not keep the process alive.
        worker.unref();
        jobIds += 1;
        const id = jobIds;
        const settle = (answer: { id: number; ok: boolean; value?: T; message?: string }) => {
          if (answer.id !== id) return;
          worker.off('message', settle);
          worker.off('error', fail);
          idleWorkers.push(worker);
          if (answer.ok) resolve(answer.value as T);
          else reject(new Error(`argon2id failed: ${answer.message}`));
        };
        const fail = (error: Error) => {
          worker.off('message', settle);
          reject(error);
        };
        worker.on('message', settle);
        worker.once('error', fail);
        worker.postMessage({ id, password: password.normalize('NFC'), ...job });
      }),
  );
}

/**
 * `$argon2id$v=19$m=…,t=…,p=…$salt$hash` (the PHC string), or `scrypt$logN$r$p$salt$hash`: the cost
 * travels with the hash, so it can be raised later.
 */
export async function hashPassword(password: string, cost: PasswordCost = PERSONAL_PASSWORD_COST): Promise<string> {
  const salt = randomBytes(16);
  if (cost.algorithm === 'argon2id') {
    const { algorithm: _, ...parameters } = cost;
    return inArgon2Worker<string>(password, { op: 'hash', salt, ...parameters });
  }
  const key = await scrypt(password, salt, cost);
  return ['scrypt', cost.logN, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith('$argon2id$')) return inArgon2Worker<boolean>(password, { op: 'verify', encoded: stored });
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

/**
 * A personal password still hashed with scrypt at the old cost: after a successful sign-in it is
 * hashed again with Argon2id, so sign-ins get faster as people come back. Generated initial
 * passwords (scrypt at logN 12) are replaced at first sign-in anyway.
 */
export function needsRehash(stored: string): boolean {
  const [scheme, logN] = stored.split('$');
  return scheme === 'scrypt' && Number(logN) >= 17;
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
