import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LeaveCount, LeaveList, LeaveRequest, LeaveStatus } from '@tuitiondesk/contract';
import { apiRequest } from '../../lib/api-client';
import { apiGet, useRefreshingMutation } from '../../lib/api-query';

export const LEAVE_REFRESH_MS = 30_000;
/** The most requests the screen lists at once; the answer's total says when there are more. */
export const LEAVE_PAGE_SIZE = 200;

/** Every leave query (the lists and the badge's count) sits under this key. */
export const LEAVE_QUERY_ROOT = ['leave'] as const;

export const leaveListQuery = (status: LeaveStatus | undefined) =>
  queryOptions({
    queryKey: [...LEAVE_QUERY_ROOT, 'list', status ?? 'all'] as const,
    queryFn: apiGet<LeaveList>('/leave-requests', { status, limit: LEAVE_PAGE_SIZE }),
    refetchInterval: LEAVE_REFRESH_MS,
  });

export function useLeaveList(status: LeaveStatus | undefined) {
  return useQuery(leaveListQuery(status));
}

export const leaveCountQuery = () =>
  queryOptions({
    queryKey: [...LEAVE_QUERY_ROOT, 'count'] as const,
    queryFn: apiGet<LeaveCount>('/leave-requests/count'),
    refetchInterval: LEAVE_REFRESH_MS,
  });

/** Requests waiting for an admin, of those the signed-in person may see: the menu badge. */
export function useWaitingLeaveCount(enabled = true): number {
  const { data } = useQuery({ ...leaveCountQuery(), enabled });
  return data?.pending ?? 0;
}

export type LeaveDecision = 'approve' | 'decline';

export function useDecideLeave() {
  return useRefreshingMutation(LEAVE_QUERY_ROOT, ({ id, decision }: { id: number; decision: LeaveDecision }) =>
    apiRequest<LeaveRequest>(`/leave-requests/${id}/${decision}`, { method: 'POST' }),
  );
}
