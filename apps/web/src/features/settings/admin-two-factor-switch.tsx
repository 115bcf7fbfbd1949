import { Box, FormControlLabel, Switch, Typography } from '@mui/material';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useUpdateTwoFactorPolicy } from './api';

export const REQUIRE_FOR_ADMINS_LABEL = 'Require two-factor sign-in for every admin';

/**
 * The centre's rule that every admin signs in with two-factor sign-in. `requiredForAdmins` is the rule
 * as the server last said; while a change is on its way the switch shows where it is going.
 */
export function AdminTwoFactorSwitch({ requiredForAdmins }: { requiredForAdmins: boolean }) {
  const update = useUpdateTwoFactorPolicy();
  const { showToast } = useToast();
  const checked = update.isPending ? update.variables.require_admin_two_factor : requiredForAdmins;

  const change = (next: boolean) => {
    update.mutate(
      { require_admin_two_factor: next },
      {
        onSuccess: (answer) =>
          showToast(
            answer.require_admin_two_factor
              ? 'Two-factor sign-in is now required for every admin'
              : 'Two-factor sign-in is no longer required for admins',
            'success',
          ),
        onError: (caught) => showToast(errorText(caught, 'Failed to update settings'), 'error'),
      },
    );
  };

  return (
    <Box>
      <FormControlLabel
        sx={{ m: 0, gap: 1 }}
        control={<Switch checked={checked} disabled={update.isPending} onChange={(_event, next) => change(next)} />}
        label={REQUIRE_FOR_ADMINS_LABEL}
      />
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
        Centre setting. Admins who have not set it up must do so at their next sign-in before they can continue.
      </Typography>
    </Box>
  );
}
