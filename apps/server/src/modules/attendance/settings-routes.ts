import {
  centreSettingsSchema,
  errorSchema,
  markingRulesSchema,
  updateCentreSettingsSchema,
  updateMarkingRulesSchema,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { adminOnly, currentUser } from '../../plugins/authentication';
import type { ZodApp } from '../../plugins/zod-app';
import { getMarkingRules, getSettings, updateMarkingRules, updateSettings } from './settings';

const tags = ['settings'];

/** `/settings`: the centre's absence-alerts switch (the answer keeps exactly the fields the console has always read). */
export function registerCentreSettingsRoutes(app: ZodApp, ctx: AppContext): void {
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
}

export function registerMarkingRuleRoutes(app: ZodApp, ctx: AppContext): void {
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
}
