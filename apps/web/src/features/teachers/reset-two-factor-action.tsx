import LockResetIcon from '@mui/icons-material/LockReset';
import type { Teacher } from '@tuitiondesk/contract';
import { useMemo } from 'react';
import type { RowAction } from '../../components/entity-list';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useResetTeacherTwoFactor } from './api';

/**
 * The row action for a teacher who lost their phone: offered only where two-factor sign-in is on,
 * it asks first, since until they set it up again their password alone signs them in.
 */
export function useResetTwoFactorAction(): readonly RowAction<Teacher>[] {
  const { t } = useTranslation('teachers');
  const { showToast } = useToast();
  const { mutate: reset } = useResetTeacherTwoFactor();
  return useMemo<readonly RowAction<Teacher>[]>(
    () => [
      {
        id: 'reset-two-factor',
        tooltip: t('resetTwoFactor.tooltip'),
        label: (teacher) => t('resetTwoFactor.label', { name: teacher.full_name }),
        icon: <LockResetIcon fontSize="small" />,
        appliesTo: (teacher) => teacher.two_factor_enabled && teacher.user_id !== null,
        onClick: (teacher) => {
          if (teacher.user_id === null) return;
          if (!window.confirm(t('resetTwoFactor.question', { name: teacher.full_name }))) return;
          reset(teacher.user_id, {
            onSuccess: () => showToast(t('resetTwoFactor.done', { name: teacher.full_name }), 'success'),
            onError: (error) => showToast(errorText(error, t('resetTwoFactor.failed')), 'error'),
          });
        },
      },
    ],
    [t, reset, showToast],
  );
}
