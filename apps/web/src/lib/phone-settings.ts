import { useQuery } from '@tanstack/react-query';
import type { PhoneSettings, UpdatePhoneSettingsRequest } from '@tuitiondesk/contract';
import { useTranslation } from '../i18n';
import { settingQuery, useSettingUpdate } from './settings-query';

/**
 * The centre's default country code, which the server gives phones written without one. Shared: the
 * students' and teachers' phone fields say it, the import page explains it, and the setting changes it.
 */
const key = ['settings', 'phones'] as const;

export const phoneSettingsQuery = () => settingQuery<PhoneSettings>('/settings/phones', key, 5 * 60_000);

/** The code, once known (undefined while loading or when it could not be read). */
export function useDefaultCountryCode(): string | undefined {
  return useQuery(phoneSettingsQuery()).data?.default_country_code;
}

export function usePhoneSettings() {
  return useQuery(phoneSettingsQuery());
}

export function useUpdatePhoneSettings() {
  return useSettingUpdate<PhoneSettings, UpdatePhoneSettingsRequest>('/settings/phones', key);
}

/** What a phone field says under it, in the language in use: how a number without a country code is read. */
export function usePhoneFieldHint(): string {
  const { t } = useTranslation('lists');
  const countryCode = useDefaultCountryCode();
  return countryCode ? t('phoneHint.withCode', { code: countryCode }) : t('phoneHint.withoutCode');
}
