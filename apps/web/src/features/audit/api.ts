import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AuditPage, AuditWay } from '@tuitiondesk/contract';
import { apiDownload, apiRequest, saveFile } from '../../lib/api-client';

/** The Audit screen's filters, as the URL and the API name them; '' is "any". */
export interface AuditFilters {
  actor: string;
  entity: string;
  record_id: string;
  way: AuditWay | '';
  from: string;
  to: string;
}

export const NO_AUDIT_FILTERS: AuditFilters = { actor: '', entity: '', record_id: '', way: '', from: '', to: '' };

function queryOf(filters: AuditFilters): Record<string, string> {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value.trim() !== ''));
}

export const auditPageQuery = (filters: AuditFilters, limit: number, offset: number) =>
  queryOptions({
    queryKey: ['audit', queryOf(filters), limit, offset] as const,
    queryFn: ({ signal }) => apiRequest<AuditPage>('/audit', { query: { ...queryOf(filters), limit, offset }, signal }),
    placeholderData: keepPreviousData,
  });

export function useAuditPage(filters: AuditFilters, limit: number, offset: number, enabled: boolean) {
  return useQuery({ ...auditPageQuery(filters, limit, offset), enabled });
}

/** The matching rows as the server's CSV file, saved by the browser. */
export async function exportAuditCsv(filters: AuditFilters): Promise<void> {
  const search = new URLSearchParams(queryOf(filters)).toString();
  const { blob, filename } = await apiDownload(`/audit/export${search ? `?${search}` : ''}`, 'audit.csv');
  saveFile(blob, filename);
}
