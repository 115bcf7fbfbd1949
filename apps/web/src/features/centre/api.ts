import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Centre, UpdateCentre, UploadCentreLogo } from '@tuitiondesk/contract';
import { apiRequest } from '../../lib/api-client';
import { settingQuery } from '../../lib/settings-query';

const key = ['settings', 'centre'] as const;

/** The centre's name, logo and time zone, and today on its clock (ADR 042): read once signed in, kept a minute. */
export const centreQuery = () => settingQuery<Centre>('/settings/centre', key, 60_000);

export function useCentre(enabled = true) {
  return useQuery({ ...centreQuery(), enabled });
}

function useCentreChange<Body>(request: (body: Body) => Promise<Centre>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: (centre) => client.setQueryData(key, centre),
  });
}

export function useUpdateCentre() {
  return useCentreChange((update: UpdateCentre) =>
    apiRequest<Centre>('/settings/centre', { method: 'PUT', json: update }),
  );
}

export function useUploadLogo() {
  return useCentreChange((upload: UploadCentreLogo) =>
    apiRequest<Centre>('/settings/centre/logo', { method: 'PUT', json: upload }),
  );
}

export function useRemoveLogo() {
  return useCentreChange((_: undefined) => apiRequest<Centre>('/settings/centre/logo', { method: 'DELETE' }));
}
