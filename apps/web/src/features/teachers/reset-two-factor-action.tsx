import LockResetIcon from '@mui/icons-material/LockReset';
import type { Teacher } from '@tuitiondesk/contract';
import { useMemo } from 'react';
import type { RowAction } from '../../components/entity-list';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useResetTeacherTwoFactor } from './api';

/**
 * The row action for a teacher who lost their phone: offered only where two-factor sign-in is on,
 * it asks first, since until they set it up again their password alone signs them in.
 */
export function useResetTwoFactorAction(): readonly RowAction<Teacher>[] {
  const { showToast } = useToast();
  const { mutate: reset } = useResetTeacherTwoFactor();
  return useMemo<readonly RowAction<Teacher>[]>(
    () => [
      {
        id: 'reset-two-factor',
        tooltip: 'Reset two-factor sign-in (a lost phone)',
        label: (teacher) => `Reset two-factor sign-in for ${teacher.full_name}`,
        icon: <LockResetIcon fontSize="small" />,
        appliesTo: (teacher) => teacher.two_factor_enabled && teacher.user_id !== null,
        onClick: (teacher) => {
          if (teacher.user_id === null) return;
          const question = `Reset two-factor sign-in for ${teacher.full_name}? Until they set it up again, their password alone signs them in.`;
          if (!window.confirm(question)) return;
          reset(teacher.user_id, {
            onSuccess: () => showToast(`Two-factor sign-in reset for ${teacher.full_name}.`, 'success'),
            onError: (error) => showToast(errorText(error, 'Failed to reset two-factor sign-in'), 'error'),
          });
        },
      },
    ],
    [reset, showToast],
  );
}
