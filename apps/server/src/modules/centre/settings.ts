import { DEFAULT_CENTRE_NAME } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';
import { defineSetting, type SettingsLock } from '../../db/settings';
import { isTimeZone } from '../../lib/time';

/**
 * The centre's name, as families read it in messages and the parent app (migration 0009 stores the
 * default); a value edited into nonsense reads as the default.
 */
export const CENTRE_NAME_SETTING = defineSetting({
  key: 'centre_name',
  fallback: DEFAULT_CENTRE_NAME,
});

/** The centre's IANA time zone; '' (no row, or a name this runtime does not know): not set up yet. */
export const CENTRE_TIME_ZONE_SETTING = defineSetting({
  key: 'centre_time_zone',
  fallback: '',
  accept: (text) => (isTimeZone(text.trim()) ? text.trim() : undefined),
});

/** The centre's name, as every module that writes to families reads it. */
export function readCentreName(db: Queryable, lock?: SettingsLock): Promise<string> {
  return CENTRE_NAME_SETTING.read(db, lock);
}
