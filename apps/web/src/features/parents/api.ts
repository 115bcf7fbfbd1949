import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  BulkParentAccessRequest,
  BulkParentAccessResult,
  ClassOption,
  ParentAccessIssued,
  ParentAccessStatus,
} from '@tuitiondesk/contract';
import { apiRequest } from '../../lib/api-client';

const keys = {
  access: (studentId: number) => ['parents', 'access', studentId] as const,
  accessAll: ['parents', 'access'] as const,
};

export const parentAccessQuery = (studentId: number) =>
  queryOptions({
    queryKey: keys.access(studentId),
    queryFn: ({ signal }) => apiRequest<ParentAccessStatus>(`/students/${studentId}/parent-access`, { signal }),
  });

export function useParentAccess(studentId: number, enabled = true) {
  return useQuery({ ...parentAccessQuery(studentId), enabled });
}

/**
 * Issues a new code (replacing any earlier one). The answer carries the code once; the cache keeps only
 * the status, and every sibling's status goes stale (they share the parent's phone).
 */
export function useIssueParentAccess(studentId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest<ParentAccessIssued>(`/students/${studentId}/parent-access`, { method: 'POST', json: {} }),
    onSuccess: ({ code: _code, message: _message, ...status }) => {
      client.setQueryData(keys.access(studentId), status);
      void client.invalidateQueries({ queryKey: keys.accessAll, refetchType: 'none' });
    },
  });
}

/** The classes a bulk issue can be for, as the students' list offers them. */
export function useClassChoices(enabled: boolean) {
  return useQuery({
    queryKey: ['parents', 'class-options'] as const,
    queryFn: ({ signal }) => apiRequest<ClassOption[]>('/students/classes', { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    enabled,
  });
}

/** Codes for a whole class at once (ADR 047); the answer carries each code once, with its slip's words. */
export function useBulkParentAccess() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: BulkParentAccessRequest) =>
      apiRequest<BulkParentAccessResult>('/parent-access/bulk', { method: 'POST', json: request }),
    onSuccess: () => void client.invalidateQueries({ queryKey: keys.accessAll, refetchType: 'none' }),
  });
}
