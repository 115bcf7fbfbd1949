import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CreateStudentRequest, DeletedCount, Student } from '@tuitiondesk/contract';
import { useListMutation } from '../../components/entity-list';
import { apiRequest } from '../../lib/api-client';
import type { StudentEdit } from './student-form';

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
