import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RecentActivities } from '@tuitiondesk/contract';
import { apiRequest } from '../../lib/api-client';
import { apiGet } from '../../lib/api-query';

export const ACTIVITY_REFRESH_MS = 30_000;
export const RECENT_LIMIT = 10;
export const UNREAD_LIMIT = 100;

const keys = {
  all: ['activities'] as const,
  recent: () => [...keys.all, 'recent'] as const,
  unread: () => [...keys.all, 'unread'] as const,
};

export const recentActivitiesQuery = () =>
  queryOptions({
    queryKey: keys.recent(),
    queryFn: apiGet<RecentActivities>('/activities/recent', { limit: RECENT_LIMIT }),
    refetchInterval: ACTIVITY_REFRESH_MS,
  });

export const unreadActivitiesQuery = () =>
  queryOptions({
    queryKey: keys.unread(),
    queryFn: apiGet<RecentActivities>('/activities/recent', { unread_only: true, limit: UNREAD_LIMIT }),
    refetchInterval: ACTIVITY_REFRESH_MS,
  });

export function useRecentActivities(enabled = true) {
  return useQuery({ ...recentActivitiesQuery(), enabled });
}

export function useUnreadCount(): number {
  const { data } = useQuery(unreadActivitiesQuery());
  return data?.count ?? 0;
}

export function useMarkActivitiesViewed() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('/activities/mark-viewed', { method: 'POST' }),
    onMutate: () => {
      client.setQueryData<RecentActivities>(keys.unread(), { activities: [], count: 0 });
    },
    onSettled: () => client.invalidateQueries({ queryKey: keys.all }),
  });
}
