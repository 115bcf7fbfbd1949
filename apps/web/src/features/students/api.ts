import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateStudentRequest, DeletedCount, Student } from '@tuitiondesk/contract';
import { apiRequest } from '../../lib/api-client';

/** The contract has the schema but no named type for this answer. */

const keys = {
  all: ['students'] as const,
  list: () => [...keys.all, 'list'] as const,
};

export const studentsQuery = () =>
  queryOptions({
    queryKey: keys.list(),
    queryFn: ({ signal }) => apiRequest<Student[]>('/students/', { signal }),
  });

export function useStudents() {
  return useQuery(studentsQuery());
}

function useRefreshStudents() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: keys.all });
}

export function useCreateStudent() {
  const refresh = useRefreshStudents();
  return useMutation({
    mutationFn: (request: CreateStudentRequest) => apiRequest<Student>('/students/', { method: 'POST', json: request }),
    onSuccess: refresh,
  });
}

/** Spec section 7: the edit sends the whole edited object; the server ignores what it may not change. */
export function useUpdateStudent() {
  const refresh = useRefreshStudents();
  return useMutation({
    mutationFn: (student: Student) => apiRequest<Student>(`/students/${student.id}`, { method: 'PUT', json: student }),
    onSuccess: refresh,
  });
}

export function useDeleteStudent() {
  const refresh = useRefreshStudents();
  return useMutation({
    mutationFn: (id: number) => apiRequest<unknown>(`/students/${id}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
}

export function useDeleteStudents() {
  const refresh = useRefreshStudents();
  return useMutation({
    mutationFn: (ids: number[]) => apiRequest<DeletedCount>('/students/delete-multiple', { method: 'POST', json: ids }),
    onSuccess: refresh,
  });
}
