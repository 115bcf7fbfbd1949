/**
 * The delivery module's public surface: other modules, the app and the start-up code import only this.
 * (Biome keeps the exports in file order; by job they are:)
 *
 * - Sending to families: `queueFamilyMessages` (one message per family, on the channel that reaches it;
 *   `renderForFamily` fills a template for a family; `familyChannel`, `countByChannel` and `whatsappIsOn`
 *   say beforehand which channel reaches a family), `notifyFamilyDevices` (a notice to a family's
 *   devices), `sendWhatsappNow` (one WhatsApp message, sent now); after the commit, `wakeSenders`.
 *   `signOutFamilyDevices` (a replaced access code; the devices get one last notice).
 * - What became of a message: `messageReached` (a push receipt, opened or answered), `applyWhatsappStatus`
 *   (a status callback), `failQueuedForPhone` (the phone opted out), `parseReplyPayload` (a reply button),
 *   `parseFeeReplyPayload` (a fee reminder's reply button).
 * - The message settings: `readMessagingSettings`.
 * - For the composition: `createDelivery` (the senders, built at start-up), `registerPushRoutes`,
 *   `registerMessagingSettingsRoutes`; WhatsApp connected from the console (ADR 045):
 *   `loadConsoleWhatsapp` (at start-up), `startWhatsapp` (the server starts its worker),
 *   `registerWhatsappSetupRoutes`.
 */

export { FEE_REMINDER_PAID_REASON, feeReminderPaidSql } from './fee-reminder-paid';
export { feeButtonPayloads, feeReplyPayload, parseFeeReplyPayload } from './fee-reply-payload';
export {
  countByChannel,
  type FamilyMessage,
  familyChannel,
  type PlaceholderValues,
  type QueuedSend,
  queueFamilyMessages,
  type ReachChannel,
  renderForFamily,
  wakeSenders,
  whatsappIsOn,
} from './outgoing';
export type { FamilyChannels } from './outgoing-repository';
export { notifyFamilyDevices, signOutFamilyDevices } from './push-service';
export { messageReached } from './reached';
export { parseReplyPayload } from './reply-payload';
export { registerPushRoutes } from './routes';
export { createDelivery } from './senders';
export { readMessagingSettings } from './settings';
export { registerMessagingSettingsRoutes } from './settings-routes';
export type { WhatsappRequest } from './whatsapp';
export { loadConsoleWhatsapp, startWhatsapp } from './whatsapp-live';
export { sendWhatsappNow } from './whatsapp-now';
export { failQueuedForPhone } from './whatsapp-repository';
export { registerWhatsappSetupRoutes } from './whatsapp-setup-routes';
export { applyWhatsappStatus } from './whatsapp-statuses';
