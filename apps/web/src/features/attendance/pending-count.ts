import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AttendanceRecord } from '@tuitiondesk/contract';
import { apiRequest } from '../../lib/api-client';

export const PENDING_REFRESH_MS = 30_000;

/** Every attendance query sits under this key, so one invalidation refreshes them all. */
export const ATTENDANCE_QUERY_ROOT = ['attendance'] as const;
/** Every pending-approval query (all dates, and each single date) sits under this key. */
export const PENDING_QUERY_ROOT = [...ATTENDANCE_QUERY_ROOT, 'pending'] as const;

/** Every pending record, all dates: the sidebar badge and the dashboard count. */
export const allPendingQuery = () =>
  queryOptions({
    queryKey: [...PENDING_QUERY_ROOT, 'all'] as const,
    queryFn: ({ signal }) => apiRequest<AttendanceRecord[]>('/attendance/pending-approval', { signal }),
    refetchInterval: PENDING_REFRESH_MS,
  });

export function usePendingCount(enabled = true): number {
  const { data } = useQuery({ ...allPendingQuery(), enabled });
  return data?.length ?? 0;
}
