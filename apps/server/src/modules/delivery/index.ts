/** The delivery module's public surface: other modules, the app and the start-up code import only this. */
export { cancelWaitingFallback, refreshMessageStatuses, setAttemptStatus } from './attempts';
export {
  type FamilyMessage,
  type PlaceholderValues,
  type QueuedSend,
  queueFamilyMessages,
  renderForFamily,
  wakeSenders,
} from './outgoing';
export type { FamilyChannels } from './outgoing-repository';
export { dropPushesOfMessage, enqueuePushes, revokeSubscriptions } from './push-repository';
export { PushWorker } from './push-worker';
export { parseReplyPayload } from './reply-payload';
export { registerPushRoutes } from './routes';
export { readMessagingSettings } from './settings';
export { registerMessagingSettingsRoutes } from './settings-routes';
export { LEGACY_VAPID_SETTING, resolveVapidDetails } from './vapid';
export { createWhatsappSender, WhatsappError, type WhatsappRequest, type WhatsappSender } from './whatsapp';
export {
  admitConversation,
  failQueuedForPhone,
  storeProviderMessageId,
  windowOpenUntil,
} from './whatsapp-repository';
export { applyWhatsappStatus } from './whatsapp-statuses';
export { WhatsappWorker } from './whatsapp-worker';
