import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TwoFactorStatus } from '@tuitiondesk/contract';
import { apiRequest } from '../api-client';

/**
 * The signed-in account's two-factor sign-in, with the centre's rule for admins as it applies to it.
 * Shared by the account's own dialog and the centre setting that changes the rule: a change to either
 * refreshes it.
 */
export const twoFactorStatusQuery = () =>
  queryOptions({
    queryKey: ['two-factor'] as const,
    queryFn: ({ signal }) => apiRequest<TwoFactorStatus>('/auth/two-factor', { signal }),
  });

export function useTwoFactorStatus(enabled = true) {
  return useQuery({ ...twoFactorStatusQuery(), enabled });
}
