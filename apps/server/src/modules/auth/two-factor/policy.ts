import type { TwoFactorPolicy } from '@tuitiondesk/contract';
import type { AppContext } from '../../../context';
import { defineSetting } from '../../../db/settings';
import { type Actor, recordActivity } from '../../../lib/activity-log';
import { ConflictError } from '../../../lib/errors';
import { findTwoFactor } from './repository';

/** Whether every admin must use two-factor sign-in: off unless an admin turned it on (migration 0005 stores 'false'). */
export const REQUIRE_ADMIN_TWO_FACTOR = defineSetting({ key: 'require_admin_two_factor', fallback: false });

export async function getTwoFactorPolicy(ctx: AppContext): Promise<TwoFactorPolicy> {
  return { require_admin_two_factor: await REQUIRE_ADMIN_TWO_FACTOR.read(ctx.db) };
}

/**
 * Turning the rule on needs the admin who does it to use two-factor sign-in already, so it never
 * locks out the person turning it on. Other admins without it sign in and must set it up first.
 */
export async function updateTwoFactorPolicy(
  ctx: AppContext,
  actor: Actor,
  update: TwoFactorPolicy,
): Promise<TwoFactorPolicy> {
  const isOn = update.require_admin_two_factor;
  return ctx.db.transaction(async (tx) => {
    if (isOn && !(await findTwoFactor(tx, actor.id))?.confirmed_at) {
      throw new ConflictError('two_factor.own_first');
    }
    await REQUIRE_ADMIN_TWO_FACTOR.write(tx, isOn);
    await recordActivity(tx, actor, 'settings.updated', 'settings.admin_two_factor', { state: isOn ? 'on' : 'off' });
    return { require_admin_two_factor: await REQUIRE_ADMIN_TWO_FACTOR.read(tx) };
  });
}
