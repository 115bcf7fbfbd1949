import AuditPage from '../../features/audit/audit-page';
import { AuditRetentionSetting } from '../../features/settings/audit-retention-setting';

/** The audit log, with the centre's setting for how long it keeps its entries. Admins only. */
export default function AuditRoute() {
  return <AuditPage settings={<AuditRetentionSetting />} />;
}
