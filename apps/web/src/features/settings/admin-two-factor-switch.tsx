import { Box, FormControlLabel, Switch, Typography } from '@mui/material';
import { englishText, useTranslation } from '../../i18n';
import { useUpdateTwoFactorPolicy } from './api';
import { useSettingSwitch } from './setting-switch';

export const REQUIRE_FOR_ADMINS_LABEL = englishText('settings:adminTwoFactor.label');

/**
 * The centre's rule that every admin signs in with two-factor sign-in. `requiredForAdmins` is the rule
 * as the server last said; while a change is on its way the switch shows where it is going.
 */
export function AdminTwoFactorSwitch({ requiredForAdmins }: { requiredForAdmins: boolean }) {
  const { t } = useTranslation('settings');
  const update = useUpdateTwoFactorPolicy();
  const { checked, change } = useSettingSwitch(
    update,
    'require_admin_two_factor',
    requiredForAdmins,
    (on) => (on ? t('adminTwoFactor.on') : t('adminTwoFactor.off')),
    () => t('updateFailed'),
  );

  return (
    <Box>
      <FormControlLabel
        sx={{ m: 0, gap: 1 }}
        control={<Switch checked={checked} disabled={update.isPending} onChange={(_event, next) => change(next)} />}
        label={t('adminTwoFactor.label')}
      />
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
        {t('adminTwoFactor.note')}
      </Typography>
    </Box>
  );
}
