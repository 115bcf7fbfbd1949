import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DownloadIcon from '@mui/icons-material/Download';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  FormControlLabel,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { normaliseTotpCode, type TwoFactorSetup, type TwoFactorStatus } from '@tuitiondesk/contract';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { errorText, saveFile } from '../../lib/api-client';
import { formatDayTime } from '../../lib/dates';
import { useToast } from '../../lib/toast';
import { fetchCurrentUser } from './api';
import { useAuth } from './auth-provider';
import { OneTimeCodeField } from './one-time-code-field';
import {
  useConfirmTwoFactor,
  useDisableTwoFactor,
  useStartTwoFactorSetup,
  useTwoFactorStatus,
  useUpdateTwoFactorPolicy,
} from './two-factor-api';

const MONOSPACE = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';
export const REQUIRE_FOR_ADMINS_LABEL = 'Require two-factor sign-in for every admin';
export const RECOVERY_CODES_FILE = 'tuitiondesk-recovery-codes.txt';

type Mode =
  /** From the account menu. */
  | 'account'
  /** The centre requires it of this admin, who has not set it up: cannot be dismissed. */
  | 'required';

interface Props {
  open: boolean;
  mode: Mode;
  onClose: () => void;
}

/** `ABCD EFGH …`: a long secret is easier to type into a phone in groups of four. */
export function groupSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

export function recoveryCodesText(username: string, codes: string[]): string {
  return [
    `TuitionDesk recovery codes for ${username}`,
    'Each code signs you in once, in place of the code from your authenticator app.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/**
 * Two-factor sign-in for the signed-in account (issue 6): set up an authenticator (QR code, one code
 * to confirm, recovery codes shown once), or see it is on and turn it off with password and code.
 * Admins also find the centre's "require for every admin" switch here.
 */
export function TwoFactorDialog({ open, mode, onClose }: Props) {
  const auth = useAuth();
  const queryClient = useQueryClient();
  const status = useTwoFactorStatus(open);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const required = mode === 'required';

  // The user's flags (two_factor_enabled, must_enrol_two_factor) follow the server, without the
  // full-screen reload a session refresh would show.
  const refreshFlags = async () => {
    try {
      auth.updateUser(await fetchCurrentUser());
    } catch {
      // A failure here changes nothing the user needs now; the next start-up refreshes the user.
    }
  };
  const close = () => {
    setRecoveryCodes(null);
    onClose();
  };
  const finishEnrolment = async () => {
    await refreshFlags();
    // Calls refused while two-factor sign-in was due are asked again.
    void queryClient.invalidateQueries();
    setRecoveryCodes(null);
    onClose();
  };

  let body: ReactNode;
  if (recoveryCodes) {
    body = <RecoveryCodes codes={recoveryCodes} username={auth.user?.username ?? ''} onDone={finishEnrolment} />;
  } else if (status.isPending) {
    body = (
      <Box sx={{ display: 'grid', placeItems: 'center', py: 4 }}>
        <CircularProgress aria-label="Loading" />
      </Box>
    );
  } else if (status.isError) {
    body = <Alert severity="error">{errorText(status.error, 'Failed to load two-factor sign-in')}</Alert>;
  } else if (!status.data.enabled) {
    body = <Enrol required={required} onConfirmed={setRecoveryCodes} />;
  } else {
    body = (
      <Enabled
        status={status.data}
        onDisabled={async () => {
          await refreshFlags();
        }}
      />
    );
  }

  const showingCodes = Boolean(recoveryCodes);
  return (
    <Dialog
      open={open}
      onClose={required || showingCodes ? undefined : close}
      fullWidth
      maxWidth="sm"
      aria-labelledby="two-factor-title"
    >
      <DialogTitle id="two-factor-title">
        {showingCodes ? 'Save your recovery codes' : required ? 'Set up two-factor sign-in' : 'Two-factor sign-in'}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {required && !showingCodes && (
            <Alert severity="info">
              The centre requires two-factor sign-in for every admin. Set it up to continue.
            </Alert>
          )}
          {body}
          {auth.user?.role === 'admin' && !required && !showingCodes && status.data?.enabled && (
            <>
              <Divider />
              <AdminPolicySwitch status={status.data} />
            </>
          )}
        </Stack>
      </DialogContent>
      {!showingCodes && (
        <DialogActions>
          {required ? <Button onClick={auth.logout}>Sign out</Button> : <Button onClick={close}>Close</Button>}
        </DialogActions>
      )}
    </Dialog>
  );
}

function Enrol({ required, onConfirmed }: { required: boolean; onConfirmed: (codes: string[]) => void }) {
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
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
          <Box
            component="img"
            src={setup.qr_code}
            alt="QR code to scan with your authenticator app"
            sx={{ width: 184, height: 184, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'white' }}
          />
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="body2" color="text.secondary">
              Key (time-based, 6 digits)
            </Typography>
            <Typography
              data-testid="two-factor-secret"
              sx={{ fontFamily: MONOSPACE, fontSize: 15, wordBreak: 'break-all', userSelect: 'all' }}
            >
              {groupSecret(setup.secret)}
            </Typography>
            <Button
              size="small"
              startIcon={<ContentCopyIcon />}
              onClick={() => {
                void navigator.clipboard?.writeText(setup.secret).then(
                  () => showToast('Key copied', 'success'),
                  () => showToast('Copy failed: select the key and copy it', 'warning'),
                );
              }}
            >
              Copy key
            </Button>
          </Box>
        </Box>
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

function RecoveryCodes({ codes, username, onDone }: { codes: string[]; username: string; onDone: () => void }) {
  const { showToast } = useToast();
  const [saved, setSaved] = useState(false);
  const text = recoveryCodesText(username, codes);
  return (
    <Stack spacing={2} sx={{ pt: 1 }}>
      <Alert severity="warning">
        Save these recovery codes somewhere safe now. If you lose your phone, each one signs you in once instead of a
        code from the app. They will not be shown again.
      </Alert>
      <Box
        component="ol"
        aria-label="Recovery codes"
        sx={{
          m: 0,
          p: 2,
          pl: 5,
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
          columnGap: 4,
          rowGap: 0.5,
          bgcolor: 'grey.100',
          borderRadius: 1,
          fontFamily: MONOSPACE,
          fontSize: 16,
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button
          startIcon={<ContentCopyIcon />}
          onClick={() => {
            void navigator.clipboard?.writeText(text).then(
              () => showToast('Recovery codes copied', 'success'),
              () => showToast('Copy failed: download the codes instead', 'warning'),
            );
          }}
        >
          Copy codes
        </Button>
        <Button
          startIcon={<DownloadIcon />}
          onClick={() => saveFile(new Blob([text], { type: 'text/plain' }), RECOVERY_CODES_FILE)}
        >
          Download codes
        </Button>
      </Box>
      <FormControlLabel
        control={<Checkbox checked={saved} onChange={(_event, checked) => setSaved(checked)} />}
        label="I have saved my recovery codes"
      />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', pb: 1 }}>
        <Button variant="contained" onClick={onDone} disabled={!saved}>
          Done
        </Button>
      </Box>
    </Stack>
  );
}

function Enabled({ status, onDisabled }: { status: TwoFactorStatus; onDisabled: () => Promise<void> }) {
  const disable = useDisableTwoFactor();
  const { showToast } = useToast();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!password || !code.trim()) {
      setError('All fields are required');
      return;
    }
    setError(null);
    disable.mutate(
      { current_password: password, otp: code.trim() },
      {
        onSuccess: async () => {
          setPassword('');
          setCode('');
          showToast('Two-factor sign-in turned off', 'success');
          await onDisabled();
        },
        onError: (caught) => {
          setCode('');
          setError(errorText(caught, 'Failed to turn off two-factor sign-in'));
        },
      },
    );
  };

  const left = status.recovery_codes_left;
  return (
    <Stack spacing={2}>
      <Alert severity="success">
        Two-factor sign-in is on{status.enabled_at ? ` (since ${formatDayTime(status.enabled_at)})` : ''}. Sign-in asks
        for a code from your authenticator app.
      </Alert>
      <Typography color={left <= 3 ? 'warning.main' : undefined}>
        {left === 1 ? '1 recovery code left.' : `${left} recovery codes left.`}
        {left <= 3 && ' To get new ones, turn two-factor sign-in off and set it up again.'}
      </Typography>
      {status.required ? (
        <Alert severity="info">The centre requires two-factor sign-in for every admin, so it stays on.</Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack spacing={2}>
            <Typography variant="subtitle2" component="h3">
              Turn off two-factor sign-in
            </Typography>
            {error && <Alert severity="error">{error}</Alert>}
            <TextField
              label="Current Password"
              type="password"
              value={password}
              onChange={(event) => {
                setPassword(event.target.value);
                setError(null);
              }}
              autoComplete="current-password"
              required
            />
            <OneTimeCodeField
              value={code}
              onChange={(value) => {
                setCode(value);
                setError(null);
              }}
              allowRecoveryCode
              required
            />
            <Box>
              <Button type="submit" color="error" variant="outlined" disabled={disable.isPending}>
                {disable.isPending ? 'Turning off...' : 'Turn off'}
              </Button>
            </Box>
          </Stack>
        </form>
      )}
    </Stack>
  );
}

function AdminPolicySwitch({ status }: { status: TwoFactorStatus }) {
  const update = useUpdateTwoFactorPolicy();
  const { showToast } = useToast();
  const checked = update.isPending ? update.variables.require_admin_two_factor : status.required_for_admins;
  return (
    <Box>
      <FormControlLabel
        sx={{ m: 0, gap: 1 }}
        control={
          <Switch
            checked={checked}
            disabled={update.isPending}
            onChange={(_event, next) =>
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
              )
            }
          />
        }
        label={REQUIRE_FOR_ADMINS_LABEL}
      />
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
        Centre setting. Admins who have not set it up must do so at their next sign-in before they can continue.
      </Typography>
    </Box>
  );
}
