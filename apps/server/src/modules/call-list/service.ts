import type { CallList } from '@tuitiondesk/contract';
import { activityWords } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { type Actor, recordActivity } from '../../lib/activity-log';
import { NotFoundError } from '../../lib/errors';
import { readMessagingSettings } from '../delivery';
import { countFamiliesToCall, listCallList, markCalled } from './repository';

export async function getCallList(ctx: AppContext): Promise<CallList> {
  const { not_reached_minutes } = await readMessagingSettings(ctx.db);
  const [items, waiting] = await Promise.all([
    listCallList(ctx.db, not_reached_minutes),
    countFamiliesToCall(ctx.db, not_reached_minutes),
  ]);
  return { items, waiting_count: waiting, not_reached_minutes };
}

export async function familiesToCall(ctx: AppContext): Promise<number> {
  const { not_reached_minutes } = await readMessagingSettings(ctx.db);
  return countFamiliesToCall(ctx.db, not_reached_minutes);
}

/** Ticks a family called (or unticks a mistake), with an activity row. */
export async function setCalled(ctx: AppContext, actor: Actor, messageId: number, called: boolean): Promise<CallList> {
  const { not_reached_minutes } = await readMessagingSettings(ctx.db);
  await ctx.db.transaction(async (tx) => {
    const message = await markCalled(tx, messageId, not_reached_minutes, called ? actor.full_name : null);
    if (!message) throw new NotFoundError('call_list.not_found');
    const family = message.recipient_name ?? message.recipient;
    await recordActivity(
      tx,
      actor,
      called ? 'messages.family_called' : 'messages.family_call_undone',
      called
        ? activityWords('messages.family_called', { family, phone: message.recipient, subject: message.subject })
        : activityWords('messages.family_call_undone', { family, phone: message.recipient }),
    );
  });
  return getCallList(ctx);
}
