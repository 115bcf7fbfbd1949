import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import { normaliseTotpCode, type TwoFactorSetup } from '@tuitiondesk/contract';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { AuthenticatorKey } from './authenticator-key';
import { OneTimeCodeField } from './one-time-code-field';
import { useConfirmTwoFactor, useStartTwoFactorSetup } from './two-factor-api';

interface Props {
  /** The centre requires it: the setup starts at once. */
  required: boolean;
  /** Two-factor sign-in is on: here are the recovery codes, shown once. */
  onConfirmed: (codes: string[]) => void;
}

/**
 * Setting up an authenticator: what it is and a button to start, then the new key to scan and one code
 * from the app to confirm it. A fresh key can be asked for at any time before confirming.
 */
export function TwoFactorEnrol({ required, onConfirmed }: Props) {
  const start = useStartTwoFactorSetup();
  const confirm = useConfirmTwoFactor();
  const { showToast } = useToast();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  const begin = () => {
    setError(null);
    start.mutate(undefined, {
      onSuccess: (answer) => setSetup(answer),
      onError: (caught) => setError(errorText(caught, 'Failed to start two-factor setup')),
    });
  };
  // Someone required to set it up came here for nothing else: start at once, and only once (a second
  // setup racing the first could leave the screen showing a key the server has already replaced).
  const started = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the dialog opens
  useEffect(() => {
    if (required && !started.current) {
      started.current = true;
      begin();
    }
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const otp = normaliseTotpCode(code);
    if (!otp) {
      setError('Enter the 6-digit code your authenticator app shows');
      return;
    }
    setError(null);
    confirm.mutate(otp, {
      onSuccess: (answer) => {
        showToast('Two-factor sign-in is on', 'success');
        onConfirmed(answer.recovery_codes);
      },
      onError: (caught) => {
        setCode('');
        setError(errorText(caught, 'Failed to turn on two-factor sign-in'));
      },
    });
  };

  if (!setup) {
    return (
      <Stack spacing={2}>
        <Typography>
          Two-factor sign-in asks for a code from an authenticator app on your phone (such as Google Authenticator,
          Microsoft Authenticator or 1Password) each time you sign in, as well as your password.
        </Typography>
        {error && <Alert severity="error">{error}</Alert>}
        <Box>
          <Button variant="contained" onClick={begin} disabled={start.isPending}>
            {start.isPending ? 'Starting...' : 'Set up two-factor sign-in'}
          </Button>
        </Box>
      </Stack>
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack spacing={2}>
        <Typography>1. Scan this QR code with your authenticator app, or type the key below into it.</Typography>
        <AuthenticatorKey setup={setup} />
        <Typography>2. Enter the 6-digit code the app shows for TuitionDesk.</Typography>
        {error && <Alert severity="error">{error}</Alert>}
        <OneTimeCodeField
          value={code}
          onChange={(value) => {
            setCode(value);
            setError(null);
          }}
          autoFocus
          required
        />
        <Box sx={{ display: 'flex', gap: 1 }}>
          <Button type="submit" variant="contained" disabled={confirm.isPending || !code.trim()}>
            {confirm.isPending ? 'Confirming...' : 'Confirm'}
          </Button>
          <Button onClick={begin} disabled={start.isPending || confirm.isPending}>
            Start again with a new key
          </Button>
        </Box>
      </Stack>
    </form>
  );
}
