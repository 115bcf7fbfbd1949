import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MarkingReminderSettings, UpdateMarkingReminderSettings } from '@tuitiondesk/contract';
import { apiRequest } from '../../lib/api-client';

const key = ['settings', 'reminders'] as const;

export const reminderSettingsQuery = () =>
  queryOptions({
    queryKey: key,
    queryFn: ({ signal }) => apiRequest<MarkingReminderSettings>('/settings/reminders', { signal }),
  });

export function useReminderSettings() {
  return useQuery(reminderSettingsQuery());
}

/** Either field, or both; the answer is the settings as saved. */
export function useUpdateReminderSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (update: UpdateMarkingReminderSettings) =>
      apiRequest<MarkingReminderSettings>('/settings/reminders', { method: 'PUT', json: update }),
    onSuccess: (settings) => client.setQueryData(key, settings),
  });
}
