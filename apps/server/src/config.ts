import path from 'node:path';
import { z } from 'zod';

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value));

const integer = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

const envSchema = z.object({
  PORT: integer(8000, 0, 65_535),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
  ),
  BACKUP_DIR: optionalString,
  ADMIN_PASSWORD: optionalString,
  JWT_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  TOKEN_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(12),
  IMPORT_MAX_BYTES: integer(5 * 1024 * 1024, 1024, 50 * 1024 * 1024),
  IMPORT_MAX_ROWS: integer(5000, 1, 100_000),
  WHATSAPP_API_BASE_URL: optionalString.pipe(z.url().optional()),
  WHATSAPP_ACCESS_TOKEN: optionalString,
  WHATSAPP_PHONE_NUMBER_ID: optionalString,
  WEB_DIST_DIR: optionalString,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((value) => value === 'true' || value === '1'),
  VAPID_PUBLIC_KEY: optionalString.pipe(
    z
      .string()
      .refine((value) => base64urlBytes(value) === 65, 'must be a base64url uncompressed P-256 public key (65 bytes)')
      .optional(),
  ),
  VAPID_PRIVATE_KEY: optionalString.pipe(
    z
      .string()
      .refine((value) => base64urlBytes(value) === 32, 'must be a base64url P-256 private key (32 bytes)')
      .optional(),
  ),
  VAPID_SUBJECT: optionalString.pipe(
    z
      .string()
      .regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, 'must be a mailto: address or an https: URL')
      .optional(),
  ),
  PUSH_ALLOW_HTTP_ENDPOINTS: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((value) => value === 'true' || value === '1'),
  PUSH_POLL_MS: integer(2000, 10, 600_000),
});

/** Decoded length of a base64url string, or -1 when it is not base64url. */
function base64urlBytes(value: string): number {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(value)) return -1;
  return Buffer.from(value, 'base64url').length;
}

export const DEFAULT_VAPID_SUBJECT = 'mailto:office@tuitiondesk.invalid';

export type DatabaseConfig = { kind: 'pglite'; dataDir: string | undefined } | { kind: 'postgres'; url: string };

export interface WhatsappConfig {
  baseUrl: string;
  accessToken: string;
  phoneNumberId: string;
}

export interface AppConfig {
  port: number;
  host: string;
  database: DatabaseConfig;
  /** Where backups are written (npm run backup, POST /backups, before a clear-all): BACKUP_DIR. */
  backupDir: string;
  adminPassword: string | undefined;
  jwtSecret: string | undefined;
  tokenTtlSeconds: number;
  importMaxBytes: number;
  importMaxRows: number;
  whatsapp: WhatsappConfig | undefined;
  webDistDir: string | undefined;
  logLevel: string;
  trustProxy: boolean;
  push: PushConfig;
}

/** Web Push delivery (modules/push). Keys unset: generated once and kept in the database. */
export interface PushConfig {
  vapidKeys: { publicKey: string; privateKey: string } | undefined;
  vapidSubject: string;
  /** Tests only: accept http:// subscription endpoints (a fake push service on loopback). */
  allowHttpEndpoints: boolean;
  /** How often the worker looks for work queued by other instances, or retries that fell due. */
  pollMs: number;
  /** First retry after this long, doubling per attempt up to retryMaxMs. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Attempts per device before the push is given up. */
  maxAttempts: number;
  /** How long one request to a push service may take. */
  requestTimeoutMs: number;
  /** Requests in flight at once, per instance. */
  concurrency: number;
  /** Outbox rows claimed per round. */
  batchSize: number;
  /** Seconds a push service keeps an undelivered push (the TTL header). */
  ttlSeconds: number;
}

export class ConfigError extends Error {}

/**
 * BACKUP_DIR, or beside the embedded database (`<DATA_DIR>/backups`), or `./backups` with PostgreSQL.
 * Never inside the embedded database's own files, which the database may rewrite.
 */
function backupDirOf(setting: string | undefined, database: DatabaseConfig): string {
  const fallback = database.kind === 'pglite' ? path.join(database.dataDir as string, 'backups') : './backups';
  const dir = path.resolve(setting ?? fallback);
  if (database.kind === 'pglite') {
    const pgdata = path.join(database.dataDir as string, 'pgdata');
    if (dir === pgdata || dir.startsWith(`${pgdata}${path.sep}`)) {
      throw new ConfigError(
        `Invalid configuration:\n  BACKUP_DIR: must not be inside the database's own directory ${pgdata}`,
      );
    }
  }
  return dir;
}

/** Reads and checks the environment once, at start-up; every problem is named in one message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  const whatsappParts = [e.WHATSAPP_ACCESS_TOKEN, e.WHATSAPP_PHONE_NUMBER_ID];
  if (whatsappParts.some(Boolean) && !whatsappParts.every(Boolean)) {
    throw new ConfigError(
      'Invalid configuration:\n  WHATSAPP_ACCESS_TOKEN and WHATSAPP_PHONE_NUMBER_ID must be set together',
    );
  }
  if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY)) {
    throw new ConfigError('Invalid configuration:\n  VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together');
  }
  const database: DatabaseConfig = e.DATABASE_URL
    ? { kind: 'postgres', url: e.DATABASE_URL }
    : { kind: 'pglite', dataDir: path.resolve(e.DATA_DIR) };
  return {
    port: e.PORT,
    host: e.HOST,
    database,
    backupDir: backupDirOf(e.BACKUP_DIR, database),
    adminPassword: e.ADMIN_PASSWORD,
    jwtSecret: e.JWT_SECRET,
    tokenTtlSeconds: Math.round(e.TOKEN_TTL_HOURS * 3600),
    importMaxBytes: e.IMPORT_MAX_BYTES,
    importMaxRows: e.IMPORT_MAX_ROWS,
    whatsapp:
      e.WHATSAPP_ACCESS_TOKEN && e.WHATSAPP_PHONE_NUMBER_ID
        ? {
            baseUrl: e.WHATSAPP_API_BASE_URL ?? 'https://graph.facebook.com/v21.0',
            accessToken: e.WHATSAPP_ACCESS_TOKEN,
            phoneNumberId: e.WHATSAPP_PHONE_NUMBER_ID,
          }
        : undefined,
    webDistDir: e.WEB_DIST_DIR,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    push: {
      vapidKeys:
        e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY
          ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY }
          : undefined,
      vapidSubject: e.VAPID_SUBJECT ?? DEFAULT_VAPID_SUBJECT,
      allowHttpEndpoints: e.PUSH_ALLOW_HTTP_ENDPOINTS,
      pollMs: e.PUSH_POLL_MS,
      retryBaseMs: 30_000,
      retryMaxMs: 6 * 3600_000,
      maxAttempts: 6,
      requestTimeoutMs: 10_000,
      concurrency: 8,
      batchSize: 50,
      ttlSeconds: 7 * 24 * 3600,
    },
  };
}
