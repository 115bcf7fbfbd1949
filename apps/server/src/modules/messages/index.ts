/** The messages module's public surface: other modules, the app and the start-up code import only this. */
export { familyName } from './inbound-repository';
export { recordParentReply } from './replies';
export { registerMessageRoutes } from './routes';
export { countRecipientFamilies } from './service';
export { registerWhatsappWebhookRoutes } from './webhook-routes';
