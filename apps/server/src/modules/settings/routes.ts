import {
  centreSettingsSchema,
  errorSchema,
  markingRulesSchema,
  messagingSettingsSchema,
  phoneSettingsSchema,
  twoFactorPolicySchema,
  updateCentreSettingsSchema,
  updateMarkingRulesSchema,
  updateMessagingSettingsSchema,
  updatePhoneSettingsSchema,
  updateTwoFactorPolicySchema,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { adminOnly, currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import {
  getMarkingRules,
  getMessagingSettings,
  getPhoneSettings,
  getSettings,
  getTwoFactorPolicy,
  updateMarkingRules,
  updateMessagingSettings,
  updatePhoneSettings,
  updateSettings,
  updateTwoFactorPolicy,
} from './service';

const tags = ['settings'];

export function registerSettingsRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/settings',
    { schema: { tags, summary: "The centre's settings", response: { 200: centreSettingsSchema } } },
    async () => getSettings(ctx),
  );

  app.put(
    '/settings',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: "Change the centre's settings (absence alerts on approval)",
        body: updateCentreSettingsSchema,
        response: { 200: centreSettingsSchema, 422: errorSchema },
      },
    },
    async (request) => updateSettings(ctx, currentUser(request), request.body),
  );

  // Its own resource, so /settings keeps answering exactly the fields the console has always read.
  app.get(
    '/settings/two-factor',
    {
      config: { beforeTwoFactorEnrolment: true },
      schema: {
        tags,
        summary: 'Whether the centre requires two-factor sign-in for every admin',
        response: { 200: twoFactorPolicySchema },
      },
    },
    async () => getTwoFactorPolicy(ctx),
  );

  app.put(
    '/settings/two-factor',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Require two-factor sign-in for every admin (or stop requiring it)',
        description:
          'Turning it on needs two-factor sign-in on your own account first (409). Admins without it then sign in but must set it up before any other call (403).',
        body: updateTwoFactorPolicySchema,
        response: { 200: twoFactorPolicySchema, 409: errorSchema, 422: errorSchema },
      },
    },
    async (request) => updateTwoFactorPolicy(ctx, currentUser(request), request.body),
  );

  app.get(
    '/settings/marking',
    {
      schema: {
        tags,
        summary: 'Which classes and days teachers may mark attendance for',
        response: { 200: markingRulesSchema },
      },
    },
    async () => getMarkingRules(ctx),
  );

  app.put(
    '/settings/marking',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Change which classes and days teachers may mark attendance for',
        description:
          'A teacher marks the classes assigned to them (or every class, with teachers_mark_any_class) from today back teacher_mark_days_back days. Admins are not limited.',
        body: updateMarkingRulesSchema,
        response: { 200: markingRulesSchema, 422: errorSchema },
      },
    },
    async (request) => updateMarkingRules(ctx, currentUser(request), request.body),
  );

  app.get(
    '/settings/messaging',
    {
      schema: {
        tags,
        summary: "The centre's message settings, and whether WhatsApp is on",
        response: { 200: messagingSettingsSchema },
      },
    },
    async () => getMessagingSettings(ctx),
  );

  app.put(
    '/settings/messaging',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Change the centre name, the WhatsApp fallback time, the call-list time and the notice template',
        body: updateMessagingSettingsSchema,
        response: { 200: messagingSettingsSchema, 422: errorSchema },
      },
    },
    async (request) => updateMessagingSettings(ctx, currentUser(request), request.body),
  );

  app.get(
    '/settings/phones',
    {
      schema: {
        tags,
        summary: 'The country code given to phone numbers written without one',
        response: { 200: phoneSettingsSchema },
      },
    },
    async () => getPhoneSettings(ctx),
  );

  app.put(
    '/settings/phones',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: 'Change the country code given to phone numbers written without one',
        description:
          'Applies to phones typed or imported from now on (students, teachers, parent sign-in, WhatsApp): a number without a country code, after a leading 0 is dropped, takes this code. Stored numbers keep theirs (ADR 031).',
        body: updatePhoneSettingsSchema,
        response: { 200: phoneSettingsSchema, 422: errorSchema },
      },
    },
    async (request) => updatePhoneSettings(ctx, currentUser(request), request.body),
  );
}
