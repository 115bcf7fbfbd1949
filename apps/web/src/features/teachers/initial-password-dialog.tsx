import type { CreatedTeacher } from '@tuitiondesk/contract';
import { useTranslation } from '../../i18n';
import { OneTimePasswordDialog } from './one-time-password-dialog';

/**
 * Shown once, right after a teacher is created: the sign-in the admin must hand over. The server keeps
 * only a hash, so this is the only time the password can be read.
 */
export function InitialPasswordDialog({ teacher, onClose }: { teacher: CreatedTeacher; onClose: () => void }) {
  const { t } = useTranslation('teachers');
  const username = teacher.username ?? teacher.unique_id.toLowerCase();
  return (
    <OneTimePasswordDialog
      shown={{
        title: t('password.title'),
        intro: t('password.canSignIn', { name: teacher.full_name, id: teacher.unique_id }),
        username,
        password: teacher.initial_password,
        passwordLabel: t('password.initialPassword'),
        warning: t('password.warning'),
        clipboard: t('password.clipboard', { username, password: teacher.initial_password }),
      }}
      onClose={onClose}
    />
  );
}
