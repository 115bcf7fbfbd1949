import type { CentreSettings, MarkingRules, TwoFactorPolicy } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { type Actor, plural, recordActivity } from '../../lib/activity-log';
import { ConflictError } from '../../lib/errors';
import { findTwoFactor } from '../two-factor/repository';
import {
  readAbsenceAlerts,
  readMarkingRules,
  readRequireAdminTwoFactor,
  writeAbsenceAlerts,
  writeMarkingRules,
  writeRequireAdminTwoFactor,
} from './repository';

export async function getSettings(ctx: AppContext): Promise<CentreSettings> {
  return { absence_alerts: await readAbsenceAlerts(ctx.db) };
}

export async function updateSettings(ctx: AppContext, actor: Actor, update: CentreSettings): Promise<CentreSettings> {
  return ctx.db.transaction(async (tx) => {
    await writeAbsenceAlerts(tx, update.absence_alerts);
    await recordActivity(
      tx,
      actor,
      'settings.updated',
      `${actor.full_name} turned absence alerts to parents ${update.absence_alerts ? 'on' : 'off'}`,
    );
    return { absence_alerts: await readAbsenceAlerts(tx) };
  });
}

export async function getTwoFactorPolicy(ctx: AppContext): Promise<TwoFactorPolicy> {
  return { require_admin_two_factor: await readRequireAdminTwoFactor(ctx.db) };
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
      throw new ConflictError('Turn on two-factor sign-in for your own account first, then require it for every admin');
    }
    await writeRequireAdminTwoFactor(tx, isOn);
    await recordActivity(
      tx,
      actor,
      'settings.updated',
      `${actor.full_name} turned ${isOn ? 'on' : 'off'} two-factor sign-in for every admin`,
    );
    return { require_admin_two_factor: await readRequireAdminTwoFactor(tx) };
  });
}

export async function getMarkingRules(ctx: AppContext): Promise<MarkingRules> {
  return readMarkingRules(ctx.db);
}

/** "teachers mark only their own classes, today and 2 days back", for the activity feed. */
export function describeMarkingRules(rules: MarkingRules): string {
  const days = rules.teacher_mark_days_back;
  const window = days === 0 ? 'today only' : `today and ${plural(days, 'day')} back`;
  return `${rules.teachers_mark_any_class ? 'any teacher marks any class' : 'teachers mark only their own classes'}, ${window}`;
}

/** Writes the rules; a change (not a save of the same values) leaves an activity row saying what they are now. */
export async function updateMarkingRules(ctx: AppContext, actor: Actor, update: MarkingRules): Promise<MarkingRules> {
  return ctx.db.transaction(async (tx) => {
    const before = await readMarkingRules(tx, 'update');
    const isChange =
      before.teacher_mark_days_back !== update.teacher_mark_days_back ||
      before.teachers_mark_any_class !== update.teachers_mark_any_class;
    if (isChange) {
      await writeMarkingRules(tx, update);
      await recordActivity(
        tx,
        actor,
        'settings.updated',
        `${actor.full_name} changed the attendance marking rules: ${describeMarkingRules(update)}`,
      );
    }
    return readMarkingRules(tx);
  });
}
