import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { changePassword, isOtpRequired, login } from '../../lib/auth/api';
import { useAuth } from '../../lib/auth/auth-provider';
import { useToast } from '../../lib/toast';
import { OneTimeCodeField } from './one-time-code-field';
import { PasswordField } from './password-field';
import { checkNewPassword, newPasswordRefusal } from './password-rules';

export const SIGN_IN_CLOSE_DELAY_MS = 2000;

type Mode =
  /** From the sign-in screen: signs in with the given credentials, then changes the password. */
  | 'sign-in'
  /** From the dashboard, signed in. */
  | 'signed-in'
  /** First sign-in with a password someone else chose: cannot be dismissed. */
  | 'required';

interface Props {
  open: boolean;
  mode: Mode;
  onClose: () => void;
  initialUsername?: string;
}

export function ChangePasswordDialog({ open, mode, onClose, initialUsername = '' }: Props) {
  const auth = useAuth();
  const { t } = useTranslation('account');
  const { showToast } = useToast();
  const [username, setUsername] = useState(initialUsername);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  // The sign-in screen's flow signs in first: an account with two-factor sign-in needs its code too.
  const [needsCode, setNeedsCode] = useState(false);
  const [otp, setOtp] = useState('');
  const [error, setError] = useState<string | null>(null);
  // Problems with one field show under it (the server's refusal of a new password among them).
  const [fieldError, setFieldError] = useState<{ next?: string; confirm?: string }>({});
  const nextInput = useRef<HTMLInputElement>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    if (open) setUsername(initialUsername);
  }, [open, initialUsername]);
  useEffect(() => () => clearTimeout(closeTimer.current), []);

  const reset = () => {
    setCurrent('');
    setNext('');
    setConfirm('');
    setNeedsCode(false);
    setOtp('');
    setError(null);
    setFieldError({});
    setSuccess(null);
  };
  const close = () => {
    clearTimeout(closeTimer.current);
    reset();
    onClose();
  };
  // Typing in a field clears the problem shown under it.
  const edit = (field: 'next' | 'confirm', set: (value: string) => void) => (value: string) => {
    set(value);
    setFieldError(({ [field]: _, ...rest }) => rest);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setFieldError({});
    const problem =
      mode === 'sign-in' && !username.trim()
        ? { message: t('password.allRequired') }
        : checkNewPassword({ current, next, confirm }, t);
    if (problem?.field) {
      setFieldError({ [problem.field]: problem.message });
      return;
    }
    if (problem || (needsCode && !otp.trim())) {
      setError(problem?.message ?? t('password.allRequired'));
      return;
    }
    setPending(true);
    try {
      if (mode === 'sign-in') {
        const session = await login(username.trim(), current, needsCode ? otp.trim() : undefined);
        await changePassword({ current_password: current, new_password: next }, session.access_token);
        setSuccess(t('changePassword.changedSignIn'));
        closeTimer.current = setTimeout(close, SIGN_IN_CLOSE_DELAY_MS);
      } else {
        const answer = await changePassword({ current_password: current, new_password: next });
        // Older tokens stop working after a change; the answer carries the new one.
        auth.setCredentials(answer.user, answer.access_token);
        showToast(t('changePassword.changed'), 'success');
        close();
      }
    } catch (caught) {
      if (isOtpRequired(caught)) {
        setNeedsCode(true);
        setOtp('');
      }
      const refusal = newPasswordRefusal(caught, t);
      if (refusal) {
        setFieldError({ next: refusal });
        nextInput.current?.focus();
      } else {
        setError(errorText(caught, t('changePassword.failed')));
      }
    } finally {
      setPending(false);
    }
  };

  const required = mode === 'required';
  return (
    <Dialog open={open} onClose={required ? undefined : close} fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{required ? t('changePassword.titleRequired') : t('changePassword.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {required && (
              <Alert severity="info">
                {/* True of the first admin (a password printed at the first start) and of every account an admin made. */}
                {t('changePassword.givenToYou')}
              </Alert>
            )}
            {error && <Alert severity="error">{error}</Alert>}
            {success && <Alert severity="success">{success}</Alert>}
            {mode === 'sign-in' && (
              <TextField
                label={t('changePassword.username')}
                value={username}
                onChange={(e) => setUsername(e.target.value)}
                autoComplete="username"
                required
              />
            )}
            <PasswordField
              label={t('changePassword.current')}
              value={current}
              onChange={setCurrent}
              autoComplete="current-password"
            />
            {mode === 'sign-in' && needsCode && (
              <OneTimeCodeField value={otp} onChange={setOtp} allowRecoveryCode autoFocus required />
            )}
            <PasswordField
              label={t('changePassword.new')}
              value={next}
              onChange={edit('next', setNext)}
              inputRef={nextInput}
              error={fieldError.next}
              autoComplete="new-password"
            />
            <PasswordField
              label={t('changePassword.confirm')}
              value={confirm}
              onChange={edit('confirm', setConfirm)}
              error={fieldError.confirm}
              autoComplete="new-password"
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          {required ? (
            <Button onClick={auth.logout}>{t('changePassword.signOut')}</Button>
          ) : (
            <Button onClick={close}>{t('changePassword.cancel')}</Button>
          )}
          <Button type="submit" variant="contained" disabled={pending || Boolean(success)}>
            {pending ? t('changePassword.submitting') : t('changePassword.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
