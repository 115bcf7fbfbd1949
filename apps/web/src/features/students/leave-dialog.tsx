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
  const [leftOn, setLeftOn] = useState(todayIso);
  const name = student.full_name;
  return (
    <Dialog open onClose={busy ? undefined : onCancel} aria-labelledby="student-leave-title" fullWidth maxWidth="xs">
      <DialogTitle id="student-leave-title">Mark {name} as left?</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <DialogContentText>
            {name} leaves the student list, the registers after that day and the messages to parents. Their attendance
            and messages stay in history and reports, and you can restore them from Students who left.
          </DialogContentText>
          <DateField label="Left on" value={leftOn} onChange={setLeftOn} disableFuture />
          {error && <Alert severity="error">{error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button variant="contained" onClick={() => onConfirm(leftOn)} disabled={busy}>
          Mark as left
        </Button>
      </DialogActions>
    </Dialog>
  );
}
