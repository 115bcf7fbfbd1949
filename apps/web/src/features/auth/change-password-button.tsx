import LockResetIcon from '@mui/icons-material/LockReset';
import { Button } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from '../../i18n';
import { ChangePasswordDialog } from './change-password-dialog';

/** A signed-in user's own password change: the button, and the dialog it opens. */
export function ChangePasswordButton() {
  const { t } = useTranslation('account');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outlined" startIcon={<LockResetIcon />} onClick={() => setOpen(true)}>
        {t('changePassword.button')}
      </Button>
      <ChangePasswordDialog open={open} mode="signed-in" onClose={() => setOpen(false)} />
    </>
  );
}
