import type { DashboardSummary } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { today } from '../../lib/time';
import { getSummary } from '../attendance/service';
import { familiesToCall } from '../call-list/service';
import { countCentre, findClassesWithoutAttendance } from './repository';

export async function getDashboard(ctx: AppContext): Promise<DashboardSummary> {
  const date = today();
  const [counts, month, unmarked, notReached] = await Promise.all([
    countCentre(ctx.db),
    getSummary(ctx),
    findClassesWithoutAttendance(ctx.db, date),
    familiesToCall(ctx),
  ]);
  return {
    date,
    ...counts,
    messages_sent: month.totals.messages_sent,
    not_reached: notReached,
    attendance_rate: month.metrics.attendance_rate,
    classes_without_attendance: [...unmarked],
  };
}
