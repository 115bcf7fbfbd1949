import {
  centreSettingsSchema,
  markingRulesSchema,
  updateCentreSettingsSchema,
  updateMarkingRulesSchema,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { registerSettingResource } from '../../plugins/setting-routes';
import type { ZodApp } from '../../plugins/zod-app';
import { getMarkingRules, getSettings, updateMarkingRules, updateSettings } from './settings';

/** `/settings`: the centre's absence-alerts switch (the answer keeps exactly the fields the console has always read). */
export function registerCentreSettingsRoutes(app: ZodApp, ctx: AppContext): void {
  registerSettingResource(app, {
    path: '/settings',
    answer: centreSettingsSchema,
    body: updateCentreSettingsSchema,
    read: { summary: "The centre's settings", run: () => getSettings(ctx) },
    change: {
      summary: "Change the centre's settings (absence alerts on approval)",
      run: (user, body) => updateSettings(ctx, user, body),
    },
  });
}

export function registerMarkingRuleRoutes(app: ZodApp, ctx: AppContext): void {
  registerSettingResource(app, {
    path: '/settings/marking',
    answer: markingRulesSchema,
    body: updateMarkingRulesSchema,
    read: {
      summary: 'Which classes and days teachers may mark attendance for',
      run: () => getMarkingRules(ctx),
    },
    change: {
      summary: 'Change which classes and days teachers may mark attendance for',
      description:
        'A teacher marks the classes assigned to them (or every class, with teachers_mark_any_class) from today back teacher_mark_days_back days. Admins are not limited.',
      run: (user, body) => updateMarkingRules(ctx, user, body),
    },
  });
}
