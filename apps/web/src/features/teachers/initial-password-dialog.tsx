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
  const [copy, setCopy] = useState<CopyState>('idle');
  const username = teacher.username ?? teacher.unique_id.toLowerCase();

  const copyCredentials = async () => {
    try {
      await navigator.clipboard.writeText(`Username: ${username}\nInitial password: ${teacher.initial_password}`);
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
      <DialogTitle id="initial-password-title">Teacher sign-in created</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Typography>
            {teacher.full_name} ({teacher.unique_id}) can now sign in with:
          </Typography>
          <Credential label="Username" value={username} />
          <Credential label="Initial password" value={teacher.initial_password} />
          <Alert severity="warning">
            This password will not be shown again. Copy it now and hand it to the teacher, who must change it at first
            sign-in.
          </Alert>
          {copy === 'failed' && (
            <Alert severity="info">Copying is not available here. Select the password and copy it by hand.</Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button
          onClick={() => void copyCredentials()}
          startIcon={copy === 'copied' ? <CheckIcon /> : <ContentCopyIcon />}
          color={copy === 'copied' ? 'success' : 'primary'}
        >
          {copy === 'copied' ? 'Copied' : 'Copy'}
        </Button>
        <Button variant="contained" onClick={onClose}>
          Done
        </Button>
      </DialogActions>
    </Dialog>
  );
}
