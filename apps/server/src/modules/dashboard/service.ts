import {
  ALL_PARENTS,
  type ClassDayState,
  type DashboardSummary,
  type MyClasses,
  registerUrl,
  reminderText,
} from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { formatTimestamp, parsePostgresTimestamp, today } from '../../lib/time';
import { getNotMarked, getSummary } from '../attendance';
import { familiesNotReached } from '../call-list';
import { readClassLabels } from '../classes';
import { countRecipientFamilies } from '../messages';
import { countCentre, findClassesWithoutAttendance, findMyClasses, type MyClassRow } from './repository';

export async function getDashboard(ctx: AppContext): Promise<DashboardSummary> {
  const date = today();
  const [counts, month, unmarked, notMarked, notReached, reach] = await Promise.all([
    countCentre(ctx.db),
    getSummary(ctx),
    findClassesWithoutAttendance(ctx.db, date),
    getNotMarked(ctx, date),
    familiesNotReached(ctx),
    countRecipientFamilies(ctx, ALL_PARENTS),
  ]);
  return {
    date,
    ...counts,
    messages_sent: month.totals.messages_sent,
    not_reached: notReached,
    reach: { families: reach.families, in_app: reach.in_app, whatsapp: reach.whatsapp, no_channel: reach.no_channel },
    attendance_rate: month.metrics.attendance_rate,
    classes_without_attendance: [...unmarked],
    classes_not_marked: notMarked.classes,
  };
}

const byClassOrder = (a: { class_name: string }, b: { class_name: string }) =>
  Number(a.class_name) - Number(b.class_name) || a.class_name.localeCompare(b.class_name);

function stateOf(row: MyClassRow): ClassDayState {
  if (row.marked === 0) return 'not_marked';
  return row.pending > 0 ? 'marked' : 'approved';
}

/**
 * The caller's assigned classes today, each with its state and its register, and the reminders of
 * those still not marked: a reminder's card goes once the class is marked.
 */
export async function getMyClasses(ctx: AppContext, userId: number): Promise<MyClasses> {
  const date = today();
  const [found, labelOf] = await Promise.all([findMyClasses(ctx.db, userId, date), readClassLabels(ctx.db)]);
  const rows = found.sort(byClassOrder);
  return {
    date,
    classes: rows.map((row) => ({
      class_name: row.class_name,
      students: row.students,
      marked: row.marked,
      pending: row.pending,
      state: stateOf(row),
      register_url: registerUrl(row.class_name, date),
    })),
    reminders: rows
      .filter((row) => row.reminded_at !== null && row.marked === 0)
      .map((row) => ({
        class_name: row.class_name,
        date,
        text: reminderText(labelOf(row.class_name)),
        reminded_at: formatTimestamp(parsePostgresTimestamp(row.reminded_at as string)),
        register_url: registerUrl(row.class_name, date),
      })),
  };
}
