import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TwoFactorConfirmed,
  TwoFactorDisabled,
  TwoFactorDisableRequest,
  TwoFactorPolicy,
  TwoFactorSetup,
  TwoFactorStatus,
} from '@tuitiondesk/contract';
import { apiRequest } from '../../lib/api-client';
import { useAuth } from './auth-provider';

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
  const { replaceToken } = useAuth();
  return useMutation({
    mutationFn: (otp: string) =>
      apiRequest<TwoFactorConfirmed>('/auth/two-factor/confirm', {
        method: 'POST',
        json: { otp },
        replacesToken: true,
      }),
    // The server ended every other session of the account: this one goes on with the new token, which
    // must be in place before anything else is asked.
    onSuccess: (answer) => {
      replaceToken(answer.access_token);
      return client.invalidateQueries({ queryKey: keys.status });
    },
  });
}

export function useDisableTwoFactor() {
  const client = useQueryClient();
  const { replaceToken } = useAuth();
  return useMutation({
    mutationFn: (request: TwoFactorDisableRequest) =>
      apiRequest<TwoFactorDisabled>('/auth/two-factor/disable', { method: 'POST', json: request, replacesToken: true }),
    onSuccess: (answer) => {
      replaceToken(answer.access_token);
      return client.invalidateQueries({ queryKey: keys.status });
    },
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
