import {
  type CentreSettings,
  type MarkingRules,
  TEACHER_MARK_DAYS_BACK_DEFAULT,
  TEACHER_MARK_DAYS_BACK_MAX,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { defineSetting, settingGroup } from '../../db/settings';
import { type Actor, recordActivity } from '../../lib/activity-log';

/** Absence alerts on approval: on unless the centre turned them off (migration 0002 stores 'true'). */
export const ABSENCE_ALERTS = defineSetting({ key: 'absence_alerts', fallback: true });

/**
 * The marking rules (migration 0007 stores the defaults). A marking holds the rows with `share` until
 * its transaction ends: an admin's change waits for the markings that read the old rules, so once the
 * change answers, nobody marks under the old ones. A change holds them with `update`. Rows are locked
 * in key order, the order a change writes them in, so no two of these deadlock. A value edited by hand
 * into something else falls back to the default, never to "no limit".
 */
export const MARKING_RULES = settingGroup<MarkingRules>({
  teacher_mark_days_back: defineSetting({
    key: 'teacher_mark_days_back',
    fallback: TEACHER_MARK_DAYS_BACK_DEFAULT,
    bounds: { min: 0, max: TEACHER_MARK_DAYS_BACK_MAX },
  }),
  teachers_mark_any_class: defineSetting({ key: 'teachers_mark_any_class', fallback: false }),
});

export async function getSettings(ctx: AppContext): Promise<CentreSettings> {
  return { absence_alerts: await ABSENCE_ALERTS.read(ctx.db) };
}

export async function updateSettings(ctx: AppContext, actor: Actor, update: CentreSettings): Promise<CentreSettings> {
  return ctx.db.transaction(async (tx) => {
    await ABSENCE_ALERTS.write(tx, update.absence_alerts);
    await recordActivity(tx, actor, 'settings.updated', 'settings.absence_alerts', {
      state: update.absence_alerts ? 'on' : 'off',
    });
    return { absence_alerts: await ABSENCE_ALERTS.read(tx) };
  });
}

export async function getMarkingRules(ctx: AppContext): Promise<MarkingRules> {
  return MARKING_RULES.read(ctx.db);
}

/** Writes the rules; a change (not a save of the same values) leaves an activity row saying what they are now. */
export async function updateMarkingRules(ctx: AppContext, actor: Actor, update: MarkingRules): Promise<MarkingRules> {
  return ctx.db.transaction(async (tx) => {
    const before = await MARKING_RULES.read(tx, 'update');
    const isChange =
      before.teacher_mark_days_back !== update.teacher_mark_days_back ||
      before.teachers_mark_any_class !== update.teachers_mark_any_class;
    if (isChange) {
      await MARKING_RULES.write(tx, update);
      await recordActivity(tx, actor, 'settings.updated', 'settings.marking_rules', {
        any_class: update.teachers_mark_any_class ? 'yes' : 'no',
        days: update.teacher_mark_days_back,
      });
    }
    return MARKING_RULES.read(tx);
  });
}
