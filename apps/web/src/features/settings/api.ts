import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AuditRetention, CentreSettings, TwoFactorPolicy } from '@tuitiondesk/contract';
import { apiRequest } from '../../lib/api-client';
import { twoFactorStatusQuery } from '../../lib/auth/two-factor-status';
import { settingQuery, useSettingUpdate } from '../../lib/settings-query';

const keys = { settings: ['settings'] as const };

export const settingsQuery = () => settingQuery<CentreSettings>('/settings', keys.settings);

export function useCentreSettings() {
  return useQuery(settingsQuery());
}

export function useUpdateCentreSettings() {
  return useSettingUpdate<CentreSettings>('/settings', keys.settings);
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
  return useQuery(settingQuery<AuditRetention>('/settings/audit', auditRetentionKey));
}

export function useUpdateAuditRetention() {
  return useSettingUpdate<AuditRetention>('/settings/audit', auditRetentionKey);
}
