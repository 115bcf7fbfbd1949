import PlayArrowIcon from '@mui/icons-material/PlayArrow';
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
import type { FeeChargeSchedule } from '@tuitiondesk/contract';
import { type ReactNode, useEffect, useState } from 'react';
import { NotLoaded } from '../../components/not-loaded';
import { useTranslation } from '../../i18n';
import { currentLanguage } from '../../i18n/current';
import { errorText } from '../../lib/api-client';
import { centreTimeZone, formatDayTime, todayIso } from '../../lib/dates';
import { splitFieldError } from '../../lib/field-errors';
import { useToast } from '../../lib/toast';
import { useChargeSchedule, useRunCharges, useUpdateChargeSchedule } from './plans-api';

/** "November 2026" for `2026-11`, in the language in use. */
export function monthName(month: string): string {
  const [year, number] = month.split('-').map(Number);
  return new Intl.DateTimeFormat(`${currentLanguage()}-u-nu-latn`, {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(year ?? 1970, (number ?? 1) - 1, 1)));
}

/** The month after `month` (yyyy-MM): the latest the server runs. */
function nextMonth(month: string): string {
  const [year = 1970, number = 1] = month.split('-').map(Number);
  return number === 12 ? `${year + 1}-01` : `${year}-${String(number + 1).padStart(2, '0')}`;
}

const DAYS = Array.from({ length: 28 }, (_, index) => index + 1);
/** The hours a schedule may choose (the reminders' too), written 00:00 to 23:00. */
export const HOURS = Array.from({ length: 24 }, (_, index) => index);
export const hourText = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

function RunByHand() {
  const { t } = useTranslation('feePlans');
  const thisMonth = todayIso().slice(0, 7);
  const [month, setMonth] = useState(thisMonth);
  const run = useRunCharges();
  const [result, setResult] = useState<{ month: string; created: number } | null>(null);
  const isMonth = /^\d{4}-(0[1-9]|1[0-2])$/.test(month);
  const tooLate = isMonth && month > nextMonth(thisMonth);
  // A refusal of the month itself shows on the field; any other above the result.
  const refusal = splitFieldError(run.error ? errorText(run.error, t('run.failed')) : null, ['month'] as const);

  return (
    <Paper variant="outlined" component="section" aria-labelledby="charge-run-title" sx={{ p: 2 }}>
      <Typography id="charge-run-title" component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
        {t('run.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('run.neverTwice')}
      </Typography>
      <Stack
        component="form"
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: { xs: 'stretch', sm: 'flex-start' } }}
        onSubmit={(event) => {
          event.preventDefault();
          if (!isMonth || tooLate) return;
          setResult(null);
          run.mutate(month, { onSuccess: (answer) => setResult({ month, created: answer.created }) });
        }}
      >
        <TextField
          type="month"
          label={t('run.month')}
          value={month}
          onChange={(event) => {
            setMonth(event.target.value);
            setResult(null);
            run.reset();
          }}
          error={!isMonth || tooLate || refusal.fields.month !== undefined}
          helperText={
            !isMonth ? t('run.monthNeeded') : tooLate ? t('run.tooLate') : (refusal.fields.month ?? t('run.monthHint'))
          }
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: nextMonth(thisMonth) } }}
          size="small"
          sx={{ minWidth: 220 }}
        />
        <Button
          type="submit"
          variant="contained"
          startIcon={<PlayArrowIcon />}
          disabled={run.isPending || !isMonth || tooLate}
        >
          {isMonth ? t('run.button', { month: monthName(month) }) : t('run.buttonNoMonth')}
        </Button>
      </Stack>
      <Box aria-live="polite" sx={{ mt: 2 }}>
        {run.isPending && <Typography color="text.secondary">{t('run.running')}</Typography>}
        {result &&
          (result.created > 0 ? (
            <Alert severity="success">
              {t('run.created', { count: result.created, month: monthName(result.month) })}
            </Alert>
          ) : (
            <Alert severity="info">{t('run.nothingNew', { month: monthName(result.month) })}</Alert>
          ))}
        {refusal.form && <Alert severity="error">{refusal.form}</Alert>}
      </Box>
    </Paper>
  );
}

function ScheduleForm({ schedule }: { schedule: FeeChargeSchedule }) {
  const { t } = useTranslation('feePlans');
  const { showToast } = useToast();
  const update = useUpdateChargeSchedule();
  const [draft, setDraft] = useState(schedule);
  useEffect(() => setDraft(schedule), [schedule]);
  const changed = draft.automatic !== schedule.automatic || draft.day !== schedule.day || draft.hour !== schedule.hour;
  return (
    <Stack
      component="form"
      spacing={2}
      onSubmit={(event) => {
        event.preventDefault();
        update.mutate(
          { automatic: draft.automatic, day: draft.day, hour: draft.hour },
          {
            onSuccess: () => showToast(t('schedule.saved'), 'success'),
            onError: (error) => showToast(errorText(error, t('schedule.saveFailed')), 'error'),
          },
        );
      }}
    >
      <FormControlLabel
        control={
          <Switch
            checked={draft.automatic}
            onChange={(event) => setDraft({ ...draft, automatic: event.target.checked })}
          />
        }
        label={t('schedule.automatic')}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          select
          size="small"
          label={t('schedule.day')}
          value={draft.day}
          disabled={!draft.automatic}
          onChange={(event) => setDraft({ ...draft, day: Number(event.target.value) })}
          sx={{ minWidth: 160 }}
        >
          {DAYS.map((day) => (
            <MenuItem key={day} value={day}>
              {day}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('schedule.hour')}
          value={draft.hour}
          disabled={!draft.automatic}
          onChange={(event) => setDraft({ ...draft, hour: Number(event.target.value) })}
          sx={{ minWidth: 160 }}
        >
          {HOURS.map((hour) => (
            <MenuItem key={hour} value={hour}>
              {hourText(hour)}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {draft.automatic
          ? t('schedule.explain', { hour: hourText(draft.hour), day: draft.day, zone: centreTimeZone() })
          : t('schedule.off')}
      </Typography>
      <Box>
        <Button type="submit" variant="outlined" disabled={!changed || update.isPending}>
          {t('schedule.save')}
        </Button>
      </Box>
    </Stack>
  );
}

/** The latest run, by itself or by hand, so an owner sees that the automatic run happened. */
function LastRun({ run }: { run: FeeChargeSchedule['last_run'] }) {
  const { t } = useTranslation('feePlans');
  return (
    <Typography variant="body2" sx={{ mt: 2 }} data-testid="charge-last-run">
      {run
        ? t(run.automatic ? 'schedule.lastRunAutomatic' : 'schedule.lastRunByHand', {
            when: formatDayTime(run.at),
            month: monthName(run.month),
            count: run.created,
          })
        : t('schedule.noRunYet')}
    </Typography>
  );
}

function Schedule() {
  const { t } = useTranslation('feePlans');
  const schedule = useChargeSchedule();
  let body: ReactNode;
  if (schedule.isPending) body = <Skeleton height={96} aria-label={t('schedule.loading')} />;
  else if (!schedule.data) body = <NotLoaded text={t('schedule.notLoaded')} onRetry={() => void schedule.refetch()} />;
  else
    body = (
      <>
        <ScheduleForm schedule={schedule.data} />
        <LastRun run={schedule.data.last_run} />
      </>
    );
  return (
    <Paper variant="outlined" component="section" aria-labelledby="charge-schedule-title" sx={{ p: 2 }}>
      <Typography id="charge-schedule-title" component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {t('schedule.title')}
      </Typography>
      {body}
    </Paper>
  );
}

/**
 * Fees › Charge run (admins only; ADR 052, 056): raise a month's charges by hand, and when the run
 * happens by itself. Running a month again raises nothing twice (the server's answer says 0).
 */
export function ChargeRunTab() {
  const { t } = useTranslation('feePlans');
  return (
    <Stack spacing={2} sx={{ p: { xs: 1.5, sm: 2 } }}>
      <Typography component="h2" variant="h6">
        {t('run.heading')}
      </Typography>
      <RunByHand />
      <Schedule />
    </Stack>
  );
}
