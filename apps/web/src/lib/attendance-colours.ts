import type { AttendanceStatus } from '@tuitiondesk/contract';

/**
 * The attendance status colours as plain values, for screens without MUI (the parent app). They are
 * the console's: its theme (app/providers.tsx) maps present → success, absent → error, late → warning,
 * leave → info (features/attendance/attendance-status.tsx), and these are that theme's resolved
 * colours. `ink` is what the console uses for status text and filled status buttons (`statusInk`: the
 * theme's dark shade, darker still for late) and passes WCAG AA as text on white and under white text;
 * `main` is the theme's main shade. A test keeps them equal to the console theme.
 */
export const STATUS_INK: Record<AttendanceStatus, string> = {
  present: '#1b5e20',
  absent: '#c62828',
  late: '#642e04',
  leave: '#003c6c',
};

export const STATUS_MAIN: Record<AttendanceStatus, string> = {
  present: '#2e7d32',
  absent: '#d32f2f',
  late: '#b45309',
  leave: '#01579b',
};

export const STATUS_NAMES: Record<AttendanceStatus, string> = {
  present: 'Present',
  absent: 'Absent',
  late: 'Late',
  leave: 'Leave',
};

/** The console's primary blue (theme colour of the parent app's manifest too). */
export const PRIMARY_BLUE = '#1e5aa8';
