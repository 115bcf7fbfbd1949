import { Alert, AlertTitle, Button, Stack } from '@mui/material';
import type { MarkingReminder } from '@tuitiondesk/contract';
import { Link } from 'react-router';
import { useTranslation } from '../../i18n';
import { formatClock } from '../../lib/dates';
import { useClassText } from './class-text';

/**
 * Today's reminders of the teacher's classes still not marked, at the very top of the dashboard: the
 * words the push said, and one tap to the class's register. A card goes once its class is marked.
 */
export function ReminderCards({ reminders }: { reminders: readonly MarkingReminder[] }) {
  const { t } = useTranslation('dashboard');
  const classText = useClassText();
  if (reminders.length === 0) return null;
  return (
    <Stack spacing={1.5} sx={{ mb: 3 }}>
      {reminders.map((reminder) => (
        <Alert
          key={reminder.class_name}
          severity="warning"
          action={
            <Button
              component={Link}
              to={reminder.register_url}
              color="inherit"
              size="small"
              variant="outlined"
              aria-label={t('reminder.markFor', { name: classText(reminder.class_name) })}
            >
              {t('reminder.mark')}
            </Button>
          }
        >
          <AlertTitle>{reminder.text}</AlertTitle>
          {t('reminder.sentAt', { time: formatClock(reminder.reminded_at).slice(0, 5) })}
        </Alert>
      ))}
    </Stack>
  );
}
