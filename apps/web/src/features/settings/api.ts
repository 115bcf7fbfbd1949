import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AuditRetention, CentreSettings, TwoFactorPolicy } from '@tuitiondesk/contract';
import { apiRequest } from '../../lib/api-client';
import { twoFactorStatusQuery } from '../../lib/auth/two-factor-status';

const keys = { settings: ['settings'] as const };

export const settingsQuery = () =>
  queryOptions({
    queryKey: keys.settings,
    queryFn: ({ signal }) => apiRequest<CentreSettings>('/settings', { signal }),
  });

export function useCentreSettings() {
  return useQuery(settingsQuery());
}

export function useUpdateCentreSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: CentreSettings) =>
      apiRequest<CentreSettings>('/settings', { method: 'PUT', json: settings }),
    onSuccess: (settings) => client.setQueryData(keys.settings, settings),
  });
}

/** Require two-factor sign-in for every admin, or stop requiring it. The account's status follows. */
export function useUpdateTwoFactorPolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (policy: TwoFactorPolicy) =>
      apiRequest<TwoFactorPolicy>('/settings/two-factor', { method: 'PUT', json: policy }),
    onSuccess: () => client.invalidateQueries({ queryKey: twoFactorStatusQuery().queryKey }),
  });
}

const auditRetentionKey = ['settings', 'audit'] as const;

export function useAuditRetention() {
  return useQuery({
    queryKey: auditRetentionKey,
    queryFn: ({ signal }) => apiRequest<AuditRetention>('/settings/audit', { signal }),
  });
}

export function useUpdateAuditRetention() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (retention: AuditRetention) =>
      apiRequest<AuditRetention>('/settings/audit', { method: 'PUT', json: retention }),
    onSuccess: (retention) => client.setQueryData(auditRetentionKey, retention),
  });
}
