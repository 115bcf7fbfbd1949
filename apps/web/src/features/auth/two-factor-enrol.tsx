import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import { normaliseTotpCode, type TwoFactorSetup } from '@tuitiondesk/contract';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n';
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
  const { t } = useTranslation('account');
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
      onError: (caught) => setError(errorText(caught, t('enrol.startFailed'))),
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
      setError(t('enrol.enterCode'));
      return;
    }
    setError(null);
    confirm.mutate(otp, {
      onSuccess: (answer) => {
        showToast(t('enrol.turnedOn'), 'success');
        onConfirmed(answer.recovery_codes);
      },
      onError: (caught) => {
        setCode('');
        setError(errorText(caught, t('enrol.failed')));
      },
    });
  };

  if (!setup) {
    return (
      <Stack spacing={2}>
        <Typography>{t('enrol.intro')}</Typography>
        {error && <Alert severity="error">{error}</Alert>}
        <Box>
          <Button variant="contained" onClick={begin} disabled={start.isPending}>
            {start.isPending ? t('enrol.starting') : t('enrol.start')}
          </Button>
        </Box>
      </Stack>
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack spacing={2}>
        <Typography>{t('enrol.step1')}</Typography>
        <AuthenticatorKey setup={setup} />
        <Typography>{t('enrol.step2')}</Typography>
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
            {confirm.isPending ? t('enrol.confirming') : t('enrol.confirm')}
          </Button>
          <Button onClick={begin} disabled={start.isPending || confirm.isPending}>
            {t('enrol.restart')}
          </Button>
        </Box>
      </Stack>
    </form>
  );
}
