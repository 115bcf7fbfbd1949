import PasswordIcon from '@mui/icons-material/Password';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { type ReactNode, useMemo, useState } from 'react';
import type { RowAction } from '../../components/entity-list';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useResetPassword } from './api';
import { type OneTimePassword, OneTimePasswordDialog } from './one-time-password-dialog';

/** Someone whose password can be reset: a teacher with an account, or an admin. */
export interface ResettableAccount {
  user_id: number | null;
  full_name: string;
}

/**
 * Reset password for a staff member (ADR 046): asks first (their sessions end and the old password
 * stops working), then shows the new password once. Answers the row action and the dialogs to render.
 */
export function usePasswordReset<T extends ResettableAccount>(): { action: RowAction<T>; dialogs: ReactNode } {
  const { t } = useTranslation('teachers');
  const reset = useResetPassword();
  const [asking, setAsking] = useState<ResettableAccount | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<OneTimePassword | null>(null);

  const action = useMemo<RowAction<T>>(
    () => ({
      id: 'reset-password',
      tooltip: t('resetPassword.tooltip'),
      label: (row) => t('resetPassword.label', { name: row.full_name }),
      icon: <PasswordIcon fontSize="small" />,
      appliesTo: (row) => row.user_id !== null,
      onClick: (row) => {
        setError(null);
        setAsking(row);
      },
    }),
    [t],
  );

  const confirm = () => {
    if (!asking?.user_id) return;
    reset.mutate(asking.user_id, {
      onSuccess: (answer) => {
        setAsking(null);
        setShown({
          title: t('resetPassword.doneTitle'),
          intro: t('resetPassword.intro', { name: answer.full_name }),
          username: answer.username,
          password: answer.new_password,
        });
      },
      onError: (failure) => setError(errorText(failure, t('resetPassword.failed'))),
    });
  };

  const dialogs = (
    <>
      <Dialog open={asking !== null} onClose={() => setAsking(null)} aria-labelledby="reset-password-title">
        <DialogTitle id="reset-password-title">
          {t('resetPassword.label', { name: asking?.full_name ?? '' })}
        </DialogTitle>
        <DialogContent>
          <DialogContentText>{t('resetPassword.question', { name: asking?.full_name ?? '' })}</DialogContentText>
          {error && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {error}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setAsking(null)}>{t('resetPassword.cancel')}</Button>
          <Button variant="contained" color="warning" onClick={confirm} disabled={reset.isPending}>
            {t('resetPassword.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
      {shown && <OneTimePasswordDialog shown={shown} onClose={() => setShown(null)} />}
    </>
  );
  return { action, dialogs };
}
