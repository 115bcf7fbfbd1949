import { FormControlLabel, Stack, Switch, TextField, Typography } from '@mui/material';
import type { MarkingReminderSettings, UpdateMarkingReminderSettings } from '@tuitiondesk/contract';
import { useState } from 'react';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useReminderSettings, useUpdateReminderSettings } from './reminders-api';

export const REMINDERS_LABEL = 'Remind teachers of classes with no attendance marked';
export const REMINDER_TIME_LABEL = 'Reminder time';

const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;

function savedText(settings: MarkingReminderSettings): string {
  return settings.marking_reminders
    ? `Teachers are reminded at ${settings.reminder_time} of classes not marked`
    : 'Reminders to teachers turned off';
}

/**
 * The centre's marking reminders: on or off, and the time of day (the centre's clock) at which each
 * teacher with an assigned class still not marked gets a notification and a card on their dashboard.
 * Admins only, beside the absence alerts.
 */
export function MarkingRemindersSetting() {
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
  const timeProblem = typed !== undefined && !TIME_OF_DAY.test(typed) ? 'Enter a time such as 10:00' : undefined;

  const save = (change: UpdateMarkingReminderSettings) => {
    update.mutate(change, {
      onSuccess: (answer) => {
        setTyped(undefined);
        showToast(savedText(answer), 'success');
      },
      onError: (error) => showToast(errorText(error, 'Failed to update the reminders'), 'error'),
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
            {REMINDERS_LABEL}
            {settings.isError && ' (setting unavailable)'}
          </Typography>
        }
      />
      <TextField
        label={REMINDER_TIME_LABEL}
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
        helperText={timeProblem ?? "The centre's time"}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 300 } }}
        sx={{ width: 160 }}
      />
    </Stack>
  );
}
