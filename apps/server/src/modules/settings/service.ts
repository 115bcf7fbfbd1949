import type { CentreSettings } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { type Actor, recordActivity } from '../../lib/activity-log';
import { readAbsenceAlerts, writeAbsenceAlerts } from './repository';

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
