import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type {
  CallList,
  ClassOption,
  Conversation,
  ConversationSummary,
  FamilyCount,
  FamilyMessage,
  MessageAnalytics,
  MessageGroup,
  MessageTemplate,
  MessagingSettings,
  SaveMessageTemplateRequest,
  SendToParentsRequest,
  SendToParentsResult,
  SendWhatsappRequest,
  SendWhatsappResult,
  UpdateMessagingSettings,
} from '@tuitiondesk/contract';
import { useEffect } from 'react';
import { apiRequest } from '../../lib/api-client';
import { apiGet, useRefreshingMutation } from '../../lib/api-query';

/** The message history refreshes every 30 seconds. */
export const HISTORY_REFRESH_MS = 30_000;

const keys = {
  all: ['messages'] as const,
  groups: (offset: number, limit: number) => [...keys.all, 'history', 'grouped', offset, limit] as const,
  sendFamilies: (sendId: number) => [...keys.all, 'history', 'send', sendId] as const,
  recipientClasses: () => [...keys.all, 'recipient-classes'] as const,
  familyCount: (recipients: string) => [...keys.all, 'family-count', recipients] as const,
};

export interface GroupsPage {
  items: MessageGroup[];
  /** True when there are older messages after this page. */
  hasMore: boolean;
}

/**
 * One page of the history grouped by message (ADR 049), one item more asked for than shown to know
 * whether a next page exists; refreshed as the history is (a family's status moves on its own).
 */
export const messageGroupsQuery = (page: number, perPage: number) =>
  queryOptions({
    queryKey: keys.groups(page * perPage, perPage),
    queryFn: async ({ signal }): Promise<GroupsPage> => {
      const rows = await apiRequest<MessageGroup[]>('/communications/history/grouped', {
        query: { limit: perPage + 1, offset: page * perPage },
        signal,
      });
      return { items: rows.slice(0, perPage), hasMore: rows.length > perPage };
    },
    refetchInterval: HISTORY_REFRESH_MS,
    placeholderData: keepPreviousData,
  });

/** A failed fetch is logged; the tab says the history could not be loaded, with Retry. */
export function useMessageGroups(page: number, perPage: number) {
  const query = useQuery(messageGroupsQuery(page, perPage));
  useEffect(() => {
    if (query.error) console.error('Failed to fetch communication history', query.error);
  }, [query.error]);
  return query;
}

/** The families beneath one send, fetched when its row is opened. */
export function useSendFamilies(sendId: number) {
  return useQuery({
    queryKey: keys.sendFamilies(sendId),
    queryFn: apiGet<FamilyMessage[]>(`/communications/history/sends/${sendId}`),
    refetchInterval: HISTORY_REFRESH_MS,
  });
}

export const recipientClassesQuery = () =>
  queryOptions({
    queryKey: keys.recipientClasses(),
    queryFn: apiGet<ClassOption[]>('/students/classes'),
    staleTime: 5 * 60_000,
  });

export function useRecipientClasses(enabled: boolean) {
  return useQuery({ ...recipientClassesQuery(), enabled });
}

/** How many families a send to `recipients` goes to: fetched each time the dialog opens, students change. */
export const familyCountQuery = (recipients: string) =>
  queryOptions({
    queryKey: keys.familyCount(recipients),
    queryFn: apiGet<FamilyCount>('/messages/family-count', { recipients }),
  });

export function useFamilyCount(recipients: string, enabled: boolean) {
  return useQuery({ ...familyCountQuery(recipients), enabled });
}

export function useSendToParents() {
  return useRefreshingMutation([...keys.all, 'history'], (request: SendToParentsRequest) =>
    apiRequest<SendToParentsResult>('/messages/send-to-parents', { method: 'POST', json: request }),
  );
}

export function useSendWhatsapp() {
  return useRefreshingMutation([...keys.all, 'history'], (request: SendWhatsappRequest) =>
    apiRequest<SendWhatsappResult>('/communications/send-whatsapp', { method: 'POST', json: request }),
  );
}

export const messagingSettingsQuery = () =>
  queryOptions({
    queryKey: [...keys.all, 'settings'] as const,
    queryFn: apiGet<MessagingSettings>('/settings/messaging'),
    staleTime: 60_000,
  });

/** The call list refreshes with the history: a family can drop off it (reached) or onto it (time passed). */
export const callListQuery = () =>
  queryOptions({
    queryKey: [...keys.all, 'call-list'] as const,
    queryFn: apiGet<CallList>('/communications/call-list'),
    refetchInterval: HISTORY_REFRESH_MS,
  });

export function useCallList() {
  return useQuery(callListQuery());
}

export function useMarkCalled() {
  return useRefreshingMutation([...keys.all], ({ messageId, called }: { messageId: number; called: boolean }) =>
    apiRequest<CallList>(`/communications/call-list/${messageId}`, { method: 'PUT', json: { called } }),
  );
}

/** Marks a message the family never got as sent by hand (once; a second tick changes nothing). */
export function useMarkSentByHand() {
  return useRefreshingMutation([...keys.all], (messageId: number) =>
    apiRequest<CallList>(`/communications/call-list/${messageId}/sent-by-hand`, { method: 'PUT', json: {} }),
  );
}

export const templatesQuery = () =>
  queryOptions({
    queryKey: [...keys.all, 'templates'] as const,
    queryFn: apiGet<MessageTemplate[]>('/message-templates'),
  });

export function useTemplates(enabled = true) {
  return useQuery({ ...templatesQuery(), enabled });
}

export function useSaveTemplate() {
  return useRefreshingMutation(
    [...keys.all, 'templates'],
    ({ id, body }: { id?: number; body: SaveMessageTemplateRequest }) =>
      apiRequest<MessageTemplate>(id === undefined ? '/message-templates' : `/message-templates/${id}`, {
        method: id === undefined ? 'POST' : 'PUT',
        json: body,
      }),
  );
}

export function useDeleteTemplate() {
  return useRefreshingMutation([...keys.all, 'templates'], (id: number) =>
    apiRequest<{ message: string }>(`/message-templates/${id}`, { method: 'DELETE' }),
  );
}

export function useMessagingSettings(enabled = true) {
  return useQuery({ ...messagingSettingsQuery(), enabled });
}

export function useSaveMessagingSettings() {
  return useRefreshingMutation([...keys.all, 'settings'], (body: UpdateMessagingSettings) =>
    apiRequest<MessagingSettings>('/settings/messaging', { method: 'PUT', json: body }),
  );
}

export const analyticsQuery = (from: string, to: string) =>
  queryOptions({
    queryKey: [...keys.all, 'analytics', from, to] as const,
    queryFn: ({ signal }) => apiRequest<MessageAnalytics>('/communications/analytics', { query: { from, to }, signal }),
    refetchInterval: HISTORY_REFRESH_MS,
    placeholderData: keepPreviousData,
  });

export function useAnalytics(from: string, to: string) {
  return useQuery(analyticsQuery(from, to));
}

export function useConversations() {
  return useQuery({
    queryKey: [...keys.all, 'conversations'] as const,
    queryFn: apiGet<ConversationSummary[]>('/communications/conversations'),
    refetchInterval: HISTORY_REFRESH_MS,
  });
}

export function useConversation(phone: string | null) {
  return useQuery({
    queryKey: [...keys.all, 'conversations', phone] as const,
    queryFn: apiGet<Conversation>(`/communications/conversations/${encodeURIComponent(phone ?? '')}`),
    enabled: phone !== null,
    refetchInterval: HISTORY_REFRESH_MS,
  });
}
