import CloudDoneIcon from '@mui/icons-material/CloudDone';
import CloudOffIcon from '@mui/icons-material/CloudOff';
import { Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import dayjs from 'dayjs';
import { useTranslation } from '../../i18n';
import { useMarkQueue } from '../../lib/offline/mark-sync';
import type { RegisterKey } from './register-draft';

/** What the device knows of this register's last submit: kept until the network returns, or saved (when). */
function SubmitState({ register, compact }: { register: RegisterKey; compact: boolean }) {
  const { t } = useTranslation('attendance');
  const queue = useMarkQueue();
  const last = [...queue.entries]
    .reverse()
    .find((entry) => entry.class_name === register.className && entry.date === register.date);
  // Its first try is under way: Submit says Saving.
  if (!last || queue.firstSends.includes(last.submission_id)) return null;
  const refused = last.result?.refused.length ?? 0;
  const at = (time: string | null) => dayjs(time).format('HH:mm');
  // On a phone the bar keeps one line: the short words, the whole sentence as the element's title.
  const [icon, text, short, colour] = !last.sent_at
    ? [
        <CloudOffIcon key="i" fontSize="small" />,
        t('roster.keptAt', { time: at(last.queued_at) }),
        t('roster.waitingShort'),
        'warning.main',
      ]
    : refused > 0
      ? [
          <CloudDoneIcon key="i" fontSize="small" />,
          t('roster.savedRefused', { time: at(last.sent_at), count: refused }),
          t('roster.refusedShort', { count: refused }),
          'warning.main',
        ]
      : [
          <CloudDoneIcon key="i" fontSize="small" />,
          t('roster.savedAt', { time: at(last.sent_at) }),
          t('roster.savedAt', { time: at(last.sent_at) }),
          'success.main',
        ];
  return (
    <Typography
      variant={compact ? 'caption' : 'body2'}
      role="status"
      title={text}
      aria-label={text}
      sx={{ display: 'flex', alignItems: 'center', gap: 0.5, color: colour, minWidth: 0, fontWeight: 500 }}
    >
      {icon}
      <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        {compact ? short : text}
      </Box>
    </Typography>
  );
}

/**
 * The register's foot: what the device knows of its last submit, Mark all present and Submit. Stays in
 * view, on one line, while a long class scrolls past.
 */
export function RosterBar({
  register,
  compact,
  disabled,
  isSaving,
  onMarkAllPresent,
  onSubmit,
}: {
  register: RegisterKey;
  compact: boolean;
  /** Nothing left to mark, or a submit under way. */
  disabled: boolean;
  isSaving: boolean;
  onMarkAllPresent: () => void;
  onSubmit: () => void;
}) {
  const { t } = useTranslation('attendance');
  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{
        px: { xs: 1.5, sm: 2 },
        py: 1.5,
        alignItems: 'center',
        flexWrap: 'nowrap',
        position: 'sticky',
        bottom: 0,
        zIndex: 1,
        bgcolor: 'background.paper',
        borderTop: 1,
        borderColor: 'divider',
        borderRadius: '0 0 8px 8px',
      }}
    >
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <SubmitState register={register} compact={compact} />
      </Box>
      <Button
        onClick={onMarkAllPresent}
        disabled={disabled}
        aria-label={t('roster.markAllPresent')}
        sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
      >
        {compact ? t('roster.allPresent') : t('roster.markAllPresent')}
      </Button>
      <Button
        variant="contained"
        onClick={onSubmit}
        disabled={disabled}
        aria-label={isSaving ? undefined : t('roster.submitAttendance')}
        startIcon={isSaving ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
        sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
      >
        {isSaving ? t('roster.saving') : compact ? t('roster.submit') : t('roster.submitAttendance')}
      </Button>
    </Stack>
  );
}
