/**
 * The server key file (ADR 017): the keys that must never be in the database, so that a copy of the
 * database (a backup) can neither sign a session nor open a two-factor secret nor push to parents'
 * phones. KEY_FILE, default `<DATA_DIR>/server-keys.json`, for either kind of database.
 *
 *   signing_key   HS256 key of staff, parent and receipt tokens (unless JWT_SECRET is set); rotated
 *                 by `npm run rotate-signing-key`, which ends every session.
 *   sealing_key   seals the TOTP secrets and keys the recovery-code hashes; never rotated, so the
 *                 signing key can change without touching two-factor.
 *   vapid_*       the Web Push identity (unless VAPID_* are set); devices' subscriptions are bound to it.
 *   whatsapp      the WhatsApp secrets an admin connected from the console (access token, app secret,
 *                 the webhook's verify token; ADR 045), when there are any; the ids are in `settings`.
 *
 * Created on first start, replaced only whole (temporary file, fsync, rename), owner-only (0600).
 */
import { createHmac, randomBytes } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import { z } from 'zod';
import { ConfigError } from '../config';

export const KEY_FILE_VERSION = 1;

export interface VapidKeyPair {
  publicKey: string;
  privateKey: string;
}

/** The WhatsApp secrets kept for the console's connection (ADR 045); each may be absent. */
export interface WhatsappSecrets {
  /** Made when the admin first opens the WhatsApp screen, so it can be pasted into Meta before connecting. */
  verifyToken?: string;
  accessToken?: string;
  appSecret?: string;
}

export interface ServerKeys {
  signingKey: Buffer;
  sealingKey: Buffer;
  vapid: VapidKeyPair;
  whatsapp?: WhatsappSecrets;
}

/** The key file is missing where it must exist, unreadable, malformed or readable by others. */
export class ServerKeyError extends ConfigError {}

const base64urlOf = (bytes: number, what: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, `must be base64url (${what})`)
    .refine(
      (value) => Buffer.from(value, 'base64url').length === bytes,
      `must be ${bytes} bytes in base64url (${what})`,
    );

const keyFileSchema = z.object({
  version: z.literal(KEY_FILE_VERSION, { error: `must be ${KEY_FILE_VERSION}` }),
  signing_key: base64urlOf(32, 'a random key'),
  sealing_key: base64urlOf(32, 'a random key'),
  vapid_public_key: base64urlOf(65, 'an uncompressed P-256 public key'),
  vapid_private_key: base64urlOf(32, 'a P-256 private key'),
  whatsapp: z
    .object({
      verify_token: z.string().min(16).optional(),
      access_token: z.string().min(1).optional(),
      app_secret: z.string().min(1).optional(),
    })
    .optional(),
});

export function generateServerKeys(): ServerKeys {
  const vapid = webpush.generateVAPIDKeys();
  return {
    signingKey: randomBytes(32),
    sealingKey: randomBytes(32),
    vapid: { publicKey: vapid.publicKey, privateKey: vapid.privateKey },
  };
}

/**
 * Names a sealing key without revealing it: in every backup's header and in `settings`, so a restore
 * or a start with another installation's key file is refused before a TOTP secret fails to open.
 */
export function keyIdOf(sealingKey: Buffer): string {
  return createHmac('sha256', sealingKey).update('tuitiondesk/key-id').digest('hex').slice(0, 16);
}

/**
 * The secret tokens are signed with (HS256 over its characters, lib/tokens.ts): JWT_SECRET when it is
 * set, as before, else the file's signing_key as it is written there (43 base64url characters, 256 bits).
 */
export function signingSecretOf(keys: ServerKeys, jwtSecret: string | undefined): string {
  return jwtSecret ?? keys.signingKey.toString('base64url');
}

function serialise(keys: ServerKeys): string {
  return `${JSON.stringify(
    {
      version: KEY_FILE_VERSION,
      note: 'TuitionDesk server keys. Keep this file secret, apart from the backups, and the same on every instance. See docs/deployment.md.',
      signing_key: keys.signingKey.toString('base64url'),
      sealing_key: keys.sealingKey.toString('base64url'),
      vapid_public_key: keys.vapid.publicKey,
      vapid_private_key: keys.vapid.privateKey,
      ...(keys.whatsapp && Object.values(keys.whatsapp).some(Boolean)
        ? {
            whatsapp: {
              verify_token: keys.whatsapp.verifyToken,
              access_token: keys.whatsapp.accessToken,
              app_secret: keys.whatsapp.appSecret,
            },
          }
        : {}),
    },
    null,
    2,
  )}\n`;
}

const errno = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** The keys in `file`, or undefined when there is no such file; ServerKeyError for anything wrong with it. */
export function readKeyFile(file: string): ServerKeys | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if (errno(error) === 'ENOENT') return undefined;
    throw new ServerKeyError(
      `The key file ${file} (KEY_FILE) cannot be read (${errno(error) ?? String(error)}). ` +
        'Give the user the server runs as read access to it, owner only (chmod 600).',
    );
  }
  let text: string;
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new ServerKeyError(`The key file ${file} (KEY_FILE) is not a file.`);
    // Anyone else who can read it can sign an admin's session and open every two-factor secret.
    if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
      throw new ServerKeyError(
        `The key file ${file} (KEY_FILE) can be read or changed by other users of this machine ` +
          `(mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')}). Make it the server user's alone: chmod 600 ${file}`,
      );
    }
    text = readFileSync(fd, 'utf8');
  } catch (error) {
    if (error instanceof ServerKeyError) throw error;
    throw new ServerKeyError(`The key file ${file} (KEY_FILE) cannot be read (${errno(error) ?? String(error)}).`);
  } finally {
    closeSync(fd);
  }
  const malformed = (why: string) =>
    new ServerKeyError(
      `The key file ${file} (KEY_FILE) is not a valid TuitionDesk key file: ${why}. Put back the copy you kept of it; ` +
        'do not delete it, since a new one cannot open the two-factor secrets of this installation.',
    );
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw malformed('it is not JSON');
  }
  if (typeof json === 'object' && json !== null && typeof (json as { version?: unknown }).version === 'number') {
    const version = (json as { version: number }).version;
    if (version > KEY_FILE_VERSION) {
      throw new ServerKeyError(
        `The key file ${file} (KEY_FILE) is version ${version}, written by a newer TuitionDesk; this one reads version ${KEY_FILE_VERSION}. Upgrade TuitionDesk.`,
      );
    }
  }
  const parsed = keyFileSchema.safeParse(json);
  if (!parsed.success) {
    throw malformed(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || 'the file'} ${issue.message}`).join('; '),
    );
  }
  const data = parsed.data;
  return {
    signingKey: Buffer.from(data.signing_key, 'base64url'),
    sealingKey: Buffer.from(data.sealing_key, 'base64url'),
    vapid: { publicKey: data.vapid_public_key, privateKey: data.vapid_private_key },
    ...(data.whatsapp
      ? {
          whatsapp: {
            verifyToken: data.whatsapp.verify_token,
            accessToken: data.whatsapp.access_token,
            appSecret: data.whatsapp.app_secret,
          },
        }
      : {}),
  };
}

/** Writes `keys` to a new owner-only file beside `file`, flushed to disk; answers its path. */
function writeTemporary(file: string, keys: ServerKeys): string {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temporary = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    writeSync(fd, serialise(keys));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return temporary;
}

/** The directory entry itself reaches the disk: after a crash the file is there, old or new, never gone. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Not every platform can open or sync a directory; the rename is atomic either way.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The keys in `file`, created with new random keys when there is none. Creation links a complete
 * temporary file into place, which fails if another process created it first: two instances starting
 * at once on one database end up with the same keys (the one file), never with two.
 */
export function loadOrCreateKeyFile(file: string): ServerKeys {
  const existing = readKeyFile(file);
  if (existing) return existing;
  const temporary = writeTemporary(file, generateServerKeys());
  try {
    linkSync(temporary, file);
    syncDirectory(path.dirname(file));
  } catch (error) {
    if (errno(error) !== 'EEXIST') {
      throw new ServerKeyError(
        `The key file ${file} (KEY_FILE) could not be created (${errno(error) ?? String(error)}). Check that its directory can be written.`,
      );
    }
  } finally {
    unlinkSync(temporary);
  }
  const created = readKeyFile(file);
  if (!created) throw new ServerKeyError(`The key file ${file} (KEY_FILE) disappeared while it was being created.`);
  return created;
}

/** Replaces the whole file with `keys`: readers see the old file or the new one, never a mix. */
export function replaceKeyFile(file: string, keys: ServerKeys): void {
  const temporary = writeTemporary(file, keys);
  try {
    renameSync(temporary, file);
  } catch (error) {
    unlinkSync(temporary);
    throw error;
  }
  syncDirectory(path.dirname(file));
}

/** The keys in `file`, which must exist (a command run beside a server that created it). */
export function requireKeyFile(file: string): ServerKeys {
  const keys = readKeyFile(file);
  if (keys) return keys;
  throw new ServerKeyError(
    `There is no key file at ${file} (KEY_FILE): nothing to rotate. The server creates it on its first start; ` +
      'run this with the DATA_DIR or KEY_FILE the server uses.',
  );
}

/** A new signing key in `file` (which must exist), the rest kept; answers the new keys. */
export function rotateSigningKey(file: string): ServerKeys {
  const keys = requireKeyFile(file);
  const rotated = { ...keys, signingKey: randomBytes(32) };
  replaceKeyFile(file, rotated);
  return rotated;
}

/**
 * Replaces the WhatsApp secrets in `file` (which must exist), the rest kept: `change` gets the ones
 * there and answers the new ones (undefined removes them all). Answers the new keys.
 */
export function updateWhatsappSecrets(
  file: string,
  change: (current: WhatsappSecrets | undefined) => WhatsappSecrets | undefined,
): ServerKeys {
  const keys = requireKeyFile(file);
  const whatsapp = change(keys.whatsapp);
  const { whatsapp: _dropped, ...rest } = keys;
  const updated: ServerKeys = whatsapp ? { ...rest, whatsapp } : rest;
  replaceKeyFile(file, updated);
  return updated;
}
