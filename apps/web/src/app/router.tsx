import { Alert, Box, Button } from '@mui/material';
import { type ReactNode, Suspense, useEffect } from 'react';
import { Link, Navigate, Route, Routes } from 'react-router';
import { PageSpinner } from '../components/page-spinner';
import { useTranslation } from '../i18n';
import { useAuth } from '../lib/auth/auth-provider';
import { ConsoleBoundary } from './page-boundary';
import { retryableLazy } from './retryable-lazy';
import { CONSOLE_ROUTES, type ConsoleRoute, menuKey } from './routes';

const LoginPage = retryableLazy(() => import('../features/auth/login-page')).Component;
const Shell = retryableLazy(() => import('./shell/shell')).Component;

function RequireAuth({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const needsLookup = Boolean(auth.token) && !auth.isAuthenticated && !auth.isLoading && !auth.error;
  useEffect(() => {
    if (needsLookup) void auth.refreshUser();
  }, [needsLookup, auth.refreshUser]);
  if (auth.isLoading || needsLookup) return <PageSpinner fullScreen />;
  if (!auth.isAuthenticated)
    return <Navigate to={auth.sessionExpired ? '/login?session_expired=true' : '/login'} replace />;
  return children;
}

/** The menu hides pages a role cannot use; a typed-in address says so instead of failing call by call. */
function RoleGate({ route }: { route: ConsoleRoute }) {
  const { user } = useAuth();
  const { t } = useTranslation('shell');
  if (user && !route.roles.includes(user.role)) {
    return (
      <Box sx={{ maxWidth: 560 }}>
        <Alert
          severity="info"
          action={
            <Button component={Link} to="/dashboard" color="inherit" size="small">
              {t('menu.dashboard')}
            </Button>
          }
        >
          {t('adminsOnly', { page: t(menuKey(route.path)) })}
        </Alert>
      </Box>
    );
  }
  const Page = route.page;
  return <Page />;
}

function Fallback() {
  const { isAuthenticated } = useAuth();
  return <Navigate to={isAuthenticated ? '/dashboard' : '/login'} replace />;
}

export function AppRoutes() {
  return (
    <ConsoleBoundary>
      <Suspense fallback={<PageSpinner fullScreen />}>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route
            path="/"
            element={
              <RequireAuth>
                <Shell />
              </RequireAuth>
            }
          >
            <Route index element={<Navigate to="/dashboard" replace />} />
            {CONSOLE_ROUTES.map((route) => (
              <Route key={route.path} path={route.path.slice(1)} element={<RoleGate route={route} />} />
            ))}
          </Route>
          <Route path="*" element={<Fallback />} />
        </Routes>
      </Suspense>
    </ConsoleBoundary>
  );
}
