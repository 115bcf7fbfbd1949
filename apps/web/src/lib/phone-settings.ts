import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PhoneSettings, UpdatePhoneSettingsRequest } from '@tuitiondesk/contract';
import { addEnglish, useTranslation } from '../i18n';
import enLists from '../i18n/locales/en/lists.json';
import { apiRequest } from './api-client';

addEnglish('lists', enLists);

/**
 * The centre's default country code, which the server gives phones written without one. Shared: the
 * students' and teachers' phone fields say it, the import page explains it, and the setting changes it.
 */
const key = ['settings', 'phones'] as const;

export const phoneSettingsQuery = () =>
  queryOptions({
    queryKey: key,
    queryFn: ({ signal }) => apiRequest<PhoneSettings>('/settings/phones', { signal }),
    staleTime: 5 * 60_000,
  });

/** The code, once known (undefined while loading or when it could not be read). */
export function useDefaultCountryCode(): string | undefined {
  return useQuery(phoneSettingsQuery()).data?.default_country_code;
}

export function usePhoneSettings() {
  return useQuery(phoneSettingsQuery());
}

export function useUpdatePhoneSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (update: UpdatePhoneSettingsRequest) =>
      apiRequest<PhoneSettings>('/settings/phones', { method: 'PUT', json: update }),
    onSuccess: (settings) => client.setQueryData(key, settings),
  });
}

/** What a phone field says under it, in the language in use: how a number without a country code is read. */
export function usePhoneFieldHint(): string {
  const { t } = useTranslation('lists');
  const countryCode = useDefaultCountryCode();
  return countryCode ? t('phoneHint.withCode', { code: countryCode }) : t('phoneHint.withoutCode');
}
