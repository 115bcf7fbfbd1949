import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  lockTeacherAttendanceResultSchema,
  MarkTeacherAttendanceRequest,
  markTeacherAttendanceResultSchema,
  TeacherAttendanceDay,
  UpdateTeacherRemarksRequest,
} from '@tuitiondesk/contract';
import type { z } from 'zod';
import { apiRequest } from '../../lib/api-client';

/** The contract has the schemas but no named types for these answers. */
export type MarkTeacherAttendanceResult = z.infer<typeof markTeacherAttendanceResultSchema>;
export type LockTeacherAttendanceResult = z.infer<typeof lockTeacherAttendanceResultSchema>;

const keys = {
  all: ['teacher-attendance'] as const,
  day: (date: string) => [...keys.all, 'day', date] as const,
};

export const teacherDayQuery = (date: string) =>
  queryOptions({
    queryKey: keys.day(date),
    queryFn: ({ signal }) => apiRequest<TeacherAttendanceDay>(`/teacher-attendance/date/${date}`, { signal }),
  });

export function useTeacherDay(date: string) {
  return useQuery(teacherDayQuery(date));
}

function useRefreshDays() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: keys.all });
}

export function useMarkTeacherAttendance() {
  const refresh = useRefreshDays();
  return useMutation({
    mutationFn: (request: MarkTeacherAttendanceRequest) =>
      apiRequest<MarkTeacherAttendanceResult>('/teacher-attendance/mark', { method: 'POST', json: request }),
    onSuccess: refresh,
  });
}

export function useLockTeacherAttendance() {
  const refresh = useRefreshDays();
  return useMutation({
    mutationFn: (date: string) =>
      apiRequest<LockTeacherAttendanceResult>(`/teacher-attendance/lock/${date}`, { method: 'POST' }),
    onSuccess: refresh,
  });
}

export function useUpdateTeacherRemarks() {
  const refresh = useRefreshDays();
  return useMutation({
    mutationFn: (request: UpdateTeacherRemarksRequest) =>
      apiRequest<{ message: string }>('/teacher-attendance/update-remarks', { method: 'POST', json: request }),
    onSuccess: refresh,
  });
}
