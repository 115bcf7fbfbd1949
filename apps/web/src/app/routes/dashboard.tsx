import { ChangePasswordButton } from '../../features/auth/change-password-button';
import DashboardPage from '../../features/dashboard/dashboard-page';
import { useAuth } from '../../lib/auth/auth-provider';

/** The dashboard; a teacher changes their own password from it. */
export default function DashboardRoute() {
  const { user } = useAuth();
  return <DashboardPage actions={user?.role === 'teacher' ? <ChangePasswordButton /> : undefined} />;
}
