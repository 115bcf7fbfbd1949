import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
} from '@mui/material';
import type { Student } from '@tuitiondesk/contract';
import { useState } from 'react';
import { DateField } from '../../components/date-field';
import { useTranslation } from '../../i18n';
import { todayIso } from '../../lib/dates';

interface Props {
  student: Student;
  busy: boolean;
  error: string | null;
  onCancel: () => void;
  onConfirm: (leftOn: string) => void;
}

/**
 * Mark as left, with the day (today unless changed, never a future one): the dialog is the
 * confirmation, and says what leaving does and that it can be undone, unlike Delete.
 */
export function LeaveDialog({ student, busy, error, onCancel, onConfirm }: Props) {
  const { t } = useTranslation('students');
  const [leftOn, setLeftOn] = useState(todayIso);
  const name = student.full_name;
  return (
    <Dialog open onClose={busy ? undefined : onCancel} aria-labelledby="student-leave-title" fullWidth maxWidth="xs">
      <DialogTitle id="student-leave-title">{t('leave.title', { name })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <DialogContentText>{t('leave.text', { name })}</DialogContentText>
          <DateField label={t('leave.leftOn')} value={leftOn} onChange={setLeftOn} disableFuture />
          {error && <Alert severity="error">{error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          {t('leave.cancel')}
        </Button>
        <Button variant="contained" onClick={() => onConfirm(leftOn)} disabled={busy}>
          {t('leave.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
