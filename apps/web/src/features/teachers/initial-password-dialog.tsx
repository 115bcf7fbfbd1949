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
import type { CreatedTeacher } from '@tuitiondesk/contract';
import { useState } from 'react';
import { useTranslation } from '../../i18n';

type CopyState = 'idle' | 'copied' | 'failed';

function Credential({ label, value }: { label: string; value: string }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography
        component="div"
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
 * Shown once, right after a teacher is created: the sign-in the admin must hand over. The server keeps
 * only a hash, so this is the only time the password can be read.
 */
export function InitialPasswordDialog({ teacher, onClose }: { teacher: CreatedTeacher; onClose: () => void }) {
  const { t } = useTranslation('teachers');
  const [copy, setCopy] = useState<CopyState>('idle');
  const username = teacher.username ?? teacher.unique_id.toLowerCase();

  const copyCredentials = async () => {
    try {
      await navigator.clipboard.writeText(t('password.clipboard', { username, password: teacher.initial_password }));
      setCopy('copied');
    } catch {
      // The clipboard is refused outside secure origins and without permission; the text stays selectable.
      setCopy('failed');
    }
  };

  return (
    <Dialog
      open
      // Only the button closes it: a stray click or Escape must not lose a password that is shown once.
      onClose={() => undefined}
      fullWidth
      maxWidth="xs"
      aria-labelledby="initial-password-title"
    >
      <DialogTitle id="initial-password-title">{t('password.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Typography>{t('password.canSignIn', { name: teacher.full_name, id: teacher.unique_id })}</Typography>
          <Credential label={t('password.username')} value={username} />
          <Credential label={t('password.initialPassword')} value={teacher.initial_password} />
          <Alert severity="warning">{t('password.warning')}</Alert>
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
