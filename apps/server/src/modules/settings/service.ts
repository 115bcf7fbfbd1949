import type {
  CentreSettings,
  MarkingRules,
  MessagingSettings,
  PhoneSettings,
  TwoFactorPolicy,
  UpdateMessagingSettings,
} from '@tuitiondesk/contract';
import { DEFAULT_WHATSAPP_DAILY_LIMIT } from '../../config';
import type { AppContext } from '../../context';
import { type Actor, plural, recordActivity } from '../../lib/activity-log';
import { ConflictError } from '../../lib/errors';
import { findTwoFactor } from '../auth/two-factor/repository';
import { countConversationsToday } from '../delivery/whatsapp-repository';
import {
  type MessagingSettingsRow,
  readAbsenceAlerts,
  readDefaultCountryCode,
  readMarkingRules,
  readMessagingSettings,
  readRequireAdminTwoFactor,
  writeAbsenceAlerts,
  writeDefaultCountryCode,
  writeMarkingRules,
  writeMessagingSettings,
  writeRequireAdminTwoFactor,
} from './repository';

export async function getSettings(ctx: AppContext): Promise<CentreSettings> {
  return { absence_alerts: await readAbsenceAlerts(ctx.db) };
}

export async function updateSettings(ctx: AppContext, actor: Actor, update: CentreSettings): Promise<CentreSettings> {
  return ctx.db.transaction(async (tx) => {
    await writeAbsenceAlerts(tx, update.absence_alerts);
    await recordActivity(tx, actor, 'settings.updated', 'settings.absence_alerts', {
      state: update.absence_alerts ? 'on' : 'off',
    });
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
      throw new ConflictError('two_factor.own_first');
    }
    await writeRequireAdminTwoFactor(tx, isOn);
    await recordActivity(tx, actor, 'settings.updated', 'settings.admin_two_factor', { state: isOn ? 'on' : 'off' });
    return { require_admin_two_factor: await readRequireAdminTwoFactor(tx) };
  });
}

export async function getMarkingRules(ctx: AppContext): Promise<MarkingRules> {
  return readMarkingRules(ctx.db);
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
      await recordActivity(tx, actor, 'settings.updated', 'settings.marking_rules', {
        any_class: update.teachers_mark_any_class ? 'yes' : 'no',
        days: update.teacher_mark_days_back,
      });
    }
    return readMarkingRules(tx);
  });
}

/** The message settings, and where WhatsApp stands: on or off, and today's use of the daily limit. */
export async function getMessagingSettings(ctx: AppContext): Promise<MessagingSettings> {
  const settings = await readMessagingSettings(ctx.db);
  const used = await countConversationsToday(ctx.db);
  return {
    ...settings,
    whatsapp: {
      configured: ctx.whatsapp !== undefined,
      daily_limit: ctx.config.whatsapp?.dailyLimit ?? DEFAULT_WHATSAPP_DAILY_LIMIT,
      used_today: used,
    },
  };
}

const minutesText = (minutes: number) => (minutes === 0 ? 'at once' : `after ${plural(minutes, 'minute')}`);

/** What a change of the message settings changed, e.g. `centre name "Bright Minds", call list after 45 minutes`. */
export function describeMessagingChange(before: MessagingSettingsRow, after: MessagingSettingsRow): string {
  const changes: string[] = [];
  if (after.centre_name !== before.centre_name) changes.push(`centre name "${after.centre_name}"`);
  if (after.whatsapp_fallback_minutes !== before.whatsapp_fallback_minutes) {
    changes.push(`WhatsApp ${minutesText(after.whatsapp_fallback_minutes)} when the app has not confirmed`);
  }
  if (after.not_reached_minutes !== before.not_reached_minutes) {
    changes.push(`call list after ${plural(after.not_reached_minutes, 'minute')}`);
  }
  if (after.whatsapp_notice_template !== before.whatsapp_notice_template) {
    changes.push(`WhatsApp notice template ${after.whatsapp_notice_template}`);
  }
  return changes.join(', ');
}

/**
 * Writes the message settings (a notice template left out stays as it is); a change, not a save of
 * the same values, leaves an activity row saying what changed.
 */
export async function updateMessagingSettings(
  ctx: AppContext,
  actor: Actor,
  update: UpdateMessagingSettings,
): Promise<MessagingSettings> {
  await ctx.db.transaction(async (tx) => {
    const before = await readMessagingSettings(tx, 'update');
    const after: MessagingSettingsRow = {
      centre_name: update.centre_name,
      whatsapp_fallback_minutes: update.whatsapp_fallback_minutes,
      not_reached_minutes: update.not_reached_minutes,
      whatsapp_notice_template: update.whatsapp_notice_template ?? before.whatsapp_notice_template,
    };
    // Written even when it reads the same: a value edited into nonsense (read as its default) is replaced.
    await writeMessagingSettings(tx, after);
    const changed = describeMessagingChange(before, after);
    if (changed !== '') {
      await recordActivity(tx, actor, 'settings.updated', 'settings.messaging', { changes: changed });
    }
  });
  return getMessagingSettings(ctx);
}

export async function getPhoneSettings(ctx: AppContext): Promise<PhoneSettings> {
  return { default_country_code: await readDefaultCountryCode(ctx.db) };
}

/** Writes the default country code; a change (not a save of the same code) leaves an activity row. */
export async function updatePhoneSettings(
  ctx: AppContext,
  actor: Actor,
  update: PhoneSettings,
): Promise<PhoneSettings> {
  return ctx.db.transaction(async (tx) => {
    const before = await readDefaultCountryCode(tx, 'update');
    await writeDefaultCountryCode(tx, update.default_country_code);
    if (before !== update.default_country_code) {
      await recordActivity(tx, actor, 'settings.updated', 'settings.country_code', {
        code: update.default_country_code,
      });
    }
    return { default_country_code: await readDefaultCountryCode(tx) };
  });
}
