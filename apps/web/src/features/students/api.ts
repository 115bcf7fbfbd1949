import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateStudentRequest, DeletedCount, Student, StudentSettings } from '@tuitiondesk/contract';
import { useListMutation } from '../../components/entity-list';
import { apiRequest } from '../../lib/api-client';
import type { StudentEdit } from './student-form';

const keys = {
  all: ['students'] as const,
  list: () => [...keys.all, 'list'] as const,
  left: () => [...keys.all, 'list', 'left'] as const,
  settings: ['settings', 'students'] as const,
};

export const studentsQuery = () =>
  queryOptions({
    queryKey: keys.list(),
    queryFn: ({ signal }) => apiRequest<Student[]>('/students/', { signal }),
  });

export function useStudents() {
  return useQuery(studentsQuery());
}

/** The students who left, with the day each left (GET /students/?status=left). */
export function useLeftStudents(enabled: boolean) {
  return useQuery({
    queryKey: keys.left(),
    queryFn: ({ signal }) => apiRequest<Student[]>('/students/?status=left', { signal }),
    enabled,
  });
}

export function useMarkStudentLeft() {
  return useListMutation(keys.all, ({ id, left_on }: { id: number; left_on: string }) =>
    apiRequest<Student>(`/students/${id}/leave`, { method: 'POST', json: { left_on } }),
  );
}

export function useRestoreStudent() {
  return useListMutation(keys.all, (id: number) =>
    apiRequest<Student>(`/students/${id}/restore`, { method: 'POST', json: {} }),
  );
}

export function useStudentSettings(enabled: boolean) {
  return useQuery({
    queryKey: keys.settings,
    queryFn: ({ signal }) => apiRequest<StudentSettings>('/settings/students', { signal }),
    enabled,
  });
}

export function useUpdateStudentSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: StudentSettings) =>
      apiRequest<StudentSettings>('/settings/students', { method: 'PUT', json: settings }),
    onSuccess: (settings) => client.setQueryData(keys.settings, settings),
  });
}

export function useCreateStudent() {
  return useListMutation(keys.all, (request: CreateStudentRequest) =>
    apiRequest<Student>('/students/', { method: 'POST', json: request }),
  );
}

/** The edit sends the whole edited object (see editedStudent); the server ignores what it may not change. */
export function useUpdateStudent() {
  return useListMutation(keys.all, (student: StudentEdit) =>
    apiRequest<Student>(`/students/${student.id}`, { method: 'PUT', json: student }),
  );
}

export function useDeleteStudent() {
  return useListMutation(keys.all, (id: number) => apiRequest<unknown>(`/students/${id}`, { method: 'DELETE' }));
}

export function useDeleteStudents() {
  return useListMutation(keys.all, (ids: number[]) =>
    apiRequest<DeletedCount>('/students/delete-multiple', { method: 'POST', json: ids }),
  );
}
