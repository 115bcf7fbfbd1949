import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import AssignmentTurnedInIcon from '@mui/icons-material/AssignmentTurnedIn';
import BadgeIcon from '@mui/icons-material/Badge';
import CategoryIcon from '@mui/icons-material/Category';
import ChatIcon from '@mui/icons-material/Chat';
import CurrencyRupeeIcon from '@mui/icons-material/CurrencyRupee';
import DashboardIcon from '@mui/icons-material/Dashboard';
import EditCalendarIcon from '@mui/icons-material/EditCalendar';
import EventBusyIcon from '@mui/icons-material/EventBusy';
import HistoryIcon from '@mui/icons-material/History';
import ManageSearchIcon from '@mui/icons-material/ManageSearch';
import PeopleIcon from '@mui/icons-material/People';
import SchoolIcon from '@mui/icons-material/School';
import SettingsIcon from '@mui/icons-material/Settings';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import type { Role } from '@tuitiondesk/contract';
import type { ComponentType, ReactElement } from 'react';
import { loadEnglish } from '../i18n';
import shell from '../i18n/locales/en/shell.json';
import { retryableLazy } from './retryable-lazy';

/** A page's name in the menu (`mark-attendance`): its path without the slash, its key under `menu`. */
export type MenuPage = keyof typeof shell.menu;

/** A page's name in the menu and the top bar: its path is its key in the catalogue (`/mark-attendance` → `menu.mark-attendance`). */
export function menuKey(path: ConsoleRoute['path']): `menu.${MenuPage}` {
  return `menu.${path.slice(1) as MenuPage}`;
}

export interface ConsoleRoute {
  path: `/${MenuPage}`;
  title: string;
  icon: ReactElement;
  roles: readonly Role[];
  /** Fetches its code when first shown, and again after a failed fetch once retried (`retryableLazy`). */
  page: ComponentType;
  /** Fetches the page's bundle (again, it is cached): what `page` does when first shown. */
  load: () => Promise<unknown>;
  /** Shows the pending-approval count beside the menu item. */
  pendingBadge?: boolean;
  /** Shows the count of leave requests waiting for an admin beside the menu item. */
  leaveBadge?: boolean;
}

function lazyPage(load: () => Promise<{ default: ComponentType }>) {
  const { Component, load: fetchCode } = retryableLazy(load);
  return { page: Component, load: fetchCode };
}

/** The pages' English names are the menu's (the shell catalogue's): written once, there. */
const MENU = shell.menu;

const everyone = ['admin', 'teacher'] as const;
const adminOnly = ['admin'] as const;

/** Every page of the console, in menu order; each is its own bundle, loaded when first opened. */
export const CONSOLE_ROUTES: readonly ConsoleRoute[] = [
  {
    path: '/dashboard',
    title: MENU.dashboard,
    icon: <DashboardIcon />,
    roles: everyone,
    ...lazyPage(() => import('./routes/dashboard')),
  },
  {
    path: '/students',
    title: MENU.students,
    icon: <SchoolIcon />,
    roles: everyone,
    ...lazyPage(() => import('./routes/students')),
  },
  {
    path: '/teachers',
    title: MENU.teachers,
    icon: <PeopleIcon />,
    roles: adminOnly,
    ...lazyPage(() => import('./routes/teachers')),
  },
  {
    path: '/admins',
    title: MENU.admins,
    icon: <AdminPanelSettingsIcon />,
    roles: adminOnly,
    ...lazyPage(() => import('../features/teachers/admins-page')),
  },
  {
    path: '/mark-attendance',
    title: MENU['mark-attendance'],
    icon: <EditCalendarIcon />,
    roles: everyone,
    ...lazyPage(() => import('../features/attendance/mark-attendance-page')),
  },
  {
    path: '/attendance',
    title: MENU.attendance,
    icon: <AssignmentTurnedInIcon />,
    roles: adminOnly,
    pendingBadge: true,
    ...lazyPage(() => import('./routes/approval')),
  },
  {
    path: '/leave',
    title: MENU.leave,
    icon: <EventBusyIcon />,
    roles: everyone,
    leaveBadge: true,
    ...lazyPage(() => import('../features/leave/leave-page')),
  },
  {
    path: '/attendance-history',
    title: MENU['attendance-history'],
    icon: <HistoryIcon />,
    roles: adminOnly,
    ...lazyPage(() => import('../features/attendance/history-page')),
  },
  {
    path: '/teacher-attendance',
    title: MENU['teacher-attendance'],
    icon: <BadgeIcon />,
    roles: adminOnly,
    ...lazyPage(() => import('../features/teacher-attendance/teacher-attendance-page')),
  },
  {
    path: '/fees',
    title: MENU.fees,
    icon: <CurrencyRupeeIcon />,
    roles: adminOnly,
    ...lazyPage(() => import('../features/fees/fees-page')),
  },
  {
    path: '/communications',
    title: MENU.communications,
    icon: <ChatIcon />,
    roles: everyone,
    ...lazyPage(() => import('./routes/communications')),
  },
  {
    path: '/import',
    title: MENU.import,
    icon: <UploadFileIcon />,
    roles: adminOnly,
    ...lazyPage(() => import('../features/imports/import-page')),
  },
  {
    path: '/audit',
    title: MENU.audit,
    icon: <ManageSearchIcon />,
    roles: adminOnly,
    ...lazyPage(() => import('./routes/audit')),
  },
  {
    path: '/settings',
    title: MENU.settings,
    icon: <SettingsIcon />,
    roles: adminOnly,
    ...lazyPage(() => import('./routes/settings')),
  },
  {
    path: '/classes',
    title: MENU.classes,
    icon: <CategoryIcon />,
    roles: adminOnly,
    ...lazyPage(() => import('../features/classes/classes-page')),
  },
];

/** The menu a role sees: admins every page, teachers the pages marked `everyone`. */
export function routesFor(role: Role | undefined): ConsoleRoute[] {
  return CONSOLE_ROUTES.filter((route) => role !== undefined && route.roles.includes(role));
}

/**
 * Fetches the bundles of a role's pages and every namespace's English in the background, so the first
 * click on a menu item shows its page without waiting for code or texts. Failures are left for the page
 * itself to report when opened.
 */
export function preloadPages(role: Role | undefined): void {
  for (const route of routesFor(role)) route.load().catch(() => undefined);
  loadEnglish().catch(() => undefined);
}

export function titleOf(pathname: string): string {
  return (
    CONSOLE_ROUTES.find((route) => pathname === route.path || pathname.startsWith(`${route.path}/`))?.title ??
    'Dashboard'
  );
}
