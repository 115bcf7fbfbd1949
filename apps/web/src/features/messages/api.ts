import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ClassOption, Communication, SendToParentsRequest, SendToParentsResult } from '@tuitiondesk/contract';
import { useEffect } from 'react';
import { apiRequest } from '../../lib/api-client';
import { apiGet, useRefreshingMutation } from '../../lib/api-query';

/** The message history refreshes every 30 seconds. */
export const HISTORY_REFRESH_MS = 30_000;

const keys = {
  all: ['messages'] as const,
  history: (offset: number, limit: number) => [...keys.all, 'history', offset, limit] as const,
  recipientClasses: () => [...keys.all, 'recipient-classes'] as const,
};

export interface HistoryPage {
  items: Communication[];
  /** True when there are older messages after this page. */
  hasMore: boolean;
}

/** One page of history. It asks for one row more than it shows, to know whether a next page exists. */
export const historyPageQuery = (page: number, rowsPerPage: number) =>
  queryOptions({
    queryKey: keys.history(page * rowsPerPage, rowsPerPage),
    queryFn: async ({ signal }): Promise<HistoryPage> => {
      const rows = await apiRequest<Communication[]>('/communications/history', {
        query: { limit: rowsPerPage + 1, offset: page * rowsPerPage },
        signal,
      });
      return { items: rows.slice(0, rowsPerPage), hasMore: rows.length > rowsPerPage };
    },
    refetchInterval: HISTORY_REFRESH_MS,
    placeholderData: keepPreviousData,
  });

/** A failed history fetch is only logged: the list shows what it has (or nothing), with no error on screen. */
export function useMessageHistory(page: number, rowsPerPage: number) {
  const query = useQuery(historyPageQuery(page, rowsPerPage));
  useEffect(() => {
    if (query.error) console.error('Failed to fetch communication history', query.error);
  }, [query.error]);
  return query;
}

export const recipientClassesQuery = () =>
  queryOptions({
    queryKey: keys.recipientClasses(),
    queryFn: apiGet<ClassOption[]>('/students/classes'),
    staleTime: 5 * 60_000,
  });

export function useRecipientClasses(enabled: boolean) {
  return useQuery({ ...recipientClassesQuery(), enabled });
}

export function useSendToParents() {
  return useRefreshingMutation([...keys.all, 'history'], (request: SendToParentsRequest) =>
    apiRequest<SendToParentsResult>('/messages/send-to-parents', { method: 'POST', json: request }),
  );
}
