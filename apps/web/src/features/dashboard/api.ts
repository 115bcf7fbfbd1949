import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DashboardSummary, MyClasses } from '@tuitiondesk/contract';
import { useEffect } from 'react';
import { apiRequest } from '../../lib/api-client';

/** The dashboard's figures reload every 30 seconds while it is open. */
export const DASHBOARD_REFRESH_MS = 30_000;

const keys = {
  all: ['dashboard'] as const,
  summary: () => [...keys.all, 'summary'] as const,
  myClasses: () => [...keys.all, 'my-classes'] as const,
};

export const dashboardSummaryQuery = () =>
  queryOptions({
    queryKey: keys.summary(),
    queryFn: ({ signal }) => apiRequest<DashboardSummary>('/dashboard/summary', { signal }),
    refetchInterval: DASHBOARD_REFRESH_MS,
  });

/** A failed dashboard fetch is only logged: the cards keep what they last showed. */
export function useDashboardSummary() {
  const query = useQuery(dashboardSummaryQuery());
  useEffect(() => {
    if (query.error) console.error('Failed to load the dashboard', query.error);
  }, [query.error]);
  return query;
}

export const myClassesQuery = () =>
  queryOptions({
    queryKey: keys.myClasses(),
    queryFn: ({ signal }) => apiRequest<MyClasses>('/dashboard/my-classes', { signal }),
    refetchInterval: DASHBOARD_REFRESH_MS,
  });

/** A teacher's classes today and today's reminders; asked only when `enabled` (a teacher's dashboard). */
export function useMyClasses(enabled: boolean) {
  const query = useQuery({ ...myClassesQuery(), enabled });
  useEffect(() => {
    if (query.error) console.error("Failed to load the teacher's classes", query.error);
  }, [query.error]);
  return query;
}
