import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type Ageing,
  API_BASE_PATH,
  CLIENT_HEADER,
  CLIENT_HEADER_VALUES,
  type Collections,
  type Due,
  type FeeFamily,
  type FeeFamilyGstDetailsInput,
  type PaymentLink,
  type Receipt,
  type RecordedPayment,
  type RecordPayment,
  type Statement,
} from '@tuitiondesk/contract';
import { useCallback } from 'react';
import { ApiError, apiRequest, storedToken } from '../../lib/api-client';
import { apiGet } from '../../lib/api-query';
import { isGatewayFailure } from '../../lib/server-reach';

/** Every fees read hangs under this key: a payment or a reversal refreshes them all. */
export const FEES_KEY = ['fees'] as const;

export const duesQuery = () => queryOptions({ queryKey: [...FEES_KEY, 'dues'], queryFn: apiGet<Due[]>('/fees/dues') });

export const ageingQuery = () =>
  queryOptions({ queryKey: [...FEES_KEY, 'ageing'], queryFn: apiGet<Ageing>('/fees/ageing') });

export const collectionsQuery = (period: 'today' | 'month') =>
  queryOptions({
    queryKey: [...FEES_KEY, 'collections', period],
    queryFn: apiGet<Collections>('/fees/collections', { period }),
  });

export const familyQuery = (familyId: number) =>
  queryOptions({
    queryKey: [...FEES_KEY, 'family', familyId],
    queryFn: apiGet<FeeFamily>(`/fees/families/${familyId}`),
  });

export const statementQuery = (familyId: number) =>
  queryOptions({
    queryKey: [...FEES_KEY, 'statement', familyId],
    queryFn: apiGet<Statement>(`/fees/families/${familyId}/statement`),
  });

export const receiptQuery = (paymentId: number) =>
  queryOptions({
    queryKey: [...FEES_KEY, 'receipt', paymentId],
    queryFn: apiGet<Receipt>(`/fees/receipts/${paymentId}`),
  });

/** Sends a counter payment; its client_id makes a second send (a retry, a replay) answer the first result. */
export function sendPayment(body: RecordPayment): Promise<RecordedPayment> {
  return apiRequest<RecordedPayment>('/fees/payments', { method: 'POST', json: body });
}

/** The request never reached the server (no network, or a gateway whose server is down): worth keeping to send later. */
export function isUnreachable(error: unknown): boolean {
  return !(error instanceof ApiError) || error.status === 0 || isGatewayFailure(error.status);
}

/** Reads every fees query again (a payment, a reversal, a replay); the same function on every render. */
export function useRefreshFees() {
  const client = useQueryClient();
  return useCallback(() => client.invalidateQueries({ queryKey: FEES_KEY }), [client]);
}

export function useReversePayment() {
  const refresh = useRefreshFees();
  return useMutation({
    mutationFn: ({ paymentId, reason }: { paymentId: number; reason: string }) =>
      apiRequest<Receipt>(`/fees/payments/${paymentId}/reverse`, { method: 'POST', json: { reason } }),
    onSuccess: () => refresh(),
  });
}

/** Sets a family's GST details at once: state, billing name, address and GSTIN (ADR 065). */
export function useSetFamilyGstDetails(familyId: number) {
  const refresh = useRefreshFees();
  return useMutation({
    mutationFn: (details: FeeFamilyGstDetailsInput) =>
      apiRequest<FeeFamily>(`/fees/families/${familyId}/gst-details`, { method: 'PUT', json: details }),
    onSuccess: () => refresh(),
  });
}

export function usePaymentLink() {
  return useMutation({
    mutationFn: (familyId: number) =>
      apiRequest<PaymentLink>(`/fees/families/${familyId}/payment-link`, { method: 'POST', json: {} }),
  });
}

/** The receipt as a PDF (`Accept: application/pdf`), or why not: the server gave no PDF. */
export class NoPdfError extends Error {}

export async function fetchReceiptPdf(paymentId: number): Promise<Blob> {
  const headers: Record<string, string> = { accept: 'application/pdf', [CLIENT_HEADER]: CLIENT_HEADER_VALUES.console };
  const token = storedToken();
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${API_BASE_PATH}/fees/receipts/${paymentId}`, { headers });
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || !type.startsWith('application/pdf')) throw new NoPdfError(String(response.status));
  return response.blob();
}
