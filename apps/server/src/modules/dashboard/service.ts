import type { DashboardSummary } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { today } from '../../lib/time';
import { getSummary } from '../attendance/service';
import { countCentre, findClassesWithoutAttendance } from './repository';

export async function getDashboard(ctx: AppContext): Promise<DashboardSummary> {
  const date = today();
  const [counts, month, unmarked] = await Promise.all([
    countCentre(ctx.db),
    getSummary(ctx),
    findClassesWithoutAttendance(ctx.db, date),
  ]);
  return {
    date,
    ...counts,
    messages_sent: month.totals.messages_sent,
    attendance_rate: month.metrics.attendance_rate,
    classes_without_attendance: [...unmarked],
  };
}
