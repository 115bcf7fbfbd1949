import { queryOptions, useQuery } from '@tanstack/react-query';
import type {
  AdminAccount,
  ClassOption,
  CreateAdminRequest,
  CreatedAdmin,
  CreatedTeacher,
  DeletedCount,
  PasswordReset,
  Teacher,
  UpdateTeacherRequest,
} from '@tuitiondesk/contract';
import { useListMutation } from '../../components/entity-list';
import { apiRequest } from '../../lib/api-client';
import type { TeacherRequest } from './teacher-form';

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

export function useClassOptions() {
  return useQuery(classOptionsQuery());
}

export function useCreateTeacher() {
  return useListMutation(keys.list(), (request: TeacherRequest) =>
    apiRequest<CreatedTeacher>('/teachers/', { method: 'POST', json: request }),
  );
}

export function useUpdateTeacher() {
  return useListMutation(keys.list(), ({ id, request }: { id: number; request: UpdateTeacherRequest }) =>
    apiRequest<Teacher>(`/teachers/${id}`, { method: 'PUT', json: request }),
  );
}

export function useDeleteTeacher() {
  return useListMutation(keys.list(), (id: number) => apiRequest<unknown>(`/teachers/${id}`, { method: 'DELETE' }));
}

export function useDeleteTeachers() {
  return useListMutation(keys.list(), (ids: number[]) =>
    apiRequest<DeletedCount>('/teachers/delete-multiple', { method: 'POST', json: ids }),
  );
}

/** A teacher lost their phone (and their recovery codes): their account signs in with the password alone again. */
export function useResetTeacherTwoFactor() {
  return useListMutation(keys.list(), (userId: number) =>
    apiRequest<{ message: string }>(`/auth/two-factor/users/${userId}`, { method: 'DELETE' }),
  );
}

const adminKeys = { list: () => ['admins', 'list'] as const };

/** A new password for a staff member (a teacher or another admin), answered once (ADR 046). */
export function useResetPassword() {
  return useListMutation(keys.list(), (userId: number) =>
    apiRequest<PasswordReset>(`/staff/${userId}/reset-password`, { method: 'POST' }),
  );
}

export function useAdmins() {
  return useQuery(
    queryOptions({
      queryKey: adminKeys.list(),
      queryFn: ({ signal }) => apiRequest<AdminAccount[]>('/admins', { signal }),
    }),
  );
}

export function useCreateAdmin() {
  return useListMutation(adminKeys.list(), (request: CreateAdminRequest) =>
    apiRequest<CreatedAdmin>('/admins', { method: 'POST', json: request }),
  );
}

export function useSetAdminInUse() {
  return useListMutation(adminKeys.list(), ({ id, inUse }: { id: number; inUse: boolean }) =>
    apiRequest<AdminAccount>(`/admins/${id}/${inUse ? 'enable' : 'disable'}`, { method: 'POST' }),
  );
}

export function useRemoveAdmin() {
  return useListMutation(adminKeys.list(), (id: number) =>
    apiRequest<{ message: string }>(`/admins/${id}`, { method: 'DELETE' }),
  );
}
