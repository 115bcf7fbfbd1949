import { createHash } from 'node:crypto';
import {
  API_BASE_PATH,
  type Centre,
  type PublicCentre,
  type UpdateCentre,
  type UploadCentreLogo,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { settingGroup } from '../../db/settings';
import { type Actor, recordActivity } from '../../lib/activity-log';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors';
import { centreOffsetMinutes, isTimeZone, setCentreTimeZone, today } from '../../lib/time';
import { centreZoneOf } from './clock';
import { readLogoUpload } from './logo';
import { deleteLogo, readLogo, readLogoHash, writeLogo } from './repository';
import { CENTRE_NAME_SETTING, CENTRE_TIME_ZONE_SETTING } from './settings';

const CENTRE_SETTINGS = settingGroup<{ name: string; time_zone: string }>({
  name: CENTRE_NAME_SETTING,
  time_zone: CENTRE_TIME_ZONE_SETTING,
});

type CentreContext = Pick<AppContext, 'config' | 'db' | 'reminders'>;

const logoUrl = (hash: string | undefined) =>
  hash === undefined ? null : `${API_BASE_PATH}/centre/logo?v=${hash.slice(0, 16)}`;

/** The centre as the console's settings and "today" read it; the clock follows what it reads. */
export async function getCentre(ctx: CentreContext): Promise<Centre> {
  const [stored, hash] = await Promise.all([CENTRE_SETTINGS.read(ctx.db), readLogoHash(ctx.db)]);
  const zone = centreZoneOf(ctx.config, stored.time_zone);
  // Another instance may have changed it a moment ago: the answer and this instance's clock agree.
  setCentreTimeZone(zone);
  return {
    name: stored.name,
    logo_url: logoUrl(hash),
    time_zone: zone,
    today: today(),
    utc_offset_minutes: centreOffsetMinutes(Date.now()),
    needs_set_up: ctx.config.timeZone === undefined && stored.time_zone === '',
    fixed_by_server: { name: false, time_zone: ctx.config.timeZone !== undefined },
  };
}

/** What the parent app's sign-in page shows before anyone signs in, and the zone its dates follow. */
export async function getPublicCentre(ctx: CentreContext): Promise<PublicCentre> {
  const [stored, hash] = await Promise.all([CENTRE_SETTINGS.read(ctx.db), readLogoHash(ctx.db)]);
  return { name: stored.name, logo_url: logoUrl(hash), time_zone: centreZoneOf(ctx.config, stored.time_zone) };
}

/**
 * `zone` spelled as the zone list spells it (`asia/kolkata` → `Asia/Kolkata`): this runtime's list, else
 * each word capitalised (the runtime's list may hold only an older name, Asia/Calcutta), else as written.
 */
function spelledAsListed(zone: string): string {
  const lower = zone.toLowerCase();
  const listed = Intl.supportedValuesOf('timeZone').find((name) => name.toLowerCase() === lower);
  if (listed) return listed;
  if (lower === 'utc' || lower === 'etc/utc') return 'UTC';
  const capitalised = lower.replace(
    /(^|[/_-])([a-z])/g,
    (_, separator: string, letter: string) => separator + letter.toUpperCase(),
  );
  return isTimeZone(capitalised) ? capitalised : zone;
}

/** A zone both this runtime and the database know, or a 422 saying to choose one from the list. */
async function checkedZone(ctx: CentreContext, written: string): Promise<string> {
  const refuse = () => new ValidationError('time_zone', 'validation.time_zone', { zone: written });
  if (!isTimeZone(written)) throw refuse();
  const zone = spelledAsListed(written);
  try {
    await ctx.db.query('SELECT now() AT TIME ZONE $1', [zone]);
  } catch {
    throw refuse();
  }
  return zone;
}

/**
 * Changes the centre's name and time zone (each only when given). A zone the server's TZ fixes is
 * refused with a 409 unless it is that same zone. Each change leaves an activity row (and, through the
 * settings table, audit rows) in the same transaction; the clock follows at once, with no restart.
 */
export async function updateCentre(ctx: CentreContext, actor: Actor, update: UpdateCentre): Promise<Centre> {
  let zone: string | undefined;
  if (update.time_zone !== undefined) {
    const fixed = ctx.config.timeZone;
    if (fixed !== undefined && update.time_zone !== fixed)
      throw new ConflictError('centre.time_zone_fixed', { zone: fixed });
    zone = fixed ?? (await checkedZone(ctx, update.time_zone));
  }
  let zoneChanged = false;
  await ctx.db.transaction(async (tx) => {
    // Key order (centre_name before centre_time_zone), as every writer of both takes them.
    if (update.name !== undefined) {
      const { changed } = await CENTRE_NAME_SETTING.change(tx, update.name);
      if (changed) await recordActivity(tx, actor, 'settings.updated', 'centre.name', { name: update.name });
    }
    if (zone !== undefined && ctx.config.timeZone === undefined) {
      const { changed } = await CENTRE_TIME_ZONE_SETTING.change(tx, zone);
      zoneChanged = changed;
      if (changed) await recordActivity(tx, actor, 'settings.updated', 'centre.time_zone', { zone });
    }
  });
  const centre = await getCentre(ctx);
  // Today's reminder time may have come (or not yet) on the new clock.
  if (zoneChanged) ctx.reminders?.wake();
  return centre;
}

/** Stores a new logo (a 422 for anything but a small PNG, JPEG or WebP picture). */
export async function uploadLogo(ctx: CentreContext, actor: Actor, upload: UploadCentreLogo): Promise<Centre> {
  const { bytes, contentType } = readLogoUpload(upload.image_base64);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  await ctx.db.transaction(async (tx) => {
    const changed = await writeLogo(tx, {
      contentType,
      imageBase64: bytes.toString('base64'),
      size: bytes.length,
      sha256,
    });
    if (changed) await recordActivity(tx, actor, 'settings.updated', 'centre.logo_set', {});
  });
  return getCentre(ctx);
}

export async function removeLogo(ctx: CentreContext, actor: Actor): Promise<Centre> {
  await ctx.db.transaction(async (tx) => {
    if (await deleteLogo(tx)) await recordActivity(tx, actor, 'settings.updated', 'centre.logo_removed', {});
  });
  return getCentre(ctx);
}

/** The logo's picture and type, for its public address (a 404 when there is none). */
export async function getLogo(ctx: CentreContext): Promise<{ bytes: Buffer; contentType: string; etag: string }> {
  const logo = await readLogo(ctx.db);
  if (!logo) throw new NotFoundError('centre.no_logo');
  return { bytes: Buffer.from(logo.image_base64, 'base64'), contentType: logo.content_type, etag: `"${logo.sha256}"` };
}
