import ApprovalPage from '../../features/attendance/approval-page';
import { AbsenceAlertsSwitch } from '../../features/settings/absence-alerts-switch';
import { MarkingRemindersSetting } from '../../features/settings/marking-reminders-setting';

/**
 * Attendance Approval, with the centre's switch for telling parents of the absences and late arrivals
 * approved here, and the reminders to teachers of classes left unmarked. The route is for admins only,
 * and so are the settings.
 */
export default function ApprovalRoute() {
  return (
    <ApprovalPage
      settings={
        <>
          <AbsenceAlertsSwitch />
          <MarkingRemindersSetting />
        </>
      }
    />
  );
}
