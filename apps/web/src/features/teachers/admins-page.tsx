import PersonAddIcon from '@mui/icons-material/PersonAdd';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { AdminAccount } from '@tuitiondesk/contract';
import { type FormEvent, useState } from 'react';
import { NotLoaded } from '../../components/not-loaded';
import { PageHeader } from '../../components/page-header';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useAuth } from '../../lib/auth/auth-provider';
import { useToast } from '../../lib/toast';
import { useAdmins, useCreateAdmin, useRemoveAdmin, useSetAdminInUse } from './api';
import { type OneTimePassword, OneTimePasswordDialog } from './one-time-password-dialog';
import { usePasswordReset } from './reset-password-action';

type AdminRow = AdminAccount & { user_id: number };

function AddAdminDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (shown: OneTimePassword) => void }) {
  const { t } = useTranslation('teachers');
  const create = useCreateAdmin();
  const [username, setUsername] = useState('');
  const [fullName, setFullName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    create.mutate(
      { username: username.trim(), full_name: fullName.trim() },
      {
        onSuccess: (admin) =>
          onCreated({
            title: t('admins.createdTitle'),
            intro: t('admins.createdIntro', { name: admin.full_name }),
            username: admin.username,
            password: admin.initial_password,
          }),
        onError: (failure) => setError(errorText(failure, t('admins.addFailed'))),
      },
    );
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="add-admin-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="add-admin-title">{t('admins.add')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {error && <Alert severity="error">{error}</Alert>}
            <TextField
              label={t('admins.fullName')}
              value={fullName}
              onChange={(e) => setFullName(e.target.value)}
              required
              autoFocus
            />
            <TextField
              label={t('password.username')}
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              helperText={t('admins.usernameHint')}
              required
              slotProps={{ htmlInput: { dir: 'ltr', autoCapitalize: 'none', spellCheck: false } }}
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose}>{t('resetPassword.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={create.isPending || !username.trim() || !fullName.trim()}>
            {t('admins.create')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

function AdminCard({
  admin,
  isSelf,
  onReset,
  onRemove,
}: {
  admin: AdminRow;
  isSelf: boolean;
  onReset: (admin: AdminRow) => void;
  onRemove: (admin: AdminRow) => void;
}) {
  const { t } = useTranslation('teachers');
  const { showToast } = useToast();
  const setInUse = useSetAdminInUse();
  const toggle = () =>
    setInUse.mutate(
      { id: admin.id, inUse: admin.disabled },
      {
        onSuccess: () =>
          showToast(
            t(admin.disabled ? 'admins.switchedOn' : 'admins.switchedOff', { name: admin.full_name }),
            'success',
          ),
        onError: (failure) => showToast(errorText(failure, t('admins.changeFailed')), 'error'),
      },
    );
  return (
    <Paper variant="outlined" component="li" sx={{ p: 2, listStyle: 'none' }} aria-label={admin.full_name}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ alignItems: { md: 'center' } }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography sx={{ fontWeight: 600 }}>
            {admin.full_name}
            {isSelf && ` ${t('admins.you')}`}
          </Typography>
          <Typography variant="body2" color="text.secondary" dir="ltr" sx={{ textAlign: 'start' }}>
            {admin.username}
          </Typography>
          <Stack direction="row" spacing={0.5} sx={{ mt: 0.5, flexWrap: 'wrap', rowGap: 0.5 }}>
            {admin.disabled && <Chip size="small" color="default" label={t('admins.off')} />}
            {admin.must_change_password && <Chip size="small" variant="outlined" label={t('admins.mustChange')} />}
            {admin.two_factor_enabled && <Chip size="small" variant="outlined" label={t('admins.twoFactor')} />}
          </Stack>
        </Box>
        {!isSelf && (
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
            <Button size="small" onClick={() => onReset(admin)}>
              {t('resetPassword.tooltip')}
            </Button>
            <Button size="small" onClick={toggle} disabled={setInUse.isPending}>
              {admin.disabled ? t('admins.switchOn') : t('admins.switchOff')}
            </Button>
            <Button size="small" color="error" onClick={() => onRemove(admin)}>
              {t('admins.remove')}
            </Button>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * The centre's admin accounts (ADR 046): more than one, so a forgotten password or a day off never
 * leaves the centre without one. The last admin in use can never be switched off or removed.
 */
export default function AdminsPage() {
  const { t } = useTranslation('teachers');
  const { user } = useAuth();
  const { showToast } = useToast();
  const query = useAdmins();
  const remove = useRemoveAdmin();
  const reset = usePasswordReset<AdminRow>();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<AdminRow | null>(null);
  const [shown, setShown] = useState<OneTimePassword | null>(null);
  const rows: AdminRow[] = (query.data ?? []).map((admin) => ({ ...admin, user_id: admin.id }));

  const confirmRemove = () => {
    if (!removing) return;
    remove.mutate(removing.id, {
      onSuccess: () => {
        showToast(t('admins.removed', { name: removing.full_name }), 'success');
        setRemoving(null);
      },
      onError: (failure) => {
        showToast(errorText(failure, t('admins.changeFailed')), 'error');
        setRemoving(null);
      },
    });
  };

  return (
    <Box>
      <PageHeader
        title={t('admins.title')}
        subtitle={t('admins.subtitle')}
        action={
          <Button variant="contained" startIcon={<PersonAddIcon />} onClick={() => setAdding(true)}>
            {t('admins.add')}
          </Button>
        }
      />
      {query.isPending && <CircularProgress aria-label={t('admins.loading')} />}
      {query.isError && !query.data && (
        <NotLoaded text={t('admins.fetchFailed')} onRetry={() => void query.refetch()} />
      )}
      {query.data && (
        <Stack component="ul" spacing={1.5} sx={{ p: 0, m: 0 }}>
          {rows.map((admin) => (
            <AdminCard
              key={admin.id}
              admin={admin}
              isSelf={admin.id === user?.id}
              onReset={(row) => reset.action.onClick(row)}
              onRemove={setRemoving}
            />
          ))}
        </Stack>
      )}
      <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
        {t('admins.lastAdminNote')}
      </Typography>
      {reset.dialogs}
      {adding && (
        <AddAdminDialog
          onClose={() => setAdding(false)}
          onCreated={(created) => {
            setAdding(false);
            setShown(created);
          }}
        />
      )}
      {shown && <OneTimePasswordDialog shown={shown} onClose={() => setShown(null)} />}
      <Dialog open={removing !== null} onClose={() => setRemoving(null)} aria-labelledby="remove-admin-title">
        <DialogTitle id="remove-admin-title">
          {t('admins.removeTitle', { name: removing?.full_name ?? '' })}
        </DialogTitle>
        <DialogContent>
          <DialogContentText>{t('admins.removeQuestion', { name: removing?.full_name ?? '' })}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setRemoving(null)}>{t('resetPassword.cancel')}</Button>
          <Button variant="contained" color="error" onClick={confirmRemove} disabled={remove.isPending}>
            {t('admins.remove')}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
