import SendIcon from '@mui/icons-material/Send';
import {
  Alert,
  Box,
  Button,
  FormControlLabel,
  MenuItem,
  Paper,
  Skeleton,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import type { FeeReminderRun, FeeReminderSchedule } from '@tuitiondesk/contract';
import { type ReactNode, useEffect, useState } from 'react';
import { NotLoaded } from '../../components/not-loaded';
import { type TFunction, useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { centreTimeZone, formatDayTime } from '../../lib/dates';
import { splitFieldError } from '../../lib/field-errors';
import { useToast } from '../../lib/toast';
import { HOURS, hourText } from './charge-run-tab';
import { ConfirmDialog } from './confirm-dialog';
import { ReminderDays } from './reminder-days';
import { ReminderPromises } from './reminder-promises';
import { useReminderSettings, useRunReminders, useUpdateReminderSettings } from './reminders-api';

const FIELDS = ['offsets', 'hour', 'enabled'] as const;

/** "12 families reminded, 3 had paid, 2 had promised": what a round did. */
function roundFigures(t: TFunction<'feeReminders'>, round: FeeReminderRun): string {
  return t('round.figures', {
    reminded: t('round.reminded', { count: round.sent }),
    paid: t('round.paid', { count: round.skipped_paid }),
    promised: t('round.promised', { count: round.skipped_promised }),
  });
}

/** The server's refusal: one about the days (`offsets[2]: …` too) or the hour shows on its field. */
function refusalOf(error: unknown, fallback: string) {
  if (!error) return splitFieldError(null, FIELDS);
  return splitFieldError(errorText(error, fallback).replace(/^offsets\[\d+\]:/, 'offsets:'), FIELDS);
}

function ScheduleForm({ schedule }: { schedule: FeeReminderSchedule }) {
  const { t } = useTranslation('feeReminders');
  const { showToast } = useToast();
  const update = useUpdateReminderSettings();
  const [draft, setDraft] = useState({ enabled: schedule.enabled, offsets: schedule.offsets, hour: schedule.hour });
  useEffect(
    () => setDraft({ enabled: schedule.enabled, offsets: schedule.offsets, hour: schedule.hour }),
    [schedule.enabled, schedule.offsets, schedule.hour],
  );
  const changed =
    draft.enabled !== schedule.enabled ||
    draft.hour !== schedule.hour ||
    draft.offsets.join() !== schedule.offsets.join();
  const refusal = refusalOf(update.error, t('schedule.saveFailed'));
  const edit = (change: Partial<typeof draft>) => {
    setDraft((now) => ({ ...now, ...change }));
    update.reset();
  };

  return (
    <Stack
      component="form"
      spacing={2}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        update.mutate(draft, { onSuccess: () => showToast(t('schedule.saved'), 'success') });
      }}
    >
      <FormControlLabel
        control={<Switch checked={draft.enabled} onChange={(event) => edit({ enabled: event.target.checked })} />}
        label={t('schedule.enabled')}
      />
      <ReminderDays days={draft.offsets} onChange={(offsets) => edit({ offsets })} error={refusal.fields.offsets} />
      <TextField
        select
        size="small"
        label={t('schedule.hour')}
        value={draft.hour}
        onChange={(event) => edit({ hour: Number(event.target.value) })}
        error={refusal.fields.hour !== undefined}
        helperText={refusal.fields.hour}
        sx={{ maxWidth: 200 }}
      >
        {HOURS.map((hour) => (
          <MenuItem key={hour} value={hour}>
            {hourText(hour)}
          </MenuItem>
        ))}
      </TextField>
      <Typography variant="body2" color="text.secondary">
        {draft.enabled
          ? t('schedule.explain', { hour: hourText(draft.hour), zone: centreTimeZone() })
          : t('schedule.off')}
      </Typography>
      {(refusal.form ?? refusal.fields.enabled) && (
        <Alert severity="error">{refusal.form ?? refusal.fields.enabled}</Alert>
      )}
      <Box>
        <Button type="submit" variant="contained" disabled={!changed || update.isPending}>
          {t('schedule.save')}
        </Button>
      </Box>
    </Stack>
  );
}

/** The latest round and "Send today's reminders now", with its figures once sent. */
function Round({ last }: { last: FeeReminderSchedule['last_run'] }) {
  const { t } = useTranslation('feeReminders');
  const run = useRunReminders();
  const [asking, setAsking] = useState(false);
  const [result, setResult] = useState<FeeReminderRun | null>(null);
  return (
    <Stack spacing={1.5}>
      <Typography variant="body2" data-testid="reminder-last-round">
        {last ? t('round.last', { when: formatDayTime(last.at), figures: roundFigures(t, last) }) : t('round.none')}
      </Typography>
      <Box>
        <Button
          variant="outlined"
          startIcon={<SendIcon />}
          onClick={() => {
            run.reset();
            setAsking(true);
          }}
        >
          {t('round.sendNow')}
        </Button>
      </Box>
      <Box aria-live="polite">
        {result && <Alert severity="success">{t('round.sent', { figures: roundFigures(t, result) })}</Alert>}
      </Box>
      {asking && (
        <ConfirmDialog
          title={t('round.confirmTitle')}
          text={t('round.confirmText')}
          confirm={t('round.send')}
          busy={run.isPending}
          failure={run.error ? errorText(run.error, t('round.failed')) : null}
          onClose={() => setAsking(false)}
          onConfirm={() =>
            run.mutate(undefined, {
              onSuccess: (answer) => {
                setResult(answer);
                setAsking(false);
              },
            })
          }
        />
      )}
    </Stack>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ p: 2 }}>
      <Typography id={id} component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/**
 * Fees › Reminders (issue 29 item 6, ADR 061): the days around each due date a family that still
 * owes is reminded, the hour, the latest round and a round by hand, whether WhatsApp carries them, and
 * the families whose promise to pay pauses their reminders.
 */
export function RemindersTab() {
  const { t } = useTranslation('feeReminders');
  const settings = useReminderSettings();
  let schedule: ReactNode;
  let round: ReactNode;
  if (settings.isPending) {
    schedule = <Skeleton height={160} aria-label={t('loading')} />;
    round = <Skeleton height={48} aria-label={t('loading')} />;
  } else if (!settings.data) {
    schedule = <NotLoaded text={errorText(settings.error, t('notLoaded'))} onRetry={() => void settings.refetch()} />;
    round = null;
  } else {
    schedule = (
      <>
        <ScheduleForm schedule={settings.data} />
        <Alert role="status" severity={settings.data.whatsapp_template ? 'info' : 'warning'} sx={{ mt: 2 }}>
          {settings.data.whatsapp_template ? t('whatsapp.on') : t('whatsapp.off')}
        </Alert>
      </>
    );
    round = <Round last={settings.data.last_run} />;
  }
  return (
    <Stack spacing={2} sx={{ p: { xs: 1.5, sm: 2 } }}>
      <Typography component="h2" variant="h6">
        {t('heading')}
      </Typography>
      <Section id="reminder-schedule-title" title={t('schedule.title')}>
        {schedule}
      </Section>
      {round && (
        <Section id="reminder-round-title" title={t('round.title')}>
          {round}
        </Section>
      )}
      <ReminderPromises />
    </Stack>
  );
}
