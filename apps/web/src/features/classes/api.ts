import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CentreClass,
  CentreSubject,
  CreateClassRequest,
  CreateSubjectRequest,
  UpdateClassRequest,
  UpdateSubjectRequest,
} from '@tuitiondesk/contract';
import { apiRequest } from '../../lib/api-client';
import { CENTRE_LISTS_KEY, centreClassesQuery, centreSubjectsQuery } from '../../lib/centre-classes';

/**
 * The admin's changes to the centre's classes and subjects (ADR 043). Each refreshes the shared lists
 * (lib/centre-classes.ts), so every select in the console offers the change at once, and the
 * students' class list that Communications and Teachers read.
 */
export type ListKind = 'classes' | 'subjects';
export type ListItem = CentreClass | CentreSubject;

/** What people see of a class ("Class 11 – A") or a subject. */
export const shownName = (item: ListItem) => ('display_label' in item ? item.display_label : item.label);

export function useCentreList(kind: ListKind) {
  // Both queries are named; only the one asked for is read.
  const classes = useQuery({ ...centreClassesQuery(), enabled: kind === 'classes' });
  const subjects = useQuery({ ...centreSubjectsQuery(), enabled: kind === 'subjects' });
  return kind === 'classes' ? classes : subjects;
}

function useListChange<Input, Result>(send: (input: Input) => Promise<Result>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: CENTRE_LISTS_KEY }),
        // The class options Teachers and Communications read from GET /students/classes.
        client.invalidateQueries({ queryKey: ['teachers', 'class-options'] }),
        client.invalidateQueries({ queryKey: ['messages', 'recipient-classes'] }),
      ]);
    },
  });
}

export function useAddItem(kind: ListKind) {
  return useListChange((body: CreateClassRequest | CreateSubjectRequest) =>
    apiRequest<ListItem>(`/${kind}`, { method: 'POST', json: body }),
  );
}

export function useEditItem(kind: ListKind) {
  return useListChange(({ id, body }: { id: number; body: UpdateClassRequest | UpdateSubjectRequest }) =>
    apiRequest<ListItem>(`/${kind}/${id}`, { method: 'PUT', json: body }),
  );
}

export function useArchiveItem(kind: ListKind) {
  return useListChange(({ id, archived }: { id: number; archived: boolean }) =>
    apiRequest<ListItem>(`/${kind}/${id}/${archived ? 'archive' : 'unarchive'}`, { method: 'POST' }),
  );
}

export function useDeleteItem(kind: ListKind) {
  return useListChange((id: number) => apiRequest<{ message: string }>(`/${kind}/${id}`, { method: 'DELETE' }));
}

export function useReorder(kind: ListKind) {
  return useListChange((ids: number[]) => apiRequest<ListItem[]>(`/${kind}/order`, { method: 'PUT', json: { ids } }));
}
