import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './api-client';

/**
 * A setting of the centre as the server keeps it at `path`: read with GET under `key`, saved with PUT,
 * and the saved answer kept as the read one. The settings screens, the reminders and the phones'
 * country code all read and save theirs this way.
 */
export function settingQuery<Value>(path: string, key: readonly string[], staleTime?: number) {
  return queryOptions({
    queryKey: key,
    queryFn: ({ signal }) => apiRequest<Value>(path, { signal }),
    ...(staleTime === undefined ? {} : { staleTime }),
  });
}

/** Saves the setting at `path` (PUT) and keeps the answer as the read one under `key`. */
export function useSettingUpdate<Value, Update = Value>(path: string, key: readonly string[]) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (update: Update) => apiRequest<Value>(path, { method: 'PUT', json: update }),
    onSuccess: (value) => client.setQueryData(key, value),
  });
}
