import { Alert, Stack, Typography } from '@mui/material';
import type { TwoFactorStatus } from '@tuitiondesk/contract';
import { formatDayTime } from '../../lib/dates';
import { TurnOffTwoFactor } from './turn-off-two-factor';

/** Few enough recovery codes left to warn about. */
const FEW_CODES_LEFT = 3;

/**
 * An account with two-factor sign-in on: since when, how many recovery codes are left, and the way to
 * turn it off, unless the centre requires it of this account.
 */
export function TwoFactorOn({ status, onTurnedOff }: { status: TwoFactorStatus; onTurnedOff: () => Promise<void> }) {
  const left = status.recovery_codes_left;
  return (
    <Stack spacing={2}>
      <Alert severity="success">
        Two-factor sign-in is on{status.enabled_at ? ` (since ${formatDayTime(status.enabled_at)})` : ''}. Sign-in asks
        for a code from your authenticator app.
      </Alert>
      <Typography color={left <= FEW_CODES_LEFT ? 'warning.main' : undefined}>
        {left === 1 ? '1 recovery code left.' : `${left} recovery codes left.`}
        {left <= FEW_CODES_LEFT && ' To get new ones, turn two-factor sign-in off and set it up again.'}
      </Typography>
      {status.required ? (
        <Alert severity="info">The centre requires two-factor sign-in for every admin, so it stays on.</Alert>
      ) : (
        <TurnOffTwoFactor onTurnedOff={onTurnedOff} />
      )}
    </Stack>
  );
}
