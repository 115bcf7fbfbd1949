import CheckIcon from '@mui/icons-material/Check';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from '../../i18n';

export interface OneTimePassword {
  /** The dialog's title: "Password reset", "Admin account created". */
  title: string;
  /** Who can now sign in, and how. */
  intro: string;
  username: string;
  password: string;
  /** The password's label, the warning and the copied text: a reset's unless given (a new teacher's first password). */
  passwordLabel?: string;
  warning?: string;
  clipboard?: string;
}

function Credential({ label, value }: { label: string; value: string }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography
        component="div"
        dir="ltr"
        sx={{
          fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
          fontSize: 18,
          fontWeight: 600,
          bgcolor: 'action.hover',
          borderRadius: 1,
          px: 1.5,
          py: 0.75,
          userSelect: 'all',
          wordBreak: 'break-all',
        }}
      >
        {value}
      </Typography>
    </Box>
  );
}

/**
 * A password the server answered once (a reset, a new admin): the server keeps only its hash, so this
 * is the only time it can be read. Only Done closes it, so a stray click cannot lose it.
 */
export function OneTimePasswordDialog({ shown, onClose }: { shown: OneTimePassword; onClose: () => void }) {
  const { t } = useTranslation('teachers');
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copyCredentials = async () => {
    try {
      await navigator.clipboard.writeText(
        shown.clipboard ?? t('resetPassword.clipboard', { username: shown.username, password: shown.password }),
      );
      setCopy('copied');
    } catch {
      // The clipboard is refused outside secure origins and without permission; the text stays selectable.
      setCopy('failed');
    }
  };
  return (
    <Dialog open onClose={() => undefined} fullWidth maxWidth="xs" aria-labelledby="one-time-password-title">
      <DialogTitle id="one-time-password-title">{shown.title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Typography>{shown.intro}</Typography>
          <Credential label={t('password.username')} value={shown.username} />
          <Credential label={shown.passwordLabel ?? t('resetPassword.newPassword')} value={shown.password} />
          <Alert severity="warning">{shown.warning ?? t('resetPassword.warning')}</Alert>
          {copy === 'failed' && <Alert severity="info">{t('password.copyUnavailable')}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button
          onClick={() => void copyCredentials()}
          startIcon={copy === 'copied' ? <CheckIcon /> : <ContentCopyIcon />}
          color={copy === 'copied' ? 'success' : 'primary'}
        >
          {copy === 'copied' ? t('password.copied') : t('password.copy')}
        </Button>
        <Button variant="contained" onClick={onClose}>
          {t('password.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
