import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type RequestOptions } from './api-client';

/** A query function that reads `path` (with `query` as its search) and stops when the query is cancelled. */
export function apiGet<T>(path: string, query?: RequestOptions['query']) {
  return ({ signal }: { signal: AbortSignal }) => apiRequest<T>(path, { query, signal });
}

/**
 * A change sent to the server. Once the server has taken it, every query under `refreshes` is fetched
 * again, and the change is done only when they have been: the screen never shows the old data as new.
 */
export function useRefreshingMutation<Input, Result>(refreshes: QueryKey, send: (input: Input) => Promise<Result>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: send, onSuccess: () => client.invalidateQueries({ queryKey: refreshes }) });
}
