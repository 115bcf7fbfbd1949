import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Divider, Stack } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import type { TwoFactorStatus } from '@tuitiondesk/contract';
import { type ReactNode, useState } from 'react';
import { DialogSpinner } from '../../components/dialog-spinner';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { fetchCurrentUser } from '../../lib/auth/api';
import { useAuth } from '../../lib/auth/auth-provider';
import { useTwoFactorStatus } from '../../lib/auth/two-factor-status';
import { RecoveryCodes } from './recovery-codes';
import { TwoFactorEnrol } from './two-factor-enrol';
import { TwoFactorOn } from './two-factor-on';

type Mode =
  /** From the account menu. */
  | 'account'
  /** The centre requires it of this admin, who has not set it up: cannot be dismissed. */
  | 'required';

interface Props {
  open: boolean;
  mode: Mode;
  onClose: () => void;
  /**
   * What the app places below an account's status once two-factor sign-in is on, from the account
   * menu (for an admin: the centre's rule for every admin), given the status as the server last said.
   */
  afterStatus?: (status: TwoFactorStatus) => ReactNode;
}

/**
 * Two-factor sign-in for the signed-in account: set up an authenticator (QR code, one code to confirm,
 * recovery codes shown once), or see it is on and turn it off with password and code. The dialog
 * chooses the step; each step is its own component.
 */
export function TwoFactorDialog({ open, mode, onClose, afterStatus }: Props) {
  const { t } = useTranslation('account');
  const auth = useAuth();
  const queryClient = useQueryClient();
  const status = useTwoFactorStatus(open);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const required = mode === 'required';

  // The user's flags (two_factor_enabled, must_enrol_two_factor) follow the server, without the
  // full-screen reload a session refresh would show.
  const refreshFlags = async () => {
    try {
      auth.updateUser(await fetchCurrentUser());
    } catch {
      // A failure here changes nothing the user needs now; the next start-up refreshes the user.
    }
  };
  const close = () => {
    setRecoveryCodes(null);
    onClose();
  };
  const finishEnrolment = async () => {
    await refreshFlags();
    // Calls refused while two-factor sign-in was due are asked again.
    void queryClient.invalidateQueries();
    setRecoveryCodes(null);
    onClose();
  };

  let body: ReactNode;
  if (recoveryCodes) {
    body = <RecoveryCodes codes={recoveryCodes} username={auth.user?.username ?? ''} onDone={finishEnrolment} />;
  } else if (status.isPending) {
    body = <DialogSpinner />;
  } else if (status.isError) {
    body = <Alert severity="error">{errorText(status.error, t('twoFactor.loadFailed'))}</Alert>;
  } else if (!status.data.enabled) {
    body = <TwoFactorEnrol required={required} onConfirmed={setRecoveryCodes} />;
  } else {
    body = <TwoFactorOn status={status.data} onTurnedOff={refreshFlags} />;
  }

  const showingCodes = Boolean(recoveryCodes);
  const below = afterStatus && !required && !showingCodes && status.data?.enabled ? afterStatus(status.data) : null;
  return (
    <Dialog
      open={open}
      onClose={required || showingCodes ? undefined : close}
      fullWidth
      maxWidth="sm"
      aria-labelledby="two-factor-title"
    >
      <DialogTitle id="two-factor-title">
        {showingCodes ? t('twoFactor.titleCodes') : required ? t('twoFactor.titleRequired') : t('twoFactor.title')}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {required && !showingCodes && <Alert severity="info">{t('twoFactor.requiredNote')}</Alert>}
          {body}
          {below && (
            <>
              <Divider />
              {below}
            </>
          )}
        </Stack>
      </DialogContent>
      {!showingCodes && (
        <DialogActions>
          {required ? (
            <Button onClick={auth.logout}>{t('twoFactor.signOut')}</Button>
          ) : (
            <Button onClick={close}>{t('twoFactor.close')}</Button>
          )}
        </DialogActions>
      )}
    </Dialog>
  );
}
