import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import { Alert, AlertTitle, Box, Button, Stack, Typography } from '@mui/material';
import { formatClock, formatDay } from '../../lib/dates';
import { type QueuedMarks, waitingMarks } from '../../lib/offline/mark-queue';
import { markSync, shownWaiting, useMarkQueue } from '../../lib/offline/mark-sync';
import { classLabel } from './attendance-status';

function registerName(entry: QueuedMarks): string {
  return `${classLabel(entry.class_name)}, ${formatDay(entry.date)}`;
}

/**
 * Mark Attendance's account of the device's queue: what waits to be sent (with Send now), and what
 * the server could not save, student by student, until the teacher has read it. Nothing a queue held
 * disappears without being shown here.
 */
export function QueuedMarksPanel() {
  const queue = useMarkQueue();
  const waiting = shownWaiting(queue);
  const refused = queue.entries.filter(
    (entry) => entry.sent_at && !entry.dismissed && (entry.result?.refused.length ?? 0) > 0,
  );
  const count = waitingMarks(waiting);
  if (waiting.length === 0 && refused.length === 0) return null;
  return (
    <Stack spacing={1.5}>
      {waiting.length > 0 && (
        <Alert
          severity="warning"
          icon={<CloudUploadIcon />}
          action={
            <Button color="inherit" size="small" disabled={queue.sending} onClick={() => void markSync.send()}>
              {queue.sending ? 'Sending...' : 'Send now'}
            </Button>
          }
        >
          <AlertTitle>
            {count} mark{count === 1 ? '' : 's'} waiting to be sent
          </AlertTitle>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {waiting.map((entry) => (
              <li key={entry.submission_id}>
                {registerName(entry)}: {entry.records.length} mark{entry.records.length === 1 ? '' : 's'}, kept at{' '}
                {formatClock(entry.queued_at)}
              </li>
            ))}
          </Box>
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            They are kept on this device and sent by themselves when the network returns.
          </Typography>
        </Alert>
      )}
      {refused.map((entry) => (
        <Alert
          key={entry.submission_id}
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void markSync.dismiss([entry.submission_id])}>
              OK
            </Button>
          }
        >
          <AlertTitle>
            {registerName(entry)}: sent at {formatClock(entry.sent_at)}, {entry.result?.refused.length} not saved
          </AlertTitle>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {entry.result?.refused.map((refusal) => (
              <li key={refusal.student_id}>
                <strong>
                  {refusal.student_name ?? entry.names[refusal.student_id] ?? `Student ${refusal.student_id}`}
                </strong>
                : {refusal.reason}
              </li>
            ))}
          </Box>
          {(entry.result?.marked_count ?? 0) > 0 && (
            <Typography variant="body2" sx={{ mt: 0.5 }}>
              The other {entry.result?.marked_count} mark{entry.result?.marked_count === 1 ? ' was' : 's were'} saved.
            </Typography>
          )}
        </Alert>
      ))}
    </Stack>
  );
}
