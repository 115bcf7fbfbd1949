import { errorSchema, gstSettingsInputSchema, gstSettingsSchema } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { adminOnly } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { getGstSettings, updateGstSettings } from './gst';

const tags = ['fees'];

/** `/fees/gst`: the centre's GST registration, read and changed by admins (ADR 057). */
export function registerGstRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/fees/gst',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: "The centre's GST settings: registered or not, GSTIN, its state, SAC 999293 and the rate",
        response: { 200: gstSettingsSchema },
      },
    },
    async () => getGstSettings(ctx.db),
  );

  app.put(
    '/fees/gst',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Change the GST settings; payments from now on follow them, receipts already issued never change',
        description:
          'gstin is checked (format, state code, check character) and required when registered; rate_basis_points is the rate in hundredths of a percent (18 % is 1800, the default). Fees include GST.',
        body: gstSettingsInputSchema,
        response: { 200: gstSettingsSchema, 422: errorSchema },
      },
    },
    async (request) => ctx.db.transaction((tx) => updateGstSettings(tx, request.body)),
  );
}
