import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import MenuIcon from '@mui/icons-material/Menu';
import {
  AppBar,
  Box,
  Chip,
  Divider,
  Drawer,
  IconButton,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Menu,
  MenuItem,
  Toolbar,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { LocalizationProvider } from '@mui/x-date-pickers';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { Suspense, useEffect, useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { PageSpinner } from '../../components/page-spinner';
import { ActivityBell } from '../../features/activities/activity-bell';
import { usePendingCount } from '../../features/attendance/pending-count';
import { ChangePasswordDialog } from '../../features/auth/change-password-dialog';
import { TwoFactorDialog } from '../../features/auth/two-factor-dialog';
import { CentreBrand, CentreClock } from '../../features/centre/centre-clock';
import { useWaitingLeaveCount } from '../../features/leave/api';
import { useTranslation } from '../../i18n';
import { dayjsLocale } from '../../i18n/date-locales';
import { useAuth } from '../../lib/auth/auth-provider';
import { waitingMarks } from '../../lib/offline/mark-queue';
import { useMarkQueue } from '../../lib/offline/mark-sync';
import { PageBoundary } from '../page-boundary';
import { CONSOLE_ROUTES, menuKey, preloadPages, routesFor, titleOf } from '../routes';
import { AccountTwoFactorDialog } from './account-two-factor';
import { LanguageDialog } from './language-dialog';
import { MarksWaitingChip, OfflineMarkingSupport, SignOutDialog } from './offline-marking';
import { OutageBanner } from './outage-banner';

export const SIDEBAR_WIDTH = 280;

/**
 * An account that must change its password, or set up two-factor sign-in, can do nothing else until
 * it has (the server answers 403): the shell then asks for that alone and loads no page behind it.
 */
function isSetupPending(user: { must_change_password: boolean; must_enrol_two_factor?: boolean } | null): boolean {
  return Boolean(user?.must_change_password || user?.must_enrol_two_factor);
}

/** A menu entry's count of what waits there, 999+ beyond that. */
function CountBadge({ count, color, label }: { count: number; color: 'error' | 'warning'; label: string }) {
  return (
    <Chip
      label={count > 999 ? '999+' : count}
      color={color}
      size="small"
      aria-label={label}
      sx={{ ml: 1, height: 20, fontSize: 12 }}
    />
  );
}

function Sidebar({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation('shell');
  const { user } = useAuth();
  const isAdmin = user?.role === 'admin';
  const pending = usePendingCount(isAdmin && !isSetupPending(user));
  const waitingLeave = useWaitingLeaveCount(user !== null && !isSetupPending(user));
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <Toolbar>
        <CentreBrand fallback={t('appName')} enabled={user !== null && !isSetupPending(user)} />
      </Toolbar>
      <Divider />
      <Box component="nav" aria-label={t('mainMenu')} sx={{ flexGrow: 1, overflowY: 'auto' }}>
        <List>
          {routesFor(user?.role).map((route) => (
            <ListItem key={route.path} disablePadding>
              <ListItemButton
                component={NavLink}
                to={route.path}
                onClick={onNavigate}
                sx={{ mx: 1, borderRadius: 1, '&.active': { bgcolor: 'action.selected', fontWeight: 600 } }}
              >
                <ListItemIcon>{route.icon}</ListItemIcon>
                <ListItemText primary={t(menuKey(route.path))} />
                {route.pendingBadge && pending > 0 && (
                  <CountBadge count={pending} color="error" label={t('pendingBadge', { count: pending })} />
                )}
                {route.leaveBadge && waitingLeave > 0 && (
                  <CountBadge count={waitingLeave} color="warning" label={t('waitingBadge', { count: waitingLeave })} />
                )}
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      </Box>
      <Divider />
      <Box sx={{ p: 2 }}>
        <Typography sx={{ fontWeight: 600 }} noWrap>
          {user?.full_name}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="div">
          {user ? t(`role.${user.role}`) : null}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 1 }}>
          {t('copyright', { year: new Date().getFullYear() })}
        </Typography>
      </Box>
    </Box>
  );
}

/** Long enough for the first page to load its code and data first. */
const PRELOAD_AFTER_MS = 1500;

/**
 * Sidebar, top bar and the current page; every signed-in screen sits inside it. Loaded after sign-in,
 * with the date pickers' localisation, so the sign-in screen stays small.
 */
export default function Shell() {
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'));
  const end = theme.direction === 'rtl' ? 'left' : 'right';
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [accountAnchor, setAccountAnchor] = useState<HTMLElement | null>(null);
  const [twoFactorOpen, setTwoFactorOpen] = useState(false);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [languageOpen, setLanguageOpen] = useState(false);
  const { t, i18n } = useTranslation('shell');
  const auth = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const titled = titleOf(location.pathname);
  const title = t(menuKey(CONSOLE_ROUTES.find((route) => route.title === titled)?.path ?? '/dashboard'));
  const role = auth.user?.role;
  const setupPending = isSetupPending(auth.user);
  useEffect(() => {
    // Once the first page has had its turn, the other pages' code comes in the background.
    const timer = window.setTimeout(() => preloadPages(role), PRELOAD_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, [role]);

  const queue = useMarkQueue();
  const [confirmSignOut, setConfirmSignOut] = useState(false);
  const signOut = () => {
    setConfirmSignOut(false);
    auth.logout();
    navigate('/login', { replace: true });
  };
  const logout = () => {
    setAccountAnchor(null);
    if (waitingMarks(queue.entries) > 0) setConfirmSignOut(true);
    else signOut();
  };

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <CentreClock enabled={auth.user !== null && !setupPending} isAdmin={role === 'admin'} />
      <AppBar
        position="fixed"
        color="inherit"
        elevation={0}
        sx={{
          borderBottom: 1,
          borderColor: 'divider',
          width: { md: `calc(100% - ${SIDEBAR_WIDTH}px)` },
          ml: { md: `${SIDEBAR_WIDTH}px` },
        }}
      >
        <Toolbar>
          {!wide && (
            <IconButton edge="start" aria-label={t('openMenu')} onClick={() => setDrawerOpen(true)} sx={{ mr: 1 }}>
              <MenuIcon />
            </IconButton>
          )}
          <Typography variant="h6" component="h1" noWrap sx={{ flexGrow: 1 }}>
            {title}
          </Typography>
          <MarksWaitingChip />
          {!setupPending && <ActivityBell />}
          <IconButton
            color="inherit"
            aria-label={t('account')}
            aria-haspopup="menu"
            onClick={(event) => setAccountAnchor(event.currentTarget)}
          >
            <AccountCircleIcon />
          </IconButton>
          <Menu
            anchorEl={accountAnchor}
            open={Boolean(accountAnchor)}
            onClose={() => setAccountAnchor(null)}
            // The menu opens under the account button, towards the page: leftwards, or rightwards right to left.
            anchorOrigin={{ vertical: 'bottom', horizontal: end }}
            transformOrigin={{ vertical: 'top', horizontal: end }}
          >
            <MenuItem disabled>{auth.user?.full_name}</MenuItem>
            {/* Every account changes its own password here (teachers also from their dashboard). */}
            <MenuItem
              onClick={() => {
                setAccountAnchor(null);
                setPasswordOpen(true);
              }}
            >
              {t('changePassword')}
            </MenuItem>
            <MenuItem
              onClick={() => {
                setAccountAnchor(null);
                setTwoFactorOpen(true);
              }}
            >
              {t('twoFactor')}
            </MenuItem>
            <MenuItem
              onClick={() => {
                setAccountAnchor(null);
                setLanguageOpen(true);
              }}
            >
              {t('language')}
            </MenuItem>
            <MenuItem onClick={logout}>{t('logout')}</MenuItem>
          </Menu>
        </Toolbar>
      </AppBar>
      <Box component="aside" sx={{ width: { md: SIDEBAR_WIDTH }, flexShrink: { md: 0 } }}>
        {wide ? (
          <Drawer
            variant="permanent"
            open
            sx={{ '& .MuiDrawer-paper': { width: SIDEBAR_WIDTH, boxSizing: 'border-box' } }}
          >
            <Sidebar />
          </Drawer>
        ) : (
          <Drawer
            variant="temporary"
            open={drawerOpen}
            onClose={() => setDrawerOpen(false)}
            ModalProps={{ keepMounted: true }}
            sx={{ '& .MuiDrawer-paper': { width: SIDEBAR_WIDTH, boxSizing: 'border-box' } }}
          >
            <Sidebar onNavigate={() => setDrawerOpen(false)} />
          </Drawer>
        )}
      </Box>
      <Box component="main" sx={{ flexGrow: 1, minWidth: 0, p: { xs: 2, md: 3 } }}>
        <Toolbar />
        <OutageBanner />
        <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale={dayjsLocale(i18n.language)}>
          {!setupPending && (
            // A page that cannot be fetched or fails says so here, and the menu stays usable.
            <PageBoundary resetKey={location.pathname}>
              <Suspense fallback={<PageSpinner />}>
                <Outlet />
              </Suspense>
            </PageBoundary>
          )}
        </LocalizationProvider>
      </Box>
      <ChangePasswordDialog open={Boolean(auth.user?.must_change_password)} mode="required" onClose={() => undefined} />
      {/* A password first, then the authenticator: both are required before anything else. */}
      <TwoFactorDialog
        open={Boolean(auth.user?.must_enrol_two_factor) && !auth.user?.must_change_password}
        mode="required"
        onClose={() => undefined}
      />
      <AccountTwoFactorDialog open={twoFactorOpen} onClose={() => setTwoFactorOpen(false)} />
      <LanguageDialog open={languageOpen} onClose={() => setLanguageOpen(false)} />
      <ChangePasswordDialog open={passwordOpen} mode="signed-in" onClose={() => setPasswordOpen(false)} />
      <SignOutDialog open={confirmSignOut} onCancel={() => setConfirmSignOut(false)} onSignOut={signOut} />
      {!setupPending && <OfflineMarkingSupport isTeacher={role === 'teacher'} />}
    </Box>
  );
}
