import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import {
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Tooltip,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { useOfflineRosters } from '../../features/attendance/offline-rosters';
import { ATTENDANCE_QUERY_ROOT } from '../../features/attendance/pending-count';
import { waitingMarks } from '../../lib/offline/mark-queue';
import { markSync, shownWaiting, useMarkQueue } from '../../lib/offline/mark-sync';

/** "1 mark waiting to be sent", "30 marks waiting to be sent". */
export function waitingText(count: number): string {
  return `${count} mark${count === 1 ? '' : 's'} waiting to be sent`;
}

/**
 * What the console does for marking without a network, wherever the teacher is in it: the registers
 * they may mark are read ahead for the service worker to keep, and a queued submission answered by
 * the server refreshes every register and count.
 */
export function OfflineMarkingSupport({ isTeacher }: { isTeacher: boolean }) {
  const client = useQueryClient();
  useOfflineRosters(isTeacher);
  useEffect(() => markSync.onSent(() => void client.invalidateQueries({ queryKey: ATTENDANCE_QUERY_ROOT })), [client]);
  return null;
}

/** The top bar's count of marks kept on this device until the server has them; one tap to the register. */
export function MarksWaitingChip() {
  const queue = useMarkQueue();
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('sm'));
  const count = waitingMarks(shownWaiting(queue));
  if (count === 0) return null;
  const text = waitingText(count);
  return (
    <Tooltip title={wide ? '' : text}>
      <Chip
        component={Link}
        to="/mark-attendance"
        clickable
        color="warning"
        icon={<CloudUploadIcon />}
        label={wide ? text : String(count)}
        aria-label={text}
        sx={{ mr: 1, fontWeight: 600 }}
      />
    </Tooltip>
  );
}

/** Signing out with marks still on the device asks first: they stay, and go when this account signs in again. */
export function SignOutDialog({
  open,
  onCancel,
  onSignOut,
}: {
  open: boolean;
  onCancel: () => void;
  onSignOut: () => void;
}) {
  const queue = useMarkQueue();
  const count = waitingMarks(queue.entries);
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby="sign-out-title">
      <DialogTitle id="sign-out-title">{waitingText(count)}</DialogTitle>
      <DialogContent>
        <DialogContentText>
          These marks have not reached the server yet. If you sign out now they stay on this device and are sent when
          you sign in here again; nobody else who signs in on this device can send or see them.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} autoFocus>
          Stay signed in
        </Button>
        <Button color="warning" onClick={onSignOut}>
          Sign out anyway
        </Button>
      </DialogActions>
    </Dialog>
  );
}
