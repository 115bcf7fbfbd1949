import type { AppContext } from '../../src/context';
import { WhatsappWorker } from '../../src/modules/delivery/whatsapp-worker';
import { APPROVED_TEMPLATES, type FakeCloudApi, type FakeCloudApiOptions, startFakeCloudApi } from './fake-cloud-api';
import { WHATSAPP_TEST } from './whatsapp';

/** The fake Cloud API with the test credentials and the templates docs/whatsapp.md has a centre submit. */
export function startTestCloudApi(
  options: Partial<Pick<FakeCloudApiOptions, 'templates' | 'autoStatuses'>> = {},
): Promise<FakeCloudApi> {
  return startFakeCloudApi({
    accessToken: WHATSAPP_TEST.accessToken,
    phoneNumberId: WHATSAPP_TEST.phoneNumberId,
    appSecret: WHATSAPP_TEST.appSecret,
    templates: options.templates ?? APPROVED_TEMPLATES,
    autoStatuses: options.autoStatuses,
  });
}

/** A test app's `prepare`: the real WhatsApp worker, polling and retrying in milliseconds. */
export function withQuickWhatsappWorker(ctx: AppContext): AppContext {
  return {
    ...ctx,
    whatsappWorker: new WhatsappWorker({
      db: ctx.db,
      sender: ctx.whatsapp as NonNullable<typeof ctx.whatsapp>,
      config: ctx.config.whatsapp as NonNullable<typeof ctx.config.whatsapp>,
      options: { pollMs: 30, retryBaseMs: 20, retryMaxMs: 40, maxTries: 3 },
    }),
  };
}
