import { randomBytes } from 'node:crypto';
import {
  type ConnectWhatsapp,
  dailyLimitOfTier,
  type WhatsappLive,
  type WhatsappSetup,
  type WhatsappTest,
  type WhatsappTestResult,
} from '@tuitiondesk/contract';
import type { WhatsappConfig } from '../../config';
import type { AppContext } from '../../context';
import { type Actor, recordActivity } from '../../lib/activity-log';
import { AppError, ConflictError, ServiceUnavailableError } from '../../lib/errors';
import { readKeyFile, updateWhatsappSecrets, type WhatsappSecrets } from '../../lib/server-keys';
import { readWrittenPhone } from '../settings';
import { WhatsappError } from './whatsapp';
import {
  type GraphCredentials,
  type GraphPhoneNumber,
  type GraphTemplate,
  listPhoneNumbers,
  listTemplates,
} from './whatsapp-graph';
import { applyWhatsapp, liveState, oneAtATime } from './whatsapp-live';
import {
  deleteConsoleWhatsapp,
  lastCallbackInDatabase,
  readConsoleWhatsapp,
  writeConsoleWhatsapp,
} from './whatsapp-setup-repository';
import { testSendFailure } from './whatsapp-test-send';

/** The webhook's path under the public address the admin reached the console on. */
const WEBHOOK_PATH = '/api/v1/whatsapp/webhook';

export function webhookUrlOf(origin: string): string {
  return `${origin.replace(/\/+$/, '')}${WEBHOOK_PATH}`;
}

function credentialsOf(
  ctx: AppContext,
  config: Pick<WhatsappConfig, 'accessToken' | 'appSecret' | 'businessAccountId'>,
) {
  return {
    baseUrl: ctx.config.whatsappApi.baseUrl,
    accessToken: config.accessToken,
    appSecret: config.appSecret,
    businessAccountId: config.businessAccountId,
    timeoutMs: ctx.config.whatsappApi.timeoutMs,
  } satisfies GraphCredentials;
}

/** The number and the templates as Meta has them now; a refusal names the field to fix. */
async function askMeta(
  credentials: GraphCredentials,
  phoneNumberId: string,
): Promise<{ phone: GraphPhoneNumber; templates: GraphTemplate[] }> {
  const numbers = await listPhoneNumbers(credentials);
  const phone = numbers.find((number) => number.id === phoneNumberId);
  if (!phone) {
    throw new AppError(422, {
      code: 'validation.whatsapp_phone_not_in_account',
      params: {
        field: 'phone_number_id',
        numbers: numbers.map((n) => `${n.display_phone_number ?? '?'}: ${n.id}`).join(', ') || '-',
      },
    });
  }
  return { phone, templates: await listTemplates(credentials) };
}

function liveOf(phone: GraphPhoneNumber, templates: GraphTemplate[]): WhatsappLive {
  return {
    display_phone_number: phone.display_phone_number,
    verified_name: phone.verified_name,
    quality_rating: phone.quality_rating,
    messaging_limit_tier: phone.messaging_limit_tier,
    daily_limit: dailyLimitOfTier(phone.messaging_limit_tier),
    templates: templates.map(({ parameters: _parameters, ...template }) => template),
    approved_templates: templates.filter((template) => template.status === 'APPROVED').length,
  };
}

/** The verify token kept for the console (made on the first look, so it can go into Meta first). */
function ensureVerifyToken(ctx: AppContext): Promise<string> {
  const kept = readKeyFile(ctx.config.keyFile)?.whatsapp?.verifyToken;
  if (kept) return Promise.resolve(kept);
  return oneAtATime(ctx, async () => {
    const keys = updateWhatsappSecrets(ctx.config.keyFile, (current) => ({
      ...current,
      verifyToken: current?.verifyToken ?? randomBytes(24).toString('base64url'),
    }));
    return keys.whatsapp?.verifyToken as string;
  });
}

/** Where WhatsApp stands, for the admin's screen: no secret, only whether each is set. */
export async function getWhatsappSetup(
  ctx: AppContext,
  origin: string,
  known?: { live: WhatsappLive },
): Promise<WhatsappSetup> {
  const state = liveState(ctx);
  const config = ctx.config.whatsapp;
  const stored = state.fromEnvironment ? undefined : await readConsoleWhatsapp(ctx.db);
  const verifyToken = state.fromEnvironment ? null : await ensureVerifyToken(ctx);
  let live: WhatsappLive | null = known?.live ?? null;
  let liveProblem: string | null = null;
  if (config && !live) {
    try {
      const { phone, templates } = await askMeta(credentialsOf(ctx, config), config.phoneNumberId);
      live = liveOf(phone, templates);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      liveProblem = error.message;
    }
  }
  const lastCallback = state.lastCallbackAt ?? (config ? await lastCallbackInDatabase(ctx.db) : null);
  return {
    connected: config !== undefined,
    source: config ? (state.fromEnvironment ? 'environment' : 'console') : null,
    fixed_by_server: state.fromEnvironment,
    phone_number_id: config?.phoneNumberId ?? null,
    business_account_id: config?.businessAccountId ?? null,
    access_token_set: Boolean(config?.accessToken),
    app_secret_set: Boolean(config?.appSecret),
    webhook_url: webhookUrlOf(origin),
    verify_token: verifyToken,
    connected_at: state.fromEnvironment ? null : (stored?.connectedAt ?? null),
    last_callback_at: lastCallback ? lastCallback.toISOString() : null,
    live,
    live_problem: liveProblem,
  };
}

function refuseWhenFixed(ctx: AppContext): void {
  if (liveState(ctx).fromEnvironment) throw new ConflictError('whatsapp_setup.fixed_by_server');
}

/**
 * Checks the values against the Cloud API (nothing is kept when Meta refuses or cannot be reached),
 * then keeps the secrets in the key file and the ids in the settings, and puts them in use at once.
 */
export async function connectWhatsapp(
  ctx: AppContext,
  actor: Actor,
  values: ConnectWhatsapp,
  origin: string,
): Promise<WhatsappSetup> {
  refuseWhenFixed(ctx);
  const { phone, templates } = await askMeta(
    credentialsOf(ctx, {
      accessToken: values.access_token,
      appSecret: values.app_secret,
      businessAccountId: values.business_account_id,
    }),
    values.phone_number_id,
  );
  const verifyToken = await ensureVerifyToken(ctx);
  const dailyLimit = dailyLimitOfTier(phone.messaging_limit_tier);
  await oneAtATime(ctx, async () => {
    refuseWhenFixed(ctx);
    await ctx.db.transaction(async (tx) => {
      await readConsoleWhatsapp(tx, 'update');
      await writeConsoleWhatsapp(tx, {
        phoneNumberId: values.phone_number_id,
        businessAccountId: values.business_account_id,
        connectedAt: new Date().toISOString(),
        dailyLimit,
      });
      await recordActivity(tx, actor, 'settings.updated', 'settings.whatsapp_connected', {
        phone_number_id: values.phone_number_id,
      });
      // Last, once nothing else can refuse: the secrets beside the other keys of the server.
      updateWhatsappSecrets(ctx.config.keyFile, (current) => ({
        verifyToken: current?.verifyToken ?? verifyToken,
        accessToken: values.access_token,
        appSecret: values.app_secret,
      }));
    });
    await applyWhatsapp(ctx, {
      baseUrl: ctx.config.whatsappApi.baseUrl,
      accessToken: values.access_token,
      appSecret: values.app_secret,
      verifyToken,
      phoneNumberId: values.phone_number_id,
      businessAccountId: values.business_account_id,
      dailyLimit: dailyLimit ?? ctx.config.whatsappApi.dailyLimit,
      messagesPerSecond: ctx.config.whatsappApi.messagesPerSecond,
    });
  });
  return getWhatsappSetup(ctx, origin, { live: liveOf(phone, templates) });
}

/** Forgets the console's connection (the verify token stays, as pasted into Meta) and stops WhatsApp. */
export async function disconnectWhatsapp(ctx: AppContext, actor: Actor, origin: string): Promise<WhatsappSetup> {
  refuseWhenFixed(ctx);
  await oneAtATime(ctx, async () => {
    await ctx.db.transaction(async (tx) => {
      await readConsoleWhatsapp(tx, 'update');
      const had = await deleteConsoleWhatsapp(tx);
      if (had) await recordActivity(tx, actor, 'settings.updated', 'settings.whatsapp_disconnected', {});
      updateWhatsappSecrets(ctx.config.keyFile, (current): WhatsappSecrets | undefined =>
        current?.verifyToken ? { verifyToken: current.verifyToken } : undefined,
      );
    });
    await applyWhatsapp(ctx, undefined);
  });
  return getWhatsappSetup(ctx, origin);
}

/** Meta's sample template, approved in every new business account. */
const META_SAMPLE = 'hello_world';

/** Sends an approved template to the admin's own phone through the connection in use. */
export async function sendWhatsappTest(
  ctx: AppContext,
  actor: Actor,
  request: WhatsappTest,
): Promise<WhatsappTestResult> {
  const config = ctx.config.whatsapp;
  const sender = ctx.whatsapp;
  if (!config || !sender) throw new ServiceUnavailableError('whatsapp.not_configured');
  const to = await readWrittenPhone(ctx.db, 'to', request.to);
  const approved = (await listTemplates(credentialsOf(ctx, config))).filter((t) => t.status === 'APPROVED');
  const template = request.template
    ? (approved.find((t) => t.name === request.template && t.language.startsWith('en')) ??
      approved.find((t) => t.name === request.template))
    : (approved.find((t) => t.name === META_SAMPLE) ?? approved[0]);
  if (!template) {
    if (request.template) {
      throw new AppError(422, {
        code: 'validation.whatsapp_template_not_approved',
        params: { field: 'template', name: request.template },
      });
    }
    throw new AppError(422, { code: 'whatsapp_setup.no_approved_template', params: {} });
  }
  let providerMessageId: string;
  try {
    ({ providerMessageId } = await sender.send({
      kind: 'template',
      to,
      template: template.name,
      language: template.language,
      parameters: Array.from({ length: template.parameters }, (_, i) => (i === 0 ? 'TuitionDesk' : 'test')),
    }));
  } catch (error) {
    throw testSendFailure(error instanceof WhatsappError ? error : new WhatsappError('unknown', true));
  }
  await ctx.db.transaction((tx) =>
    recordActivity(tx, actor, 'settings.whatsapp_test', 'settings.whatsapp_test', { to, template: template.name }),
  );
  return { to, template: template.name, language: template.language, provider_message_id: providerMessageId };
}
