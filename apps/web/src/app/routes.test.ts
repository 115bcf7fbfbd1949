import { describe, expect, it } from 'vitest';
import { CONSOLE_ROUTES, routesFor, titleOf } from './routes';
import ApprovalRoute from './routes/approval';
import DashboardRoute from './routes/dashboard';

describe('the menu by role', () => {
  it('shows an admin every item, in order', () => {
    expect(routesFor('admin').map((route) => route.title)).toEqual([
      'Dashboard',
      'Students',
      'Teachers',
      'Admins',
      'Mark Attendance',
      'Attendance Approval',
      'Leave',
      'Attendance History',
      'Teacher Attendance',
      'Fees',
      'Communications',
      'Import Data',
      'Audit',
      'Centre Settings',
      'Classes and subjects',
    ]);
  });

  it('shows a teacher Dashboard, Students, Mark Attendance, Leave and Communications only', () => {
    expect(routesFor('teacher').map((route) => route.title)).toEqual([
      'Dashboard',
      'Students',
      'Mark Attendance',
      'Leave',
      'Communications',
    ]);
  });

  it('shows nothing to nobody', () => {
    expect(routesFor(undefined)).toEqual([]);
  });

  it('puts the pending badge on Attendance Approval only', () => {
    expect(
      routesFor('admin')
        .filter((route) => route.pendingBadge)
        .map((route) => route.path),
    ).toEqual(['/attendance']);
  });

  it('puts the waiting-leave badge on Leave only, for both roles', () => {
    for (const role of ['admin', 'teacher'] as const) {
      expect(
        routesFor(role)
          .filter((route) => route.leaveBadge)
          .map((route) => route.path),
      ).toEqual(['/leave']);
    }
  });

  it('titles the page from the address, Dashboard by default', () => {
    expect(titleOf('/attendance-history')).toBe('Attendance History');
    expect(titleOf('/attendance')).toBe('Attendance Approval');
    expect(titleOf('/somewhere')).toBe('Dashboard');
  });

  it('opens the pages that combine features through their routes, which compose them', async () => {
    const load = (path: string) => CONSOLE_ROUTES.find((route) => route.path === path)?.load();
    expect(await load('/dashboard')).toMatchObject({ default: DashboardRoute });
    expect(await load('/attendance')).toMatchObject({ default: ApprovalRoute });
  });
});
