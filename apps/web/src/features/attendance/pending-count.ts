import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AttendanceRecord } from '@tuitiondesk/contract';
import { apiRequest } from '../../lib/api-client';

export const PENDING_REFRESH_MS = 30_000;

/** Every pending record, all dates: the sidebar badge and the dashboard count. */
export const allPendingQuery = () =>
  queryOptions({
    queryKey: ['attendance', 'pending', 'all'] as const,
    queryFn: ({ signal }) => apiRequest<AttendanceRecord[]>('/attendance/pending-approval', { signal }),
    refetchInterval: PENDING_REFRESH_MS,
  });

export function usePendingCount(enabled = true): number {
  const { data } = useQuery({ ...allPendingQuery(), enabled });
  return data?.length ?? 0;
}
