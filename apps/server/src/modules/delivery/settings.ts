import { type MessagingSettings, type UpdateMessagingSettings, WHATSAPP_TEMPLATE_NAME } from '@tuitiondesk/contract';
import { DEFAULT_WHATSAPP_DAILY_LIMIT } from '../../config';
import type { AppContext } from '../../context';
import { defineSetting, settingGroup } from '../../db/settings';
import { type Actor, plural, recordActivity } from '../../lib/activity-log';
import { CENTRE_NAME_SETTING } from '../centre';
import { countConversationsToday } from './whatsapp-repository';

export interface MessagingSettingsRow {
  centre_name: string;
  whatsapp_fallback_minutes: number;
  not_reached_minutes: number;
  whatsapp_notice_template: string;
}

/**
 * The centre's message settings (migration 0009 stores the defaults); a value edited into nonsense falls
 * back to its default. A change reads them with `update`, holding the rows (in key order, the order it
 * writes them in) so that two changes at once apply one after the other.
 */
export const MESSAGING_SETTINGS = settingGroup<MessagingSettingsRow>({
  // The centre's name is the centre module's (ADR 042); the message settings read and write it with their own.
  centre_name: CENTRE_NAME_SETTING,
  whatsapp_fallback_minutes: defineSetting({
    key: 'whatsapp_fallback_minutes',
    fallback: 10,
    bounds: { min: 0, max: 1440 },
  }),
  not_reached_minutes: defineSetting({ key: 'not_reached_minutes', fallback: 30, bounds: { min: 1, max: 1440 } }),
  whatsapp_notice_template: defineSetting({
    key: 'whatsapp_notice_template',
    fallback: 'tuitiondesk_notice',
    accept: (text) => {
      const template = text.trim();
      return template && WHATSAPP_TEMPLATE_NAME.test(template) ? template : undefined;
    },
  }),
});

/** The centre's message settings as every sender reads them. */
export function readMessagingSettings(
  db: Parameters<typeof MESSAGING_SETTINGS.read>[0],
  lock?: 'update',
): Promise<MessagingSettingsRow> {
  return MESSAGING_SETTINGS.read(db, lock);
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
    await MESSAGING_SETTINGS.write(tx, after);
    const changed = describeMessagingChange(before, after);
    if (changed !== '') {
      await recordActivity(tx, actor, 'settings.updated', 'settings.messaging', { changes: changed });
    }
  });
  return getMessagingSettings(ctx);
}
