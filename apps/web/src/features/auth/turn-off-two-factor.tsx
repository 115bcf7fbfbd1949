import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { OneTimeCodeField } from './one-time-code-field';
import { PasswordField } from './password-field';
import { useDisableTwoFactor } from './two-factor-api';

/** Turning two-factor sign-in off takes the password and a code from the app (or a recovery code). */
export function TurnOffTwoFactor({ onTurnedOff }: { onTurnedOff: () => Promise<void> }) {
  const { t } = useTranslation('account');
  const disable = useDisableTwoFactor();
  const { showToast } = useToast();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const edit = (set: (value: string) => void) => (value: string) => {
    set(value);
    setError(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!password || !code.trim()) {
      setError(t('off.allRequired'));
      return;
    }
    setError(null);
    disable.mutate(
      { current_password: password, otp: code.trim() },
      {
        onSuccess: async () => {
          setPassword('');
          setCode('');
          showToast(t('off.turnedOff'), 'success');
          await onTurnedOff();
        },
        onError: (caught) => {
          setCode('');
          setError(errorText(caught, t('off.failed')));
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack spacing={2}>
        <Typography variant="subtitle2" component="h3">
          {t('off.title')}
        </Typography>
        {error && <Alert severity="error">{error}</Alert>}
        <PasswordField
          label={t('off.current')}
          value={password}
          onChange={edit(setPassword)}
          autoComplete="current-password"
        />
        <OneTimeCodeField value={code} onChange={edit(setCode)} allowRecoveryCode required />
        <Box>
          <Button type="submit" color="error" variant="outlined" disabled={disable.isPending}>
            {disable.isPending ? t('off.turningOff') : t('off.turnOff')}
          </Button>
        </Box>
      </Stack>
    </form>
  );
}
