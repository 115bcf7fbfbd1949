import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { isTimeZone } from './lib/time';
import { RAZORPAY_ENV, type RazorpayConfig, razorpayConfigOf } from './razorpay-config';

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value));

const integer = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/** WhatsApp's limit for a new business number: 250 unique people in 24 hours (higher tiers later). */
export const DEFAULT_WHATSAPP_DAILY_LIMIT = 250;

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
  KEY_FILE: optionalString,
  ADMIN_PASSWORD: optionalString,
  JWT_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  TOKEN_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(12),
  IMPORT_MAX_BYTES: integer(5 * 1024 * 1024, 1024, 50 * 1024 * 1024),
  IMPORT_MAX_ROWS: integer(5000, 1, 100_000),
  REQUEST_TIMEOUT_SECONDS: integer(25, 5, 3600),
  WHATSAPP_API_BASE_URL: optionalString.pipe(z.url().optional()),
  WHATSAPP_ACCESS_TOKEN: optionalString,
  WHATSAPP_PHONE_NUMBER_ID: optionalString.pipe(z.string().regex(/^\d+$/, 'must be the digits Meta shows').optional()),
  WHATSAPP_BUSINESS_ACCOUNT_ID: optionalString.pipe(
    z.string().regex(/^\d+$/, 'must be the digits Meta shows').optional(),
  ),
  WHATSAPP_APP_SECRET: optionalString,
  WHATSAPP_VERIFY_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  WHATSAPP_DAILY_LIMIT: integer(DEFAULT_WHATSAPP_DAILY_LIMIT, 1, 10_000_000),
  WHATSAPP_MESSAGES_PER_SECOND: integer(80, 1, 1000),
  ...RAZORPAY_ENV,
  WEB_DIST_DIR: optionalString,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // The centre's time zone, fixed by the server when set (ADR 042); Node reads TZ itself too.
  TZ: optionalString.refine((zone) => zone === undefined || isTimeZone(zone), {
    message: 'must be an IANA time zone, e.g. Asia/Kolkata (or unset: the centre chooses its own in the console)',
  }),
  TRUST_PROXY: optionalString.transform(parseTrustProxy),
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
  PUSH_ALLOW_LOOPBACK_ENDPOINTS_FOR_TESTS: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((value) => value === 'true' || value === '1'),
  PUSH_POLL_MS: integer(2000, 10, 600_000),
  ANSWER_CACHE_MB: integer(64, 0, 4096),
});

/** Decoded length of a base64url string, or -1 when it is not base64url. */
function base64urlBytes(value: string): number {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(value)) return -1;
  return Buffer.from(value, 'base64url').length;
}

export const DEFAULT_VAPID_SUBJECT = 'mailto:office@tuitiondesk.invalid';

export type DatabaseConfig = { kind: 'pglite'; dataDir: string | undefined } | { kind: 'postgres'; url: string };

/**
 * How long a client may take over a request, so slow or stalled ones cannot hold connections open
 * (ADR 020). Node checks the request and header limits every checkIntervalMs, so a cut comes up to
 * that much after its limit.
 */
export interface HttpTimeouts {
  /** Headers and body together: REQUEST_TIMEOUT_SECONDS. Past it the server answers 408 and closes. */
  requestMs: number;
  /** The request line and headers alone (a 408 too). */
  headersMs: number;
  /** A connection with nothing sent either way (a stalled reader): closed. Longer than any answer takes. */
  socketIdleMs: number;
  /** A kept-alive connection waiting for its next request: closed. */
  keepAliveMs: number;
  /** Requests answered on one connection before it is closed (the client opens another). */
  maxRequestsPerSocket: number;
  checkIntervalMs: number;
}

/** The production limits, the request's from REQUEST_TIMEOUT_SECONDS. */
export function httpTimeouts(requestSeconds: number): HttpTimeouts {
  const requestMs = requestSeconds * 1000;
  return {
    requestMs,
    headersMs: Math.min(10_000, requestMs),
    socketIdleMs: 120_000,
    keepAliveMs: 10_000,
    maxRequestsPerSocket: 1000,
    checkIntervalMs: 1000,
  };
}

export interface WhatsappConfig {
  baseUrl: string;
  accessToken: string;
  phoneNumberId: string;
  businessAccountId: string;
  /** Signs the webhook's callbacks (X-Hub-Signature-256). */
  appSecret: string;
  /** What Meta echoes in the webhook's verification handshake. */
  verifyToken: string;
  /** New conversations (unique families sent a template) allowed in any 24 hours. */
  dailyLimit: number;
  /** The Cloud API's throughput for this number; the sender never goes faster. */
  messagesPerSecond: number;
}

/**
 * The Cloud API as the console's connection uses it (ADR 045): where it is (WHATSAPP_API_BASE_URL, the
 * Graph API version in its path) and the number's sending limits, from the environment or their defaults.
 */
export interface WhatsappApiConfig {
  baseUrl: string;
  dailyLimit: number;
  messagesPerSecond: number;
  /** How long a check against the Cloud API may take before Meta counts as unreachable. */
  timeoutMs: number;
}

export const DEFAULT_WHATSAPP_API_BASE_URL = 'https://graph.facebook.com/v21.0';

/** The WhatsApp settings that must all be set for WhatsApp to be on. */
export const WHATSAPP_REQUIRED_SETTINGS = [
  'WHATSAPP_ACCESS_TOKEN',
  'WHATSAPP_PHONE_NUMBER_ID',
  'WHATSAPP_BUSINESS_ACCOUNT_ID',
  'WHATSAPP_APP_SECRET',
  'WHATSAPP_VERIFY_TOKEN',
] as const;

export interface AppConfig {
  port: number;
  host: string;
  database: DatabaseConfig;
  /** Where backups are written (npm run backup, POST /backups, before a clear-all): BACKUP_DIR. */
  backupDir: string;
  /** The server key file (signing, sealing and VAPID keys; lib/server-keys.ts, ADR 017): KEY_FILE. */
  keyFile: string;
  adminPassword: string | undefined;
  jwtSecret: string | undefined;
  tokenTtlSeconds: number;
  importMaxBytes: number;
  importMaxRows: number;
  http: HttpTimeouts;
  /**
   * WhatsApp in use: the WHATSAPP_* variables' at start-up, else what an admin connected from the
   * console (modules/delivery/whatsapp-live.ts replaces it on a connect or a disconnect, ADR 045).
   */
  whatsapp: WhatsappConfig | undefined;
  whatsappApi: WhatsappApiConfig;
  /** Online payment (ADR 053); undefined when no RAZORPAY_* setting is set: online payment is off. */
  razorpay: RazorpayConfig | undefined;
  webDistDir: string | undefined;
  /** TZ: the centre's time zone as the server fixes it (the console shows it, cannot change it); unset: the centre's setting. */
  timeZone: string | undefined;
  logLevel: string;
  /**
   * Which proxies' X-Forwarded-For entries are believed: none (false), the N nearest hops, or the
   * proxies at these addresses and networks. Never every hop: the client writes the left-most entry.
   */
  trustProxy: TrustProxy;
  push: PushConfig;
  /** With PostgreSQL: the memory for answers kept by their data versions (ADR 024), 0 for none. */
  answerCacheBytes: number;
}

/** Web Push delivery (modules/push). Keys unset: the key file's pair (ADR 017). */
export interface PushConfig {
  vapidKeys: { publicKey: string; privateKey: string } | undefined;
  vapidSubject: string;
  /**
   * Tests only: push endpoints on this computer (a loopback literal or localhost), plain http and
   * any port, for a fake push service. Host names must still resolve to public addresses (ADR 018).
   */
  allowLoopbackEndpointsForTests: boolean;
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

export type TrustProxy = false | string[];

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const NAME_YOUR_PROXY =
  'name your proxy instead, by its address (TRUST_PROXY=127.0.0.1) or its network (TRUST_PROXY=10.0.0.0/8)';

/**
 * TRUST_PROXY: `false` (the default) or a comma-separated list of the proxies' addresses, CIDR
 * networks and the names loopback, linklocal, uniquelocal, as Fastify's trustProxy takes them. The
 * client address is then the right-most X-Forwarded-For entry that is not one of them: the address
 * the trusted proxy saw. `true`, `*` or a /0 network would believe every entry, which the client
 * writes itself, and a hop count cannot check who is speaking (Fastify ignores one): both refused.
 */
function parseTrustProxy(value: string | undefined, ctx: z.RefinementCtx): TrustProxy {
  if (value === undefined) return false;
  const text = value.trim().toLowerCase();
  if (text === 'false' || text === '0' || text === 'no') return false;
  if (text === 'true' || text === 'yes' || text === '*' || text === 'all') {
    ctx.addIssue({
      code: 'custom',
      message: `${value} would believe every X-Forwarded-For entry, and clients write those themselves: ${NAME_YOUR_PROXY}`,
    });
    return false;
  }
  if (/^\d+$/.test(text)) {
    ctx.addIssue({
      code: 'custom',
      message: `a hop count (${value}) cannot tell a proxy from a client that reaches the server directly: ${NAME_YOUR_PROXY}`,
    });
    return false;
  }
  const entries = text.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const problem = proxyEntryProblem(entry);
    if (problem) ctx.addIssue({ code: 'custom', message: `${entry || '(empty)'} ${problem}` });
  }
  return entries;
}

function proxyEntryProblem(entry: string): string | undefined {
  if (PROXY_NAMES.has(entry)) return undefined;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) {
    return 'is not an address, a CIDR network (10.0.0.0/8) or one of loopback, linklocal, uniquelocal';
  }
  if (prefix === undefined) return undefined;
  const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : Number.NaN;
  const maxBits = version === 4 ? 32 : 128;
  if (!(bits >= 0 && bits <= maxBits)) return `has a prefix length that is not 0 to ${maxBits}`;
  if (bits === 0) return `is every address, so clients could write their own: ${NAME_YOUR_PROXY}`;
  return undefined;
}

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

/** KEY_FILE, or `<DATA_DIR>/server-keys.json` (with PostgreSQL too); never among the backups it must stay apart from. */
function keyFileOf(setting: string | undefined, dataDir: string, backupDir: string): string {
  const file = path.resolve(setting ?? path.join(dataDir, 'server-keys.json'));
  if (file.startsWith(`${backupDir}${path.sep}`)) {
    throw new ConfigError(
      `Invalid configuration:\n  KEY_FILE: must not be inside BACKUP_DIR ${backupDir}: the keys must not travel with the backups`,
    );
  }
  return file;
}

/** Reads and checks the environment once, at start-up; every problem is named in one message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  const missingWhatsapp = WHATSAPP_REQUIRED_SETTINGS.filter((name) => !e[name]);
  if (missingWhatsapp.length > 0 && missingWhatsapp.length < WHATSAPP_REQUIRED_SETTINGS.length) {
    throw new ConfigError(
      `Invalid configuration:\n  WhatsApp needs ${WHATSAPP_REQUIRED_SETTINGS.join(', ')} set together; missing: ${missingWhatsapp.join(', ')}`,
    );
  }
  const razorpay = razorpayConfigOf(e);
  if (typeof razorpay === 'string') throw new ConfigError(`Invalid configuration:\n  ${razorpay}`);
  if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY)) {
    throw new ConfigError('Invalid configuration:\n  VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together');
  }
  const database: DatabaseConfig = e.DATABASE_URL
    ? { kind: 'postgres', url: e.DATABASE_URL }
    : { kind: 'pglite', dataDir: path.resolve(e.DATA_DIR) };
  const backupDir = backupDirOf(e.BACKUP_DIR, database);
  return {
    answerCacheBytes: e.ANSWER_CACHE_MB * 1024 * 1024,
    port: e.PORT,
    host: e.HOST,
    database,
    backupDir,
    keyFile: keyFileOf(e.KEY_FILE, e.DATA_DIR, backupDir),
    adminPassword: e.ADMIN_PASSWORD,
    jwtSecret: e.JWT_SECRET,
    tokenTtlSeconds: Math.round(e.TOKEN_TTL_HOURS * 3600),
    importMaxBytes: e.IMPORT_MAX_BYTES,
    importMaxRows: e.IMPORT_MAX_ROWS,
    http: httpTimeouts(e.REQUEST_TIMEOUT_SECONDS),
    whatsapp:
      missingWhatsapp.length === 0
        ? {
            baseUrl: e.WHATSAPP_API_BASE_URL ?? DEFAULT_WHATSAPP_API_BASE_URL,
            accessToken: e.WHATSAPP_ACCESS_TOKEN as string,
            phoneNumberId: e.WHATSAPP_PHONE_NUMBER_ID as string,
            businessAccountId: e.WHATSAPP_BUSINESS_ACCOUNT_ID as string,
            appSecret: e.WHATSAPP_APP_SECRET as string,
            verifyToken: e.WHATSAPP_VERIFY_TOKEN as string,
            dailyLimit: e.WHATSAPP_DAILY_LIMIT,
            messagesPerSecond: e.WHATSAPP_MESSAGES_PER_SECOND,
          }
        : undefined,
    whatsappApi: {
      baseUrl: e.WHATSAPP_API_BASE_URL ?? DEFAULT_WHATSAPP_API_BASE_URL,
      dailyLimit: e.WHATSAPP_DAILY_LIMIT,
      messagesPerSecond: e.WHATSAPP_MESSAGES_PER_SECOND,
      timeoutMs: 10_000,
    },
    razorpay,
    webDistDir: e.WEB_DIST_DIR,
    timeZone: e.TZ,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    push: {
      vapidKeys:
        e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY
          ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY }
          : undefined,
      vapidSubject: e.VAPID_SUBJECT ?? DEFAULT_VAPID_SUBJECT,
      allowLoopbackEndpointsForTests: e.PUSH_ALLOW_LOOPBACK_ENDPOINTS_FOR_TESTS,
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
