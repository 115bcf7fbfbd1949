import { type Conversation, type ConversationSummary, normalisePhone } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { NotFoundError, ValidationError } from '../../lib/errors';
import { findConversation, listConversations } from './repository';

export function getConversations(ctx: AppContext): Promise<ConversationSummary[]> {
  return listConversations(ctx.db);
}

/** The phone as written in the path (+ encoded or not, spaces, digits only) names one family. */
export async function getConversation(ctx: AppContext, written: string): Promise<Conversation> {
  const phone = normalisePhone(written.startsWith('+') ? written : `+${written.replace(/^\s+/, '')}`);
  if (!phone) throw new ValidationError('phone', 'validation.phone_with_country_code');
  const conversation = await findConversation(ctx.db, phone);
  if (!conversation) throw new NotFoundError('conversations.not_found');
  return { phone, ...conversation };
}
