import { useQuery } from '@tanstack/react-query';
import type { GstSettings, GstSettingsInput } from '@tuitiondesk/contract';
import { settingQuery, useSettingUpdate } from './settings-query';

const key = ['settings', 'gst'] as const;

/** The centre's GST registration (ADR 057): read on the Centre settings page and a family's statement, by admins. */
export function useGstSettings() {
  return useQuery(settingQuery<GstSettings>('/fees/gst', key));
}

export function useUpdateGstSettings() {
  return useSettingUpdate<GstSettings, GstSettingsInput>('/fees/gst', key);
}
