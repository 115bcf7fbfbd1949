import CloudDoneIcon from '@mui/icons-material/CloudDone';
import CloudSyncIcon from '@mui/icons-material/CloudSync';
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
import dayjs from 'dayjs';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { useOfflineReadiness } from '../../features/attendance/offline-ready';
import { useOfflineRosters } from '../../features/attendance/offline-rosters';
import { ATTENDANCE_QUERY_ROOT } from '../../features/attendance/pending-count';
import { useTranslation } from '../../i18n';
import { useAuth } from '../../lib/auth/auth-provider';
import { waitingMarks } from '../../lib/offline/mark-queue';
import { markSync, shownWaiting, useMarkQueue } from '../../lib/offline/mark-sync';

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

/**
 * For a teacher, whether the console can mark with no network: "Ready to work offline" with the time
 * their registers were kept, or "Not ready yet" while the service worker and the registers are not
 * all there (ADR 048). The words on a wide screen, the icon with the words as its name on a phone.
 */
export function OfflineReadyIndicator() {
  const { t } = useTranslation('shell');
  const { user } = useAuth();
  const readiness = useOfflineReadiness(user?.id, user?.role === 'teacher');
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'));
  if (readiness.state === 'not-applicable') return null;
  const ready = readiness.state === 'ready';
  const time = ready ? dayjs(readiness.keptAt).format('HH:mm') : '';
  const detail = ready ? t('offline.readyDetail', { time }) : t('offline.notReadyDetail');
  const label = ready ? t('offline.ready', { time }) : t('offline.notReady');
  return (
    <Tooltip title={detail}>
      <Chip
        role="status"
        aria-label={detail}
        icon={ready ? <CloudDoneIcon /> : <CloudSyncIcon />}
        label={wide ? label : undefined}
        variant="outlined"
        sx={{
          mr: 1,
          color: 'inherit',
          borderColor: 'currentColor',
          fontWeight: 600,
          '& .MuiChip-icon': { color: 'inherit', mx: wide ? undefined : 0.75 },
          '& .MuiChip-label': { px: wide ? undefined : 0 },
        }}
      />
    </Tooltip>
  );
}

/** The top bar's count of marks kept on this device until the server has them; one tap to the register. */
export function MarksWaitingChip() {
  return (
    <>
      <OfflineReadyIndicator />
      <WaitingChip />
    </>
  );
}

function WaitingChip() {
  const { t } = useTranslation('shell');
  const queue = useMarkQueue();
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('sm'));
  const count = waitingMarks(shownWaiting(queue));
  if (count === 0) return null;
  const text = t('marksWaiting', { count });
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
  const { t } = useTranslation('shell');
  const queue = useMarkQueue();
  const count = waitingMarks(queue.entries);
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby="sign-out-title">
      <DialogTitle id="sign-out-title">{t('marksWaiting', { count })}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('signOut.body')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} autoFocus>
          {t('signOut.stay')}
        </Button>
        <Button color="warning" onClick={onSignOut}>
          {t('signOut.anyway')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
