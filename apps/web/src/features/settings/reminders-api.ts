import { useQuery } from '@tanstack/react-query';
import type { MarkingReminderSettings, UpdateMarkingReminderSettings } from '@tuitiondesk/contract';
import { settingQuery, useSettingUpdate } from '../../lib/settings-query';

const key = ['settings', 'reminders'] as const;

export const reminderSettingsQuery = () => settingQuery<MarkingReminderSettings>('/settings/reminders', key);

export function useReminderSettings() {
  return useQuery(reminderSettingsQuery());
}

/** Either field, or both; the answer is the settings as saved. */
export function useUpdateReminderSettings() {
  return useSettingUpdate<MarkingReminderSettings, UpdateMarkingReminderSettings>('/settings/reminders', key);
}
