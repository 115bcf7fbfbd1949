import webpush from 'web-push';
import type { PushConfig } from '../../config';
import type { Queryable } from '../../db/database';
import { ensureSetting } from '../auth/repository';

/** The application server's identity towards push services (RFC 8292). */
export interface VapidDetails {
  subject: string;
  publicKey: string;
  privateKey: string;
}

const SETTING_KEY = 'vapid_keys';

/**
 * The VAPID key pair: from the environment when set, else generated once and kept in `settings`, so
 * restarts and every instance on the database sign with the same key (subscriptions are bound to it:
 * a new key would silently orphan every device). Both halves are one setting, so two instances
 * starting at once cannot end up with halves of different pairs.
 */
export async function resolveVapidDetails(config: PushConfig, db: Queryable): Promise<VapidDetails> {
  if (config.vapidKeys) return { subject: config.vapidSubject, ...config.vapidKeys };
  const candidate = webpush.generateVAPIDKeys();
  const stored = await ensureSetting(
    db,
    SETTING_KEY,
    JSON.stringify({ publicKey: candidate.publicKey, privateKey: candidate.privateKey }),
  );
  const keys = JSON.parse(stored) as { publicKey: string; privateKey: string };
  return { subject: config.vapidSubject, publicKey: keys.publicKey, privateKey: keys.privateKey };
}
