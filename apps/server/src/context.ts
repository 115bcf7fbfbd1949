import type { AppConfig } from './config';
import type { Database } from './db/database';
import type { TokenService } from './lib/tokens';
import type { AnswerCache } from './lib/versioned-answer';
import type { PushWorker } from './modules/delivery/push-worker';
import type { WhatsappSender } from './modules/delivery/whatsapp';
import type { WhatsappWorker } from './modules/delivery/whatsapp-worker';

/** What every module is given: built once at start-up (or per test file), never global. */
export interface AppContext {
  config: AppConfig;
  db: Database;
  tokens: TokenService;
  /** The WhatsApp Cloud API adapter; undefined when WhatsApp is not configured. */
  whatsapp: WhatsappSender | undefined;
  /** Sends the queued WhatsApp attempts (started by server.ts, or by a test); undefined without WhatsApp. */
  whatsappWorker?: WhatsappWorker;
  /** Web Push: the VAPID public key and the outbox worker (started by server.ts, or by a test). */
  push: PushWorker;
  /**
   * The marking reminders' loop (modules/reminders/loop.ts), when this process runs one (server.ts):
   * a changed setting wakes it.
   */
  reminders?: { wake(): void };
  /** The key file's sealing key: two-factor secrets and recovery-code hashes (modules/two-factor/secrets.ts, ADR 017). */
  twoFactorKey: Buffer;
  /** Built list answers by the data versions they were built under (lib/versioned-answer.ts, ADR 024). */
  answers: AnswerCache;
}
