import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ApproveAttendanceResult,
  AttendanceRecord,
  ClassName,
  MarkAttendanceRequest,
  Roster,
} from '@tuitiondesk/contract';
import { apiRequest } from '../../lib/api-client';
import { ATTENDANCE_QUERY_ROOT, PENDING_QUERY_ROOT, PENDING_REFRESH_MS } from './pending-count';

export interface MarkAttendanceResult {
  marked_count: number;
  message: string;
}

const keys = {
  roster: (className: ClassName, date: string) => [...ATTENDANCE_QUERY_ROOT, 'roster', className, date] as const,
  pendingOn: (date: string) => [...PENDING_QUERY_ROOT, 'date', date] as const,
  history: (start: string, end: string) => [...ATTENDANCE_QUERY_ROOT, 'history', start, end] as const,
};

export const rosterQuery = (className: ClassName, date: string) =>
  queryOptions({
    queryKey: keys.roster(className, date),
    queryFn: ({ signal }) =>
      apiRequest<Roster>('/attendance/roster', { query: { class_name: className, date }, signal }),
  });

/** One date's pending records, refreshed every 30 s like the sidebar's count. */
export const pendingOnDateQuery = (date: string) =>
  queryOptions({
    queryKey: keys.pendingOn(date),
    queryFn: ({ signal }) =>
      apiRequest<AttendanceRecord[]>('/attendance/pending-approval', { query: { attendance_date: date }, signal }),
    refetchInterval: PENDING_REFRESH_MS,
  });

export const historyQuery = (start: string, end: string) =>
  queryOptions({
    queryKey: keys.history(start, end),
    queryFn: ({ signal }) =>
      apiRequest<AttendanceRecord[]>('/attendance/history', { query: { start_date: start, end_date: end }, signal }),
  });

export function useRoster(className: ClassName | undefined, date: string) {
  return useQuery({ ...rosterQuery(className ?? '7', date), enabled: className !== undefined });
}

export function usePendingOnDate(date: string) {
  return useQuery(pendingOnDateQuery(date));
}

export function useAttendanceHistory(start: string, end: string, enabled: boolean) {
  return useQuery({ ...historyQuery(start, end), enabled });
}

/** Marks, pending records, the sidebar's count and history all change with a mark or an approval. */
function useRefreshAttendance() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: ATTENDANCE_QUERY_ROOT });
}

export function useMarkAttendance() {
  const refresh = useRefreshAttendance();
  return useMutation({
    mutationFn: (request: MarkAttendanceRequest) =>
      apiRequest<MarkAttendanceResult>('/attendance/mark', { method: 'POST', json: request }),
    onSuccess: refresh,
  });
}

export function useApproveAttendance() {
  const refresh = useRefreshAttendance();
  return useMutation({
    mutationFn: (attendanceIds: number[]) =>
      apiRequest<ApproveAttendanceResult>('/attendance/approve', {
        method: 'POST',
        json: { attendance_ids: attendanceIds },
      }),
    onSuccess: refresh,
  });
}
