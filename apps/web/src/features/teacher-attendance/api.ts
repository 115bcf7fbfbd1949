import { queryOptions, useQuery } from '@tanstack/react-query';
import type {
  lockTeacherAttendanceResultSchema,
  MarkTeacherAttendanceRequest,
  markTeacherAttendanceResultSchema,
  TeacherAttendanceDay,
  UpdateTeacherRemarksRequest,
} from '@tuitiondesk/contract';
import type { z } from 'zod';
import { apiRequest } from '../../lib/api-client';
import { apiGet, useRefreshingMutation } from '../../lib/api-query';

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
    queryFn: apiGet<TeacherAttendanceDay>(`/teacher-attendance/date/${date}`),
  });

export function useTeacherDay(date: string) {
  return useQuery(teacherDayQuery(date));
}

// Each change refreshes every day shown: the counts, the marks and the lock.

export function useMarkTeacherAttendance() {
  return useRefreshingMutation(keys.all, (request: MarkTeacherAttendanceRequest) =>
    apiRequest<MarkTeacherAttendanceResult>('/teacher-attendance/mark', { method: 'POST', json: request }),
  );
}

export function useLockTeacherAttendance() {
  return useRefreshingMutation(keys.all, (date: string) =>
    apiRequest<LockTeacherAttendanceResult>(`/teacher-attendance/lock/${date}`, { method: 'POST' }),
  );
}

export function useUpdateTeacherRemarks() {
  return useRefreshingMutation(keys.all, (request: UpdateTeacherRemarksRequest) =>
    apiRequest<{ message: string }>('/teacher-attendance/update-remarks', { method: 'POST', json: request }),
  );
}
