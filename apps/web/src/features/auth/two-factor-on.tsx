import { Alert, Stack, Typography } from '@mui/material';
import type { TwoFactorStatus } from '@tuitiondesk/contract';
import { useTranslation } from '../../i18n';
import { formatDayTime } from '../../lib/dates';
import { TurnOffTwoFactor } from './turn-off-two-factor';

/** Few enough recovery codes left to warn about. */
const FEW_CODES_LEFT = 3;

/**
 * An account with two-factor sign-in on: since when, how many recovery codes are left, and the way to
 * turn it off, unless the centre requires it of this account.
 */
export function TwoFactorOn({ status, onTurnedOff }: { status: TwoFactorStatus; onTurnedOff: () => Promise<void> }) {
  const { t } = useTranslation('account');
  const left = status.recovery_codes_left;
  return (
    <Stack spacing={2}>
      <Alert severity="success">
        {status.enabled_at ? t('on.statusSince', { since: formatDayTime(status.enabled_at) }) : t('on.status')}
      </Alert>
      <Typography color={left <= FEW_CODES_LEFT ? 'warning.main' : undefined}>
        {t('on.codesLeft', { count: left })}
        {left <= FEW_CODES_LEFT && ` ${t('on.fewLeft')}`}
      </Typography>
      {status.required ? (
        <Alert severity="info">{t('on.staysOn')}</Alert>
      ) : (
        <TurnOffTwoFactor onTurnedOff={onTurnedOff} />
      )}
    </Stack>
  );
}
