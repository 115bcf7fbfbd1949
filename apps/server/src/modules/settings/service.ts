import { DEFAULT_COUNTRY_CODE, normaliseCountryCode, type PhoneSettings } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { defineSetting } from '../../db/settings';
import { type Actor, recordActivity } from '../../lib/activity-log';

/**
 * The code given to phones written without one (migration 0019 stores +91); a value edited into
 * nonsense reads as +91. A change reads it with `update`, so two changes at once apply one after the other.
 */
export const DEFAULT_COUNTRY_CODE_SETTING = defineSetting({
  key: 'default_country_code',
  fallback: DEFAULT_COUNTRY_CODE,
  accept: (text) => normaliseCountryCode(text),
});

export async function getPhoneSettings(ctx: AppContext): Promise<PhoneSettings> {
  return { default_country_code: await DEFAULT_COUNTRY_CODE_SETTING.read(ctx.db) };
}

/** Writes the default country code; a change (not a save of the same code) leaves an activity row. */
export async function updatePhoneSettings(
  ctx: AppContext,
  actor: Actor,
  update: PhoneSettings,
): Promise<PhoneSettings> {
  return ctx.db.transaction(async (tx) => {
    const code = update.default_country_code;
    const { changed } = await DEFAULT_COUNTRY_CODE_SETTING.change(tx, code);
    if (changed) await recordActivity(tx, actor, 'settings.updated', 'settings.country_code', { code });
    return { default_country_code: await DEFAULT_COUNTRY_CODE_SETTING.read(tx) };
  });
}
