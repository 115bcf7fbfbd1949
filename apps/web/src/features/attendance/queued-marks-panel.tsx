import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import { Alert, AlertTitle, Box, Button, Stack, Typography } from '@mui/material';
import { i18n, useTranslation } from '../../i18n';
import { formatClock, formatDay } from '../../lib/dates';
import { type QueuedMarks, waitingMarks } from '../../lib/offline/mark-queue';
import { markSync, shownWaiting, useMarkQueue } from '../../lib/offline/mark-sync';
import { answerText } from './answer-text';
import { classLabel } from './attendance-status';

function registerName(entry: QueuedMarks): string {
  return i18n.t('attendance:register', { class: classLabel(entry.class_name), date: formatDay(entry.date) });
}

/**
 * Mark Attendance's account of the device's queue: what waits to be sent (with Send now), and what
 * the server could not save, student by student, until the teacher has read it. Nothing a queue held
 * disappears without being shown here.
 */
export function QueuedMarksPanel() {
  const { t } = useTranslation('attendance');
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
              {queue.sending ? t('queue.sending') : t('queue.sendNow')}
            </Button>
          }
        >
          <AlertTitle>{t('queue.waiting', { count })}</AlertTitle>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {waiting.map((entry) => (
              <li key={entry.submission_id}>
                {t('queue.entry', {
                  register: registerName(entry),
                  count: entry.records.length,
                  time: formatClock(entry.queued_at),
                })}
              </li>
            ))}
          </Box>
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            {t('queue.keptHere')}
          </Typography>
        </Alert>
      )}
      {refused.map((entry) => (
        <Alert
          key={entry.submission_id}
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void markSync.dismiss([entry.submission_id])}>
              {t('queue.ok')}
            </Button>
          }
        >
          <AlertTitle>
            {t('queue.refusedTitle', {
              register: registerName(entry),
              time: formatClock(entry.sent_at),
              count: entry.result?.refused.length ?? 0,
            })}
          </AlertTitle>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {entry.result?.refused.map((refusal) => (
              <li key={refusal.student_id}>
                <strong>
                  {refusal.student_name ??
                    entry.names[refusal.student_id] ??
                    t('queue.student', { id: refusal.student_id })}
                </strong>
                : {answerText(refusal.reason, refusal)}
              </li>
            ))}
          </Box>
          {(entry.result?.marked_count ?? 0) > 0 && (
            <Typography variant="body2" sx={{ mt: 0.5 }}>
              {t('queue.othersSaved', { count: entry.result?.marked_count ?? 0 })}
            </Typography>
          )}
        </Alert>
      ))}
    </Stack>
  );
}
