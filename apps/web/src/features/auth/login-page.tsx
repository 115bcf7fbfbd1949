import { Alert, Box, Button, Card, CardContent, Link, Stack, TextField, Typography } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useAuth } from './auth-provider';
import { ChangePasswordDialog } from './change-password-dialog';

export default function LoginPage() {
  const auth = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [changing, setChanging] = useState(false);

  if (auth.isAuthenticated && !auth.isLoading) return <Navigate to="/dashboard" replace />;

  const type = (setter: (value: string) => void) => (value: string) => {
    setter(value);
    if (auth.error) auth.clearError();
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await auth.login(username.trim(), password)) navigate('/dashboard', { replace: true });
  };

  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', bgcolor: 'grey.100', p: 2 }}>
      <Card sx={{ width: '100%', maxWidth: 400 }}>
        <CardContent sx={{ p: 4 }}>
          <form onSubmit={submit} noValidate>
            <Stack spacing={2}>
              <Box>
                <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
                  TuitionDesk
                </Typography>
                <Typography color="text.secondary">Sign in to the staff console</Typography>
              </Box>
              {params.get('session_expired') === 'true' && !auth.error && (
                <Alert severity="warning">Your session has expired. Please sign in again.</Alert>
              )}
              {auth.error && <Alert severity="error">{auth.error}</Alert>}
              <TextField
                label="Username"
                value={username}
                onChange={(e) => type(setUsername)(e.target.value)}
                autoComplete="username"
                autoFocus
                required
              />
              <TextField
                label="Password"
                type="password"
                value={password}
                onChange={(e) => type(setPassword)(e.target.value)}
                autoComplete="current-password"
                required
              />
              <Button
                type="submit"
                variant="contained"
                size="large"
                disabled={auth.isLoading || !username.trim() || !password}
              >
                {auth.isLoading ? 'Signing In...' : 'Sign In'}
              </Button>
              <Link component="button" type="button" onClick={() => setChanging(true)} sx={{ alignSelf: 'center' }}>
                Change Password
              </Link>
            </Stack>
          </form>
        </CardContent>
      </Card>
      <ChangePasswordDialog
        open={changing}
        mode="sign-in"
        initialUsername={username}
        onClose={() => setChanging(false)}
      />
    </Box>
  );
}
