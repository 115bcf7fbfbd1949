import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PhoneSettings, UpdatePhoneSettingsRequest } from '@tuitiondesk/contract';
import { apiRequest } from './api-client';

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

/** What a phone field says under it: how a number without a country code is read. */
export function phoneFieldHint(countryCode: string | undefined): string {
  return countryCode
    ? `Without a country code, ${countryCode} is added, e.g. 98123 45670`
    : 'A number from another country needs its country code, e.g. +44 7400 123456';
}
