import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ApproveAttendanceResult,
  AttendanceHistoryPage,
  AttendanceRecord,
  AttendanceStatus,
  ClassName,
  MarkAttendanceRequest,
  MarkingRules,
  MarkingScope,
  NotMarked,
  PendingDay,
  Roster,
} from '@tuitiondesk/contract';
import { apiRequest } from '../../lib/api-client';
import { apiGet, useRefreshingMutation } from '../../lib/api-query';
import { ATTENDANCE_QUERY_ROOT, PENDING_QUERY_ROOT, PENDING_REFRESH_MS } from './pending-count';

export interface MarkAttendanceResult {
  marked_count: number;
  message: string;
}

const keys = {
  roster: (className: ClassName, date: string) => [...ATTENDANCE_QUERY_ROOT, 'roster', className, date] as const,
  pendingOn: (date: string) => [...PENDING_QUERY_ROOT, 'date', date] as const,
  /** Under the pending root: whatever refreshes the pending count refreshes the days with it. */
  pendingDays: [...PENDING_QUERY_ROOT, 'days'] as const,
  history: (start: string, end: string) => [...ATTENDANCE_QUERY_ROOT, 'history', start, end] as const,
  historyPage: (params: HistoryPageParams) => [...ATTENDANCE_QUERY_ROOT, 'history-page', params] as const,
  /** Under the attendance root: a change of the rules refreshes it with every roster's can_mark. */
  scope: [...ATTENDANCE_QUERY_ROOT, 'marking-scope'] as const,
  rules: [...ATTENDANCE_QUERY_ROOT, 'marking-rules'] as const,
  notMarked: (date: string) => [...ATTENDANCE_QUERY_ROOT, 'not-marked', date] as const,
};

/** One page of the history: a range, its filters ('' or absent means all), and the rows wanted. */
export interface HistoryPageParams {
  start: string;
  end: string;
  className?: ClassName | '';
  status?: AttendanceStatus | '';
  /** The server trims it and matches it case-insensitively in student names and IDs. */
  search?: string;
  limit: number;
  offset: number;
}

export const rosterQuery = (className: ClassName, date: string) =>
  queryOptions({
    queryKey: keys.roster(className, date),
    queryFn: apiGet<Roster>('/attendance/roster', { class_name: className, date }),
  });

/** One date's pending records, refreshed every 30 s like the sidebar's count. */
export const pendingOnDateQuery = (date: string) =>
  queryOptions({
    queryKey: keys.pendingOn(date),
    queryFn: apiGet<AttendanceRecord[]>('/attendance/pending-approval', { attendance_date: date }),
    refetchInterval: PENDING_REFRESH_MS,
  });

/** The classes with students not marked on a date, and how many, refreshed like the pending records. */
export const notMarkedQuery = (date: string) =>
  queryOptions({
    queryKey: keys.notMarked(date),
    queryFn: apiGet<NotMarked>('/attendance/not-marked', { date }),
    refetchInterval: PENDING_REFRESH_MS,
  });

export function useNotMarked(date: string) {
  return useQuery(notMarkedQuery(date));
}

/** Every day with records awaiting approval and how many, newest first, refreshed like the sidebar's count. */
export const pendingDaysQuery = () =>
  queryOptions({
    queryKey: keys.pendingDays,
    queryFn: apiGet<PendingDay[]>('/attendance/pending-days'),
    refetchInterval: PENDING_REFRESH_MS,
  });

/**
 * The whole range, every record: only the export asks for it (a month at a large centre is
 * 150,000 records), so it is not kept in the cache once fetched.
 */
export const historyQuery = (start: string, end: string) =>
  queryOptions({
    queryKey: keys.history(start, end),
    queryFn: apiGet<AttendanceRecord[]>('/attendance/history', { start_date: start, end_date: end }),
    gcTime: 0,
  });

/** One page of the range, filtered, with the filtered range's total and counts per status. */
export const historyPageQuery = (params: HistoryPageParams) =>
  queryOptions({
    queryKey: keys.historyPage(params),
    queryFn: apiGet<AttendanceHistoryPage>('/attendance/history/page', {
      start_date: params.start,
      end_date: params.end,
      class_name: params.className,
      status: params.status,
      search: params.search,
      limit: params.limit,
      offset: params.offset,
    }),
  });

/** The classes and days the signed-in person may mark (a teacher's own classes, the centre's window). */
export const markingScopeQuery = () =>
  queryOptions({
    queryKey: keys.scope,
    queryFn: apiGet<MarkingScope>('/attendance/marking-scope'),
  });

export const markingRulesQuery = () =>
  queryOptions({
    queryKey: keys.rules,
    queryFn: apiGet<MarkingRules>('/settings/marking'),
  });

export function useMarkingScope() {
  return useQuery(markingScopeQuery());
}

export function useMarkingRules(enabled = true) {
  return useQuery({ ...markingRulesQuery(), enabled });
}

export function useRoster(className: ClassName | undefined, date: string) {
  return useQuery({ ...rosterQuery(className ?? '7', date), enabled: className !== undefined });
}

export function usePendingOnDate(date: string) {
  return useQuery(pendingOnDateQuery(date));
}

export function usePendingDays() {
  return useQuery(pendingDaysQuery());
}

/** The page shown stays on screen while the next one loads: paging and filtering never flash the table empty. */
export function useAttendanceHistoryPage(params: HistoryPageParams, enabled: boolean) {
  return useQuery({ ...historyPageQuery(params), enabled, placeholderData: keepPreviousData });
}

// Marks, pending records, the sidebar's count and history all change with a mark or an approval.

export function useMarkAttendance() {
  return useRefreshingMutation(ATTENDANCE_QUERY_ROOT, (request: MarkAttendanceRequest) =>
    apiRequest<MarkAttendanceResult>('/attendance/mark', { method: 'POST', json: request }),
  );
}

export function useApproveAttendance() {
  return useRefreshingMutation(ATTENDANCE_QUERY_ROOT, (attendanceIds: number[]) =>
    apiRequest<ApproveAttendanceResult>('/attendance/approve', {
      method: 'POST',
      json: { attendance_ids: attendanceIds },
    }),
  );
}

/** New rules change what every teacher may mark: the scope and the rosters' can_mark are fetched again. */
export function useUpdateMarkingRules() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (rules: MarkingRules) => apiRequest<MarkingRules>('/settings/marking', { method: 'PUT', json: rules }),
    onSuccess: (rules) => {
      client.setQueryData(keys.rules, rules);
      return client.invalidateQueries({ queryKey: ATTENDANCE_QUERY_ROOT });
    },
  });
}
