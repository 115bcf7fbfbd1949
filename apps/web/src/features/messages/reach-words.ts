import type { FamilyCount, MessageGroup, SendToParentsResult } from '@tuitiondesk/contract';
import type { TFunction } from '../../i18n';
import { currentLanguage } from '../../i18n/current';

/** Families by the first channel that reaches each (ADR 044). */
export interface ChannelCounts {
  in_app: number;
  whatsapp: number;
  no_channel: number;
}

/**
 * Who each channel reaches, in the words the dialog, the send notice and the approval notice share:
 * "12 in the app, 0 on WhatsApp, 129 with no channel yet: they go on your send list" (the last part
 * only when some family has no channel).
 */
export function channelsText(t: TFunction<'messages'>, counts: ChannelCounts): string {
  const values = { inApp: counts.in_app, whatsapp: counts.whatsapp, none: counts.no_channel };
  return counts.no_channel > 0 ? t('reach.channels', values) : t('reach.channelsAll', values);
}

/** Before sending: `Goes to 141 families: 12 in the app, 0 on WhatsApp, 129 with no channel yet: …`. */
export function previewText(t: TFunction<'messages'>, count: FamilyCount): string {
  return t('reach.goesTo', { count: count.families, channels: channelsText(t, count) });
}

/**
 * After sending, from the counts: "sent" only of the families a channel took; a send no channel took
 * says so and says where they went. Undefined when the answer has no counts (a server of the spec).
 */
export function sentReachText(t: TFunction<'messages'>, result: SendToParentsResult): string | undefined {
  if (typeof result.unreachable_count !== 'number' || typeof result.in_app_count !== 'number') return undefined;
  const count = result.recipients_count;
  const counts = { in_app: result.in_app_count, whatsapp: result.whatsapp_count, no_channel: result.unreachable_count };
  if (counts.no_channel >= count) return t('reach.sentNone', { count });
  if (counts.no_channel > 0) {
    return t('reach.sentSome', { count, reached: count - counts.no_channel, channels: channelsText(t, counts) });
  }
  return t('reach.sentAll', { count, channels: channelsText(t, counts) });
}

/** Where a send stands, its parts in this order, each said only when some family is in it. */
const GROUP_PARTS = [
  ['delivered', 'delivered'],
  ['read', 'read'],
  ['sent_by_hand', 'sentByHand'],
  ['waiting', 'waiting'],
  ['not_reached', 'notReached'],
] as const;

/**
 * A send in the history (ADR 049): "Sent to 141: 12 delivered, 1 read, 3 sent by hand, 125 not
 * reached", each family in one part (the server's counts, by the shared definition of reached).
 */
export function groupReachText(t: TFunction<'messages'>, group: MessageGroup): string {
  const parts = GROUP_PARTS.filter(([field]) => group[field] > 0).map(([field, key]) =>
    t(`groups.part.${key}`, { count: group[field] }),
  );
  const list = new Intl.ListFormat(currentLanguage(), { style: 'short', type: 'unit' }).format(parts);
  return t('groups.sentTo', { count: group.families, parts: list });
}
