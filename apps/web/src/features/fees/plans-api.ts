import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CreateFeePlanRequest,
  FeeChargeRunResult,
  FeeChargeSchedule,
  FeeDiscounts,
  FeePlan,
  Student,
  UpdateFeeChargeScheduleRequest,
  UpdateFeeDiscountsRequest,
  UpdateFeePlanRequest,
} from '@tuitiondesk/contract';
import { apiRequest } from '../../lib/api-client';

/**
 * The calls of the Plans and Charge run tabs (ADR 052, 056). Everything sits under `['fees']`, so a
 * change here refreshes the dues, ageing and collections the other tabs and the dashboard read.
 */
const keys = {
  all: ['fees'] as const,
  plans: () => [...keys.all, 'plans'] as const,
  discounts: () => [...keys.all, 'discounts'] as const,
  schedule: () => [...keys.all, 'charge-schedule'] as const,
  students: () => [...keys.all, 'plan-students'] as const,
};

export const feePlansQuery = () =>
  queryOptions({
    queryKey: keys.plans(),
    queryFn: ({ signal }) => apiRequest<FeePlan[]>('/fees/plans', { signal }),
  });

export function useFeePlans() {
  return useQuery(feePlansQuery());
}

/** Every change to fees refreshes every fees query once the server has taken it. */
function useFeesChange<Input, Result>(send: (input: Input) => Promise<Result>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => client.invalidateQueries({ queryKey: keys.all }),
  });
}

export type PlanSave = { id: null; body: CreateFeePlanRequest } | { id: number; body: UpdateFeePlanRequest };

export function useSavePlan() {
  return useFeesChange(({ id, body }: PlanSave) =>
    id === null
      ? apiRequest<FeePlan>('/fees/plans', { method: 'POST', json: body })
      : apiRequest<FeePlan>(`/fees/plans/${id}`, { method: 'PUT', json: body }),
  );
}

export function useArchivePlan() {
  return useFeesChange(({ id, archived }: { id: number; archived: boolean }) =>
    apiRequest<FeePlan>(`/fees/plans/${id}/${archived ? 'archive' : 'unarchive'}`, { method: 'POST' }),
  );
}

export function useDeletePlan() {
  return useFeesChange((id: number) => apiRequest<{ message: string }>(`/fees/plans/${id}`, { method: 'DELETE' }));
}

export function useFeeDiscounts(enabled = true) {
  return useQuery({
    queryKey: keys.discounts(),
    queryFn: ({ signal }) => apiRequest<FeeDiscounts>('/fees/discounts', { signal }),
    enabled,
  });
}

export function useUpdateDiscounts() {
  return useFeesChange((body: UpdateFeeDiscountsRequest) =>
    apiRequest<FeeDiscounts>('/fees/discounts', { method: 'PUT', json: body }),
  );
}

export function useRunCharges() {
  return useFeesChange((month: string) =>
    apiRequest<FeeChargeRunResult>('/fees/charges/run', { method: 'POST', json: { month } }),
  );
}

export function useChargeSchedule() {
  return useQuery({
    queryKey: keys.schedule(),
    queryFn: ({ signal }) => apiRequest<FeeChargeSchedule>('/fees/charges/schedule', { signal }),
  });
}

export function useUpdateChargeSchedule() {
  return useFeesChange((body: UpdateFeeChargeScheduleRequest) =>
    apiRequest<FeeChargeSchedule>('/fees/charges/schedule', { method: 'PUT', json: body }),
  );
}

/** The students a plan or the staff-child list may name: the whole list, searched on the device. */
export function usePlanStudents(enabled = true) {
  return useQuery({
    queryKey: keys.students(),
    queryFn: ({ signal }) => apiRequest<Student[]>('/students/', { signal }),
    staleTime: 60_000,
    enabled,
  });
}
