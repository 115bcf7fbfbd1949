import { Alert, Box, Button, Card, CardContent, Link, Stack, TextField, Typography } from '@mui/material';
import { type FormEvent, lazy, Suspense, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from '../../i18n';
import { useAuth } from '../../lib/auth/auth-provider';
import { OneTimeCodeField } from './one-time-code-field';
import { PasswordField } from './password-field';

/**
 * The change-password dialog (and its texts) is fetched when first asked for, not with the sign-in
 * page: most sign-ins never open it, and the sign-in route has a JavaScript budget.
 */
const ChangePasswordDialog = lazy(() =>
  import('./change-password-dialog').then((module) => ({ default: module.ChangePasswordDialog })),
);

/**
 * What to do about a forgotten password (issue 28, item 7; ADR 046): staff ask an admin for a reset;
 * the owner, whom no admin can reset, runs the server command where TuitionDesk runs.
 */
function ForgotPassword({ open, onToggle }: { open: boolean; onToggle: () => void }) {
  const { t } = useTranslation('auth');
  return (
    <Box sx={{ textAlign: 'center' }}>
      <Link component="button" type="button" onClick={onToggle} aria-expanded={open} aria-controls="forgot-password">
        {t('login.forgot')}
      </Link>
      {open && (
        <Alert id="forgot-password" severity="info" icon={false} sx={{ mt: 1, textAlign: 'start' }}>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {t('login.forgotStaff')}
          </Typography>
          <Typography variant="body2">{t('login.forgotOwner')}</Typography>
          <Box
            component="code"
            dir="ltr"
            sx={{ display: 'block', mt: 0.5, p: 0.75, bgcolor: 'action.hover', borderRadius: 1, fontSize: 13 }}
          >
            {t('login.forgotCommand')}
          </Box>
        </Alert>
      )}
    </Box>
  );
}

export default function LoginPage() {
  const auth = useAuth();
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [otp, setOtp] = useState('');
  const [changing, setChanging] = useState(false);
  /** Opened once: the dialog stays mounted after, so it closes with its transition. */
  const [asked, setAsked] = useState(false);
  const [forgotOpen, setForgotOpen] = useState(false);
  // Set by the server's answer: the password was right and the account uses two-factor sign-in.
  const needsCode = Boolean(auth.otpPrompt);

  if (auth.isAuthenticated && !auth.isLoading) return <Navigate to="/dashboard" replace />;

  const type = (setter: (value: string) => void) => (value: string) => {
    setter(value);
    if (auth.error) auth.clearError();
  };
  const typeUsername = (value: string) => {
    type(setUsername)(value);
    // Another account: the code asked for belongs to the previous one.
    if (needsCode) {
      auth.cancelOtp();
      setOtp('');
    }
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await auth.login(username.trim(), password, needsCode ? otp.trim() : undefined)) {
      navigate('/dashboard', { replace: true });
    } else if (needsCode) {
      // A wrong or used code: the next try needs the one the app shows now.
      setOtp('');
    }
  };

  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', bgcolor: 'grey.100', p: 2 }}>
      <Card sx={{ width: '100%', maxWidth: 400 }}>
        <CardContent sx={{ p: 4 }}>
          <form onSubmit={submit} noValidate>
            <Stack spacing={2}>
              <Box>
                <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
                  {t('appName')}
                </Typography>
                <Typography color="text.secondary">{t('login.subtitle')}</Typography>
              </Box>
              {params.get('session_expired') === 'true' && !auth.error && !needsCode && (
                <Alert severity="warning">{t('login.sessionExpired')}</Alert>
              )}
              {auth.error && <Alert severity="error">{auth.error}</Alert>}
              {needsCode && !auth.error && <Alert severity="info">{auth.otpPrompt}</Alert>}
              <TextField
                label={t('login.username')}
                value={username}
                onChange={(e) => typeUsername(e.target.value)}
                autoComplete="username"
                autoFocus={!needsCode}
                required
              />
              <PasswordField
                label={t('login.password')}
                value={password}
                onChange={type(setPassword)}
                autoComplete="current-password"
              />
              {needsCode && (
                <OneTimeCodeField value={otp} onChange={type(setOtp)} allowRecoveryCode autoFocus required />
              )}
              <Button
                type="submit"
                variant="contained"
                size="large"
                disabled={auth.isLoading || !username.trim() || !password || (needsCode && !otp.trim())}
              >
                {auth.isLoading ? t('login.signingIn') : t('login.signIn')}
              </Button>
              <Link
                component="button"
                type="button"
                onClick={() => {
                  setAsked(true);
                  setChanging(true);
                }}
                sx={{ alignSelf: 'center' }}
              >
                {t('login.changePassword')}
              </Link>
              <ForgotPassword open={forgotOpen} onToggle={() => setForgotOpen((open) => !open)} />
            </Stack>
          </form>
        </CardContent>
      </Card>
      {asked && (
        <Suspense fallback={null}>
          <ChangePasswordDialog
            open={changing}
            mode="sign-in"
            initialUsername={username}
            onClose={() => setChanging(false)}
          />
        </Suspense>
      )}
    </Box>
  );
}
