import { FormControlLabel, Switch, Typography } from '@mui/material';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useCentreSettings, useUpdateCentreSettings } from './api';

export const ABSENCE_ALERTS_LABEL = 'Send absence alerts to parents when approving absent or late';

/** The centre's absence-alerts setting, shown where absences are approved. Admins only. */
export function AbsenceAlertsSwitch() {
  const { showToast } = useToast();
  const settings = useCentreSettings();
  const update = useUpdateCentreSettings();
  // While a change is on its way the switch shows where it is going, not where it was.
  const checked = update.isPending ? update.variables.absence_alerts : (settings.data?.absence_alerts ?? false);

  const change = (next: boolean) => {
    update.mutate(
      { absence_alerts: next },
      {
        onSuccess: (answer) =>
          showToast(answer.absence_alerts ? 'Absence alerts turned on' : 'Absence alerts turned off', 'success'),
        onError: (error) => showToast(errorText(error, 'Failed to update settings'), 'error'),
      },
    );
  };

  return (
    <FormControlLabel
      sx={{ m: 0, gap: 0.5 }}
      control={
        <Switch
          size="small"
          checked={checked}
          disabled={!settings.isSuccess || update.isPending}
          onChange={(_event, next) => change(next)}
        />
      }
      label={
        <Typography variant="body2" color={settings.isError ? 'text.secondary' : undefined}>
          {ABSENCE_ALERTS_LABEL}
          {settings.isError && ' (setting unavailable)'}
        </Typography>
      }
    />
  );
}
