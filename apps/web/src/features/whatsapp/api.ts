import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ConnectWhatsapp, WhatsappSetup, WhatsappTest, WhatsappTestResult } from '@tuitiondesk/contract';
import { apiRequest } from '../../lib/api-client';
import { apiGet, useRefreshingMutation } from '../../lib/api-query';

const keys = { setup: ['whatsapp-setup'] as const };

/** Where WhatsApp stands: Meta's live status is asked on each read, so it refreshes each minute. */
export const whatsappSetupQuery = () =>
  queryOptions({
    queryKey: keys.setup,
    queryFn: apiGet<WhatsappSetup>('/settings/whatsapp'),
    refetchInterval: 60_000,
  });

export function useWhatsappSetup() {
  return useQuery(whatsappSetupQuery());
}

export function useConnectWhatsapp() {
  return useRefreshingMutation(keys.setup, (values: ConnectWhatsapp) =>
    apiRequest<WhatsappSetup>('/settings/whatsapp', { method: 'PUT', json: values }),
  );
}

export function useDisconnectWhatsapp() {
  return useRefreshingMutation(keys.setup, () => apiRequest<WhatsappSetup>('/settings/whatsapp', { method: 'DELETE' }));
}

export function useSendWhatsappTest() {
  return useRefreshingMutation(keys.setup, (test: WhatsappTest) =>
    apiRequest<WhatsappTestResult>('/settings/whatsapp/test', { method: 'POST', json: test }),
  );
}
