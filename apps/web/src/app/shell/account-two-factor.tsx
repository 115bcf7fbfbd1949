import { TwoFactorDialog } from '../../features/auth/two-factor-dialog';
import { AdminTwoFactorSwitch } from '../../features/settings/admin-two-factor-switch';
import { useAuth } from '../../lib/auth/auth-provider';

/**
 * Two-factor sign-in from the account menu. An admin whose account has it on also finds there the
 * centre's rule that every admin must use it (it can only be turned on by an admin who has it).
 */
export function AccountTwoFactorDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { user } = useAuth();
  return (
    <TwoFactorDialog
      open={open}
      mode="account"
      onClose={onClose}
      afterStatus={
        user?.role === 'admin'
          ? (status) => <AdminTwoFactorSwitch requiredForAdmins={status.required_for_admins} />
          : undefined
      }
    />
  );
}
