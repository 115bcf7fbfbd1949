import ApprovalPage from '../../features/attendance/approval-page';
import { AbsenceAlertsSwitch } from '../../features/settings/absence-alerts-switch';

/**
 * Attendance Approval, with the centre's switch for telling parents of the absences and late arrivals
 * approved here. The route is for admins only, and so is the switch.
 */
export default function ApprovalRoute() {
  return <ApprovalPage settings={<AbsenceAlertsSwitch />} />;
}
