import { z } from 'zod';
import { writtenPhoneSchema } from './phones';

/**
 * Connecting WhatsApp from the console (`/settings/whatsapp`, admin only, ADR 045): the Meta values
 * are checked against the Cloud API before anything is kept; the access token, the app secret and the
 * webhook's verify token go to the server's key file (never the database, never a backup), the ids to
 * the settings. When the server's WHATSAPP_* variables are set they win: the screen shows them as fixed.
 */

/** Where the WhatsApp connection in use comes from. */
export const WHATSAPP_SOURCES = ['environment', 'console'] as const;
export type WhatsappSource = (typeof WHATSAPP_SOURCES)[number];

const digits = (what: string) =>
  z
    .string({ error: `must be the ${what} Meta shows, in digits` })
    .trim()
    .regex(/^\d{5,30}$/, `must be the ${what} Meta shows, in digits`);

/** PUT /settings/whatsapp: the values from Meta's WhatsApp Manager and App dashboard. */
export const connectWhatsappSchema = z.object({
  access_token: z
    .string({ error: 'must be the access token from Meta (a system user token)' })
    .trim()
    .min(20, 'must be the whole access token from Meta (a system user token)')
    .max(1024, 'is too long for an access token')
    .regex(/^[A-Za-z0-9_.|-]+$/, 'must be the access token exactly as Meta shows it, with no spaces'),
  phone_number_id: digits('phone number id'),
  business_account_id: digits('WhatsApp Business Account id'),
  app_secret: z
    .string({ error: "must be the app secret from the Meta app's Basic settings" })
    .trim()
    .regex(/^[0-9a-f]{32}$/i, "must be the app secret from the Meta app's Basic settings (32 letters and digits)"),
});
export type ConnectWhatsapp = z.infer<typeof connectWhatsappSchema>;

/** POST /settings/whatsapp/test: a template to the admin's own phone. */
export const whatsappTestSchema = z.object({
  to: writtenPhoneSchema.describe('the phone to send the test to (your own WhatsApp number)'),
  template: z
    .string()
    .trim()
    .regex(/^[a-z0-9_]{1,512}$/, 'must be the name of an approved template')
    .optional()
    .describe("an approved template's name; hello_world, or the first approved one, when left out"),
});
export type WhatsappTest = z.infer<typeof whatsappTestSchema>;

export const whatsappTemplateSchema = z.object({
  name: z.string(),
  language: z.string(),
  status: z.string().describe('APPROVED, PENDING, REJECTED, PAUSED or DISABLED, as Meta says'),
  category: z.string().nullable(),
});
export type WhatsappTemplate = z.infer<typeof whatsappTemplateSchema>;

/** What Meta says of the number now: asked on each GET. */
export const whatsappLiveSchema = z.object({
  display_phone_number: z.string().nullable(),
  verified_name: z.string().nullable(),
  quality_rating: z.string().nullable().describe('GREEN, YELLOW, RED or UNKNOWN'),
  messaging_limit_tier: z.string().nullable().describe('TIER_250, TIER_1K, TIER_10K, TIER_100K or TIER_UNLIMITED'),
  daily_limit: z.number().int().nullable().describe('new conversations a day the tier allows (null: unlimited)'),
  templates: z.array(whatsappTemplateSchema),
  approved_templates: z.number().int(),
});
export type WhatsappLive = z.infer<typeof whatsappLiveSchema>;

/** GET /settings/whatsapp (and the answer of PUT): no secret, only whether each is set. */
export const whatsappSetupSchema = z
  .object({
    connected: z.boolean(),
    source: z.enum(WHATSAPP_SOURCES).nullable().describe('null: not connected'),
    fixed_by_server: z.boolean().describe("the server's WHATSAPP_* variables are set: change them there"),
    phone_number_id: z.string().nullable(),
    business_account_id: z.string().nullable(),
    access_token_set: z.boolean(),
    app_secret_set: z.boolean(),
    webhook_url: z.string().describe("the address to paste into Meta's webhook settings"),
    verify_token: z
      .string()
      .nullable()
      .describe("the verify token to paste into Meta (null when the server's variables set it: only that it is set)"),
    connected_at: z.string().nullable(),
    last_callback_at: z.string().nullable().describe('when Meta last called the webhook'),
    live: whatsappLiveSchema.nullable().describe('null when not connected or when Meta could not be asked'),
    live_problem: z.string().nullable().describe('why Meta could not be asked just now'),
  })
  .meta({ id: 'WhatsappSetup' });
export type WhatsappSetup = z.infer<typeof whatsappSetupSchema>;

export const whatsappTestResultSchema = z.object({
  to: z.string(),
  template: z.string(),
  language: z.string(),
  provider_message_id: z.string(),
});
export type WhatsappTestResult = z.infer<typeof whatsappTestResultSchema>;

/** New conversations a day for Meta's messaging limit tier; null for unlimited or an unknown tier. */
export function dailyLimitOfTier(tier: string | null | undefined): number | null {
  const match = /^TIER_(\d+)(K?)$/.exec(tier ?? '');
  if (!match) return null;
  return Number(match[1]) * (match[2] === 'K' ? 1000 : 1);
}
