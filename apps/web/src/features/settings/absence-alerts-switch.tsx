import { FormControlLabel, Switch, Typography } from '@mui/material';
import { addEnglish, englishText, useTranslation } from '../../i18n';
import enSettings from '../../i18n/locales/en/settings.json';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useCentreSettings, useUpdateCentreSettings } from './api';

addEnglish('settings', enSettings);

export const ABSENCE_ALERTS_LABEL = englishText('settings:absenceAlerts.label');

/** The centre's absence-alerts setting, shown where absences are approved. Admins only. */
export function AbsenceAlertsSwitch() {
  const { t } = useTranslation('settings');
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
          showToast(answer.absence_alerts ? t('absenceAlerts.on') : t('absenceAlerts.off'), 'success'),
        onError: (error) => showToast(errorText(error, t('updateFailed')), 'error'),
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
          {t('absenceAlerts.label')}
          {settings.isError && ` ${t('unavailableNote')}`}
        </Typography>
      }
    />
  );
}
