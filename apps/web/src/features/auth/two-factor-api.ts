import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TwoFactorConfirmed,
  TwoFactorDisableRequest,
  TwoFactorPolicy,
  TwoFactorSetup,
  TwoFactorStatus,
} from '@tuitiondesk/contract';
import { apiRequest } from '../../lib/api-client';

const keys = { status: ['two-factor'] as const };

export const twoFactorStatusQuery = () =>
  queryOptions({
    queryKey: keys.status,
    queryFn: ({ signal }) => apiRequest<TwoFactorStatus>('/auth/two-factor', { signal }),
  });

export function useTwoFactorStatus(enabled = true) {
  return useQuery({ ...twoFactorStatusQuery(), enabled });
}

/** A new secret and QR code; the status is not on yet, so nothing is cached from it. */
export function useStartTwoFactorSetup() {
  return useMutation({
    mutationFn: () => apiRequest<TwoFactorSetup>('/auth/two-factor/setup', { method: 'POST', json: {} }),
  });
}

/** The answer holds the recovery codes, once: the caller shows them and keeps them nowhere else. */
export function useConfirmTwoFactor() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (otp: string) =>
      apiRequest<TwoFactorConfirmed>('/auth/two-factor/confirm', { method: 'POST', json: { otp } }),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.status }),
  });
}

export function useDisableTwoFactor() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: TwoFactorDisableRequest) =>
      apiRequest<{ message: string }>('/auth/two-factor/disable', { method: 'POST', json: request }),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.status }),
  });
}

/** The centre setting (admins): require two-factor sign-in for every admin. */
export function useUpdateTwoFactorPolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (policy: TwoFactorPolicy) =>
      apiRequest<TwoFactorPolicy>('/settings/two-factor', { method: 'PUT', json: policy }),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.status }),
  });
}
