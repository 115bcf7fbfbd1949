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
});

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
  adminPassword: string | undefined;
  jwtSecret: string | undefined;
  tokenTtlSeconds: number;
  importMaxBytes: number;
  importMaxRows: number;
  whatsapp: WhatsappConfig | undefined;
  webDistDir: string | undefined;
  logLevel: string;
  trustProxy: boolean;
}

export class ConfigError extends Error {}

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
  return {
    port: e.PORT,
    host: e.HOST,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : { kind: 'pglite', dataDir: path.resolve(e.DATA_DIR) },
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
  };
}
