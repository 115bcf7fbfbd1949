import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ClassOption, CreatedTeacher, DeletedCount, Teacher, UpdateTeacherRequest } from '@tuitiondesk/contract';
import { apiRequest } from '../../lib/api-client';
import type { TeacherRequest } from './teacher-form';

/** The contract has the schema but no named type for this answer. */

const keys = {
  all: ['teachers'] as const,
  list: () => [...keys.all, 'list'] as const,
  // The classes a teacher can be assigned: they never change while the console runs.
  classOptions: () => ['teachers', 'class-options'] as const,
};

export const teachersQuery = () =>
  queryOptions({
    queryKey: keys.list(),
    queryFn: ({ signal }) => apiRequest<Teacher[]>('/teachers/', { signal }),
  });

export const classOptionsQuery = () =>
  queryOptions({
    queryKey: keys.classOptions(),
    queryFn: ({ signal }) => apiRequest<ClassOption[]>('/students/classes', { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useTeachers() {
  return useQuery(teachersQuery());
}

export function useClassOptions(enabled: boolean) {
  return useQuery({ ...classOptionsQuery(), enabled });
}

function useRefreshTeachers() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: keys.list() });
}

export function useCreateTeacher() {
  const refresh = useRefreshTeachers();
  return useMutation({
    mutationFn: (request: TeacherRequest) =>
      apiRequest<CreatedTeacher>('/teachers/', { method: 'POST', json: request }),
    onSuccess: refresh,
  });
}

export function useUpdateTeacher() {
  const refresh = useRefreshTeachers();
  return useMutation({
    mutationFn: ({ id, request }: { id: number; request: UpdateTeacherRequest }) =>
      apiRequest<Teacher>(`/teachers/${id}`, { method: 'PUT', json: request }),
    onSuccess: refresh,
  });
}

export function useDeleteTeacher() {
  const refresh = useRefreshTeachers();
  return useMutation({
    mutationFn: (id: number) => apiRequest<unknown>(`/teachers/${id}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
}

export function useDeleteTeachers() {
  const refresh = useRefreshTeachers();
  return useMutation({
    mutationFn: (ids: number[]) => apiRequest<DeletedCount>('/teachers/delete-multiple', { method: 'POST', json: ids }),
    onSuccess: refresh,
  });
}

/** A teacher lost their phone (and their recovery codes): their account signs in with the password alone again. */
export function useResetTeacherTwoFactor() {
  const refresh = useRefreshTeachers();
  return useMutation({
    mutationFn: (userId: number) =>
      apiRequest<{ message: string }>(`/auth/two-factor/users/${userId}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
}
