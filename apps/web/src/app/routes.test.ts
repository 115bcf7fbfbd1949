import { describe, expect, it } from 'vitest';
import { routesFor, titleOf } from './routes';

describe('the menu by role (spec section 6)', () => {
  it('shows an admin every item, in order', () => {
    expect(routesFor('admin').map((route) => route.title)).toEqual([
      'Dashboard',
      'Students',
      'Teachers',
      'Mark Attendance',
      'Attendance Approval',
      'Attendance History',
      'Teacher Attendance',
      'Communications',
      'Import Data',
    ]);
  });

  it('shows a teacher Dashboard, Students, Mark Attendance and Communications only', () => {
    expect(routesFor('teacher').map((route) => route.title)).toEqual([
      'Dashboard',
      'Students',
      'Mark Attendance',
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

  it('titles the page from the address, Dashboard by default', () => {
    expect(titleOf('/attendance-history')).toBe('Attendance History');
    expect(titleOf('/attendance')).toBe('Attendance Approval');
    expect(titleOf('/somewhere')).toBe('Dashboard');
  });
});
