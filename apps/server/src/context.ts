import type { AppConfig } from './config';
import type { Database } from './db/database';
import type { TokenService } from './lib/tokens';
import type { MessageDelivery } from './modules/messages/delivery';
import type { WhatsappSender } from './modules/messages/whatsapp';

/** What every module is given: built once at start-up (or per test file), never global. */
export interface AppContext {
  config: AppConfig;
  db: Database;
  tokens: TokenService;
  delivery: MessageDelivery;
  whatsapp: WhatsappSender | undefined;
}
