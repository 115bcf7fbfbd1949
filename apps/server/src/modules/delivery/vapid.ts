import type { PushConfig } from '../../config';
import type { VapidKeyPair } from '../../lib/server-keys';

/** The application server's identity towards push services (RFC 8292). */
export interface VapidDetails {
  subject: string;
  publicKey: string;
  privateKey: string;
}

/**
 * The VAPID key pair: from the environment when set, else the key file's, so restarts and every
 * instance sharing the key file sign with the same key (subscriptions are bound to it: a new key
 * would silently orphan every device). Never from the database: with the private key, a stolen
 * backup's subscriptions could be pushed to.
 */
export function resolveVapidDetails(config: PushConfig, keyFilePair: VapidKeyPair): VapidDetails {
  const pair = config.vapidKeys ?? keyFilePair;
  return { subject: config.vapidSubject, publicKey: pair.publicKey, privateKey: pair.privateKey };
}
