import { FormControlLabel, Switch, Typography } from '@mui/material';
import { englishText, useTranslation } from '../../i18n';
import { useCentreSettings, useUpdateCentreSettings } from './api';
import { useSettingSwitch } from './setting-switch';

export const ABSENCE_ALERTS_LABEL = englishText('settings:absenceAlerts.label');

/** The centre's absence-alerts setting, shown where absences are approved. Admins only. */
export function AbsenceAlertsSwitch() {
  const { t } = useTranslation('settings');
  const settings = useCentreSettings();
  const update = useUpdateCentreSettings();
  const { checked, change } = useSettingSwitch(
    update,
    'absence_alerts',
    settings.data?.absence_alerts ?? false,
    (on) => (on ? t('absenceAlerts.on') : t('absenceAlerts.off')),
    () => t('updateFailed'),
  );

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
