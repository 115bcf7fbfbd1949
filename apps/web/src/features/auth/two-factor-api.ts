import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  TwoFactorConfirmed,
  TwoFactorDisabled,
  TwoFactorDisableRequest,
  TwoFactorSetup,
} from '@tuitiondesk/contract';
import { apiRequest } from '../../lib/api-client';
import { useAuth } from '../../lib/auth/auth-provider';
import { twoFactorStatusQuery } from '../../lib/auth/two-factor-status';

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
      return client.invalidateQueries({ queryKey: twoFactorStatusQuery().queryKey });
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
      return client.invalidateQueries({ queryKey: twoFactorStatusQuery().queryKey });
    },
  });
}
