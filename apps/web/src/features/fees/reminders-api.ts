import { useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DismissFeeTaskRequest,
  FeeMatchTask,
  FeeMatchTasks,
  FeePromises,
  FeeReminderRun,
  FeeReminderSchedule,
  MatchFeeTaskRequest,
  UpdateFeeReminderSettingsRequest,
} from '@tuitiondesk/contract';
import { apiRequest } from '../../lib/api-client';
import { apiGet, useRefreshingMutation } from '../../lib/api-query';

/**
 * The calls of the Reminders and Match tasks tabs (issue 29 items 6 and 7). Everything sits under
 * `['fees']`, as the other tabs' reads do, so a payment recorded elsewhere refreshes these too.
 */
const keys = {
  all: ['fees'] as const,
  settings: () => [...keys.all, 'reminder-settings'] as const,
  promises: () => [...keys.all, 'promises'] as const,
  tasks: (status: MatchTaskList) => [...keys.all, 'match-tasks', status] as const,
};

export type MatchTaskList = 'open' | 'done';

export function useReminderSettings() {
  return useQuery({ queryKey: keys.settings(), queryFn: apiGet<FeeReminderSchedule>('/fees/reminders/settings') });
}

/** A change the server has taken refreshes every fees read (the last round, the promises, the badge). */
function useFeesChange<Input, Result>(send: (input: Input) => Promise<Result>) {
  return useRefreshingMutation(keys.all, send);
}

export function useUpdateReminderSettings() {
  return useFeesChange((body: UpdateFeeReminderSettingsRequest) =>
    apiRequest<FeeReminderSchedule>('/fees/reminders/settings', { method: 'PUT', json: body }),
  );
}

export function useRunReminders() {
  return useFeesChange(() => apiRequest<FeeReminderRun>('/fees/reminders/run', { method: 'POST', json: {} }));
}

export function usePromises() {
  return useQuery({ queryKey: keys.promises(), queryFn: apiGet<FeePromises>('/fees/promises') });
}

export function useMatchTasks(status: MatchTaskList) {
  return useQuery({ queryKey: keys.tasks(status), queryFn: apiGet<FeeMatchTasks>('/fees/match-tasks', { status }) });
}

/** Re-reads the match tasks (a 409: another admin resolved one meanwhile). */
export function useRefreshMatchTasks() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: [...keys.all, 'match-tasks'] });
}

export function useMatchTask() {
  return useFeesChange(({ id, body }: { id: number; body: MatchFeeTaskRequest }) =>
    apiRequest<FeeMatchTask>(`/fees/match-tasks/${id}/match`, { method: 'POST', json: body }),
  );
}

export function useDismissTask() {
  return useFeesChange(({ id, body }: { id: number; body: DismissFeeTaskRequest }) =>
    apiRequest<FeeMatchTask>(`/fees/match-tasks/${id}/dismiss`, { method: 'POST', json: body }),
  );
}
