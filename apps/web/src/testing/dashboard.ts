import type { DashboardSummary } from '@tuitiondesk/contract';

/** The dashboard's figures for 22 Nov 2026: 120 students, 9 teachers, class 8 not marked yet. */
export function dashboardSummary(fields: Partial<DashboardSummary> = {}): DashboardSummary {
  return {
    date: '2026-11-22',
    total_students: 120,
    total_teachers: 9,
    active_classes: 4,
    pending_approval: 17,
    messages_sent: 43,
    not_reached: 0,
    reach: { families: 96, in_app: 12, whatsapp: 0, no_channel: 84 },
    attendance_rate: 92.5,
    classes_without_attendance: [{ class_name: '8', students: 31 }],
    classes_not_marked: [{ class_name: '8', students: 31, not_marked: 31 }],
    ...fields,
  };
}
