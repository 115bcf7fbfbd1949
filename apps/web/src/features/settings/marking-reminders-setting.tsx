import { FormControlLabel, Stack, Switch, TextField, Typography } from '@mui/material';
import type { MarkingReminderSettings, UpdateMarkingReminderSettings } from '@tuitiondesk/contract';
import { useState } from 'react';
import { englishText, type TFunction, useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useReminderSettings, useUpdateReminderSettings } from './reminders-api';

export const REMINDERS_LABEL = englishText('settings:reminders.label');
export const REMINDER_TIME_LABEL = englishText('settings:reminders.time');

const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;

function savedText(t: TFunction<'settings'>, settings: MarkingReminderSettings): string {
  return settings.marking_reminders ? t('reminders.on', { time: settings.reminder_time }) : t('reminders.off');
}

/**
 * The centre's marking reminders: on or off, and the time of day (the centre's clock) at which each
 * teacher with an assigned class still not marked gets a notification and a card on their dashboard.
 * Admins only, beside the absence alerts.
 */
export function MarkingRemindersSetting() {
  const { t } = useTranslation('settings');
  const { showToast } = useToast();
  const settings = useReminderSettings();
  const update = useUpdateReminderSettings();
  // What is typed in the time field, until it is saved (undefined: the saved time).
  const [typed, setTyped] = useState<string | undefined>();
  const saved = settings.data;
  const isOn = update.isPending
    ? (update.variables.marking_reminders ?? saved?.marking_reminders)
    : saved?.marking_reminders;
  const time = typed ?? saved?.reminder_time ?? '';
  const timeProblem = typed !== undefined && !TIME_OF_DAY.test(typed) ? t('reminders.timeProblem') : undefined;

  const save = (change: UpdateMarkingReminderSettings) => {
    update.mutate(change, {
      onSuccess: (answer) => {
        setTyped(undefined);
        showToast(savedText(t, answer), 'success');
      },
      onError: (error) => showToast(errorText(error, t('reminders.failed')), 'error'),
    });
  };

  const saveTime = () => {
    if (typed === undefined || timeProblem || typed === saved?.reminder_time) return;
    save({ reminder_time: typed });
  };

  const disabled = !settings.isSuccess || update.isPending;
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' }, mt: 1 }}>
      <FormControlLabel
        sx={{ m: 0, gap: 0.5 }}
        control={
          <Switch
            size="small"
            checked={isOn ?? false}
            disabled={disabled}
            onChange={(_event, next) => save({ marking_reminders: next })}
          />
        }
        label={
          <Typography variant="body2" color={settings.isError ? 'text.secondary' : undefined}>
            {t('reminders.label')}
            {settings.isError && ` ${t('unavailableNote')}`}
          </Typography>
        }
      />
      <TextField
        label={t('reminders.time')}
        type="time"
        size="small"
        value={time}
        disabled={disabled || !isOn}
        onChange={(event) => setTyped(event.target.value)}
        onBlur={saveTime}
        onKeyDown={(event) => {
          if (event.key === 'Enter') saveTime();
        }}
        error={Boolean(timeProblem)}
        helperText={timeProblem ?? t('reminders.hint')}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 300 } }}
        sx={{ width: 160 }}
      />
    </Stack>
  );
}
