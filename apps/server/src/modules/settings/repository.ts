import {
  DEFAULT_COUNTRY_CODE,
  type MarkingRules,
  normaliseCountryCode,
  TEACHER_MARK_DAYS_BACK_DEFAULT,
  TEACHER_MARK_DAYS_BACK_MAX,
  WHATSAPP_TEMPLATE_NAME,
} from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';
import { readSetting, readSettings, type SettingsLock, wholeNumberSetting, writeSettings } from '../../db/settings';

const ABSENCE_ALERTS_KEY = 'absence_alerts';

/** On unless the centre turned it off (migration 0002 stores 'true'). */
export async function readAbsenceAlerts(db: Queryable): Promise<boolean> {
  return (await readSetting(db, ABSENCE_ALERTS_KEY)) !== 'false';
}

export async function writeAbsenceAlerts(tx: Queryable, isOn: boolean): Promise<void> {
  await writeSettings(tx, { [ABSENCE_ALERTS_KEY]: String(isOn) });
}

export const REQUIRE_ADMIN_TWO_FACTOR_KEY = 'require_admin_two_factor';

/** Off unless an admin turned it on (migration 0005 stores 'false'). */
export async function readRequireAdminTwoFactor(db: Queryable): Promise<boolean> {
  return (await readSetting(db, REQUIRE_ADMIN_TWO_FACTOR_KEY)) === 'true';
}

export async function writeRequireAdminTwoFactor(tx: Queryable, isOn: boolean): Promise<void> {
  await writeSettings(tx, { [REQUIRE_ADMIN_TWO_FACTOR_KEY]: String(isOn) });
}

const DAYS_BACK_KEY = 'teacher_mark_days_back';
const ANY_CLASS_KEY = 'teachers_mark_any_class';

/**
 * The marking rules (migration 0007 stores the defaults). A marking holds the rows with `share` until
 * its transaction ends: an admin's change waits for the markings that read the old rules, so once the
 * change answers, nobody marks under the old ones. A change holds them with `update`. Rows are locked
 * in key order, the order a change writes them in, so no two of these deadlock.
 */
export async function readMarkingRules(db: Queryable, lock?: SettingsLock): Promise<MarkingRules> {
  const values = await readSettings(db, [DAYS_BACK_KEY, ANY_CLASS_KEY], lock);
  return {
    // A value edited by hand into something else falls back to the default, never to "no limit".
    teacher_mark_days_back: wholeNumberSetting(values.get(DAYS_BACK_KEY), TEACHER_MARK_DAYS_BACK_DEFAULT, {
      min: 0,
      max: TEACHER_MARK_DAYS_BACK_MAX,
    }),
    teachers_mark_any_class: values.get(ANY_CLASS_KEY) === 'true',
  };
}

export async function writeMarkingRules(tx: Queryable, rules: MarkingRules): Promise<void> {
  await writeSettings(tx, {
    [DAYS_BACK_KEY]: String(rules.teacher_mark_days_back),
    [ANY_CLASS_KEY]: String(rules.teachers_mark_any_class),
  });
}

export interface MessagingSettingsRow {
  centre_name: string;
  whatsapp_fallback_minutes: number;
  not_reached_minutes: number;
  whatsapp_notice_template: string;
}

const MESSAGING_DEFAULTS: MessagingSettingsRow = {
  centre_name: 'TuitionDesk',
  whatsapp_fallback_minutes: 10,
  not_reached_minutes: 30,
  whatsapp_notice_template: 'tuitiondesk_notice',
};

/**
 * The centre's message settings (migration 0009 stores the defaults); a value edited into nonsense falls
 * back to its default. A change reads them with `update`, holding the rows (in key order, the order it
 * writes them in) so that two changes at once apply one after the other.
 */
export async function readMessagingSettings(db: Queryable, lock?: 'update'): Promise<MessagingSettingsRow> {
  const values = await readSettings(db, Object.keys(MESSAGING_DEFAULTS), lock);
  const minutes = (key: 'whatsapp_fallback_minutes' | 'not_reached_minutes', min: number) =>
    wholeNumberSetting(values.get(key), MESSAGING_DEFAULTS[key], { min, max: 1440 });
  const name = values.get('centre_name')?.trim();
  const template = values.get('whatsapp_notice_template')?.trim();
  return {
    centre_name: name ? name : MESSAGING_DEFAULTS.centre_name,
    whatsapp_fallback_minutes: minutes('whatsapp_fallback_minutes', 0),
    not_reached_minutes: minutes('not_reached_minutes', 1),
    whatsapp_notice_template:
      template && WHATSAPP_TEMPLATE_NAME.test(template) ? template : MESSAGING_DEFAULTS.whatsapp_notice_template,
  };
}

export async function writeMessagingSettings(tx: Queryable, settings: MessagingSettingsRow): Promise<void> {
  await writeSettings(
    tx,
    Object.fromEntries(
      Object.keys(MESSAGING_DEFAULTS).map((key) => [key, String(settings[key as keyof MessagingSettingsRow])]),
    ),
  );
}

const DEFAULT_COUNTRY_CODE_KEY = 'default_country_code';

/**
 * The code given to phones written without one (migration 0019 stores +91); a value edited into
 * nonsense reads as +91. A change reads it with `update`, so two changes at once apply one after the other.
 */
export async function readDefaultCountryCode(db: Queryable, lock?: 'update'): Promise<string> {
  return normaliseCountryCode(await readSetting(db, DEFAULT_COUNTRY_CODE_KEY, lock)) ?? DEFAULT_COUNTRY_CODE;
}

export async function writeDefaultCountryCode(tx: Queryable, code: string): Promise<void> {
  await writeSettings(tx, { [DEFAULT_COUNTRY_CODE_KEY]: code });
}
