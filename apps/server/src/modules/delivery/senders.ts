import type { AppConfig } from '../../config';
import type { Database } from '../../db/database';
import type { VapidKeyPair } from '../../lib/server-keys';
import type { TokenService } from '../../lib/tokens';
import { PushWorker } from './push-worker';
import { resolveVapidDetails } from './vapid';
import { createWhatsappSender, type WhatsappSender } from './whatsapp';
import { WhatsappWorker } from './whatsapp-worker';

/** Delivery's part of the app's context: the senders, built once at start-up and not started. */
export interface DeliverySenders {
  /** Web Push: the VAPID public key and the outbox worker. */
  push: PushWorker;
  /** The WhatsApp Cloud API adapter; undefined when WhatsApp is not configured. */
  whatsapp: WhatsappSender | undefined;
  /** Sends the queued WhatsApp attempts; undefined without WhatsApp. */
  whatsappWorker: WhatsappWorker | undefined;
}

/**
 * Builds the push worker (signing with the VAPID pair of the environment, else the key file's), and
 * when WhatsApp is configured its sender and worker. None is started here: the server starts them once
 * listening (tests start theirs when they need it).
 */
export function createDelivery(
  config: AppConfig,
  db: Database,
  tokens: TokenService,
  keyFileVapid: VapidKeyPair,
): DeliverySenders {
  const push = new PushWorker({
    db,
    tokens,
    vapid: resolveVapidDetails(config.push, keyFileVapid),
    config: config.push,
  });
  const whatsapp = config.whatsapp ? createWhatsappSender(config.whatsapp) : undefined;
  const whatsappWorker =
    config.whatsapp && whatsapp ? new WhatsappWorker({ db, sender: whatsapp, config: config.whatsapp }) : undefined;
  return { push, whatsapp, whatsappWorker };
}
