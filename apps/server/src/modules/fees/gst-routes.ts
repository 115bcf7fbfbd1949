import {
  errorSchema,
  familyIdParamsSchema,
  feeFamilyGstDetailsInputSchema,
  feeFamilySchema,
  feeFamilyStateInputSchema,
  gstSettingsInputSchema,
  gstSettingsSchema,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { adminOnly } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { getFeeFamily } from './fee-families';
import { changeFamilyState, getGstSettings, setFamilyGstDetails, updateGstSettings } from './gst';

const tags = ['fees'];

/**
 * `/fees/gst`: the centre's GST registration, read and changed by admins (ADR 057); and a family's
 * state, the place of supply of its tax invoices (ADR 063).
 */
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
          "gstin is checked (format, state code, check character) and required when registered, as is address (the centre's, printed on every tax invoice: Rule 46, ADR 065); rate_basis_points is the rate in hundredths of a percent (18 % is 1800, the default). Fees include GST.",
        body: gstSettingsInputSchema,
        response: { 200: gstSettingsSchema, 422: errorSchema },
      },
    },
    async (request) => ctx.db.transaction((tx) => updateGstSettings(tx, request.body)),
  );

  app.put(
    '/fees/families/:family_id/state',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: "Set a family's state, the place of supply of its tax invoices (null: the centre's own state)",
        description:
          "A family in another state than the centre's is billed IGST instead of CGST and SGST, from its next payment on; receipts already issued never change. Answers the family.",
        params: familyIdParamsSchema,
        body: feeFamilyStateInputSchema,
        response: { 200: feeFamilySchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request) => {
      await ctx.db.transaction((tx) => changeFamilyState(tx, request.params.family_id, request.body.state_code));
      return getFeeFamily(ctx.db, request.params.family_id);
    },
  );

  app.put(
    '/fees/families/:family_id/gst-details',
    {
      config: adminOnly,
      schema: {
        tags,
        summary:
          "Set a family's GST details: its state (the place of supply), and the name, postal address and GSTIN its tax invoices are billed to",
        description:
          "All four at once (ADR 065): state_code as PUT …/state takes it (null: the centre's own; with a GSTIN and no state, the GSTIN's state); billing_name null bills the parent's name; billing_address and billing_gstin null print none. Applies from the family's next payment; receipts already issued never change. Answers the family.",
        params: familyIdParamsSchema,
        body: feeFamilyGstDetailsInputSchema,
        response: { 200: feeFamilySchema, 404: errorSchema, 422: errorSchema },
      },
    },
    async (request) => {
      await ctx.db.transaction((tx) => setFamilyGstDetails(tx, request.params.family_id, request.body));
      return getFeeFamily(ctx.db, request.params.family_id);
    },
  );
}
