import type { WhatsappConfig } from '../../config';
import type { AppContext } from '../../context';
import type { ServerKeys } from '../../lib/server-keys';
import { createWhatsappSender } from './whatsapp';
import { readConsoleWhatsapp } from './whatsapp-setup-repository';
import { type WhatsappLogger, WhatsappWorker } from './whatsapp-worker';

/**
 * WhatsApp without a restart (ADR 045). The sender, the worker and `ctx.config.whatsapp` are rebuilt
 * when an admin connects or disconnects from the console: every user of WhatsApp reads them from the
 * context at the moment it sends, so the next send uses the new connection. The WHATSAPP_* variables,
 * when set at start-up, win: the console cannot change them.
 */
interface LiveState {
  /** WhatsApp came from the WHATSAPP_* variables at start-up. */
  fromEnvironment: boolean;
  /** Set once the server started its senders: a rebuilt worker is started with it. */
  logger?: WhatsappLogger;
  /** When Meta last called the webhook (a signed callback this instance accepted). */
  lastCallbackAt?: Date;
  /** Connects and disconnects of this instance, one after the other. */
  queue: Promise<unknown>;
}

const states = new WeakMap<AppContext, LiveState>();

/** This context's WhatsApp state; the first look (at start-up) notes whether the environment set it. */
export function liveState(ctx: AppContext): LiveState {
  let state = states.get(ctx);
  if (!state) {
    state = { fromEnvironment: ctx.config.whatsapp !== undefined, queue: Promise.resolve() };
    states.set(ctx, state);
  }
  return state;
}

/** Runs `work` after every connect or disconnect queued before it on this instance. */
export function oneAtATime<T>(ctx: AppContext, work: () => Promise<T>): Promise<T> {
  const state = liveState(ctx);
  const run = state.queue.then(work, work);
  state.queue = run.catch(() => undefined);
  return run;
}

/** Puts `config` (or none) in use: a new sender and worker, the old worker stopped after its round. */
export async function applyWhatsapp(ctx: AppContext, config: WhatsappConfig | undefined): Promise<void> {
  const state = liveState(ctx);
  const old = ctx.whatsappWorker;
  ctx.config.whatsapp = config;
  ctx.whatsapp = config ? createWhatsappSender(config) : undefined;
  ctx.whatsappWorker = config
    ? new WhatsappWorker({ db: ctx.db, sender: ctx.whatsapp as NonNullable<AppContext['whatsapp']>, config })
    : undefined;
  await old?.stop(5000);
  if (state.logger) ctx.whatsappWorker?.start(state.logger);
}

/**
 * At start-up, after the context is built: without WHATSAPP_* variables, the connection an admin made
 * from the console (ids in the settings, secrets in the key file) is put in use.
 */
export async function loadConsoleWhatsapp(ctx: AppContext, keys: ServerKeys): Promise<void> {
  if (liveState(ctx).fromEnvironment) return;
  const config = await consoleConfig(ctx, keys);
  if (config) await applyWhatsapp(ctx, config);
}

/** The console's connection as a WhatsappConfig, when every part of it is there. */
export async function consoleConfig(ctx: AppContext, keys: ServerKeys): Promise<WhatsappConfig | undefined> {
  const stored = await readConsoleWhatsapp(ctx.db);
  const secrets = keys.whatsapp;
  if (!stored || !secrets?.accessToken || !secrets.appSecret || !secrets.verifyToken) return undefined;
  return {
    baseUrl: ctx.config.whatsappApi.baseUrl,
    accessToken: secrets.accessToken,
    appSecret: secrets.appSecret,
    verifyToken: secrets.verifyToken,
    phoneNumberId: stored.phoneNumberId,
    businessAccountId: stored.businessAccountId,
    dailyLimit: stored.dailyLimit ?? ctx.config.whatsappApi.dailyLimit,
    messagesPerSecond: ctx.config.whatsappApi.messagesPerSecond,
  };
}

/** The server starts the WhatsApp worker (now, and each one a connect builds later). */
export function startWhatsapp(ctx: AppContext, logger: WhatsappLogger): void {
  liveState(ctx).logger = logger;
  ctx.whatsappWorker?.start(logger);
}

/** The webhook accepted a signed callback. */
export function noteWhatsappCallback(ctx: AppContext, at = new Date()): void {
  liveState(ctx).lastCallbackAt = at;
}
