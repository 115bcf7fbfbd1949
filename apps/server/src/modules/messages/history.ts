import type { FamilyMessage, MessageGroup } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { NotFoundError } from '../../lib/errors';
import { notReachedBefore } from '../call-list';
import { readMessagingSettings } from '../delivery';
import { listMessageGroups, listSendFamilies } from './history-repository';

/** The minute before which a message still unproven was not reached: the send list's (ADR 044). */
async function reachedBy(ctx: AppContext): Promise<string> {
  const { not_reached_minutes } = await readMessagingSettings(ctx.db);
  return notReachedBefore(not_reached_minutes);
}

/** The history a message at a time (ADR 049): each send with its families counted by where it stands. */
export async function messageGroups(ctx: AppContext, page: { limit: number; offset: number }): Promise<MessageGroup[]> {
  return listMessageGroups(ctx.db, page, await reachedBy(ctx));
}

/** The families beneath one send of the grouped history, each with its status and reach. */
export async function sendFamilies(ctx: AppContext, sendId: number): Promise<FamilyMessage[]> {
  const families = await listSendFamilies(ctx.db, sendId, await reachedBy(ctx));
  if (!families) throw new NotFoundError('messages.send_not_found', { id: sendId });
  return families;
}
