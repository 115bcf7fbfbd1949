import AccessTimeIcon from '@mui/icons-material/AccessTime';
import CancelIcon from '@mui/icons-material/Cancel';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import EventBusyIcon from '@mui/icons-material/EventBusy';
import { Box, darken, type Theme } from '@mui/material';
import { ATTENDANCE_STATUSES, type AttendanceStatus, CLASS_NAMES, type ClassName } from '@tuitiondesk/contract';
import type { ReactElement } from 'react';
import { i18n, useTranslation } from '../../i18n';

export { ATTENDANCE_STATUSES, CLASS_NAMES };

/** Each status keeps its colour everywhere: present success, absent error, late warning, leave info. */
export const STATUS_COLOURS = {
  present: 'success',
  absent: 'error',
  late: 'warning',
  leave: 'info',
} as const satisfies Record<AttendanceStatus, string>;

/** The status's name in the language in use (the glossary's status words): Present, उपस्थित … */
export function statusLabel(status: AttendanceStatus): string {
  return i18n.t(`attendance:status.${status}`);
}

const STATUS_ICONS: Record<AttendanceStatus, ReactElement> = {
  present: <CheckCircleIcon fontSize="small" />,
  absent: <CancelIcon fontSize="small" />,
  late: <AccessTimeIcon fontSize="small" />,
  leave: <EventBusyIcon fontSize="small" />,
};

export function statusIcon(status: AttendanceStatus): ReactElement {
  return STATUS_ICONS[status];
}

/**
 * `Class 9`, `कक्षा 9`: the glossary's word for class, the number as the centre stored it; a class the
 * centre labelled itself (`centreLabel`, "Morning batch", ADR 043) as the centre wrote it.
 */
export function classLabel(className: string, centreLabel?: string): string {
  if (centreLabel !== undefined && centreLabel !== `Class ${className}`) return centreLabel;
  return i18n.t('attendance:className', { name: className });
}

export function isClassName(value: string | null | undefined): value is ClassName {
  return (CLASS_NAMES as readonly string[]).includes(value ?? '');
}

export function isStatus(value: string | null | undefined): value is AttendanceStatus {
  return (ATTENDANCE_STATUSES as readonly string[]).includes(value ?? '');
}

/**
 * The status colour dark enough to read as text on white (WCAG AA): the theme's dark shade, and for
 * late a shade darker still, since the stock orange fails contrast.
 */
export function statusInk(theme: Theme, status: AttendanceStatus): string {
  const colour = STATUS_COLOURS[status];
  return colour === 'warning' ? darken(theme.palette.warning.dark, 0.2) : theme.palette[colour].dark;
}

/** Icon plus upper-case status, in the status colour. */
export function StatusLabel({ status }: { status: AttendanceStatus }) {
  const { t, i18n: current } = useTranslation('attendance');
  return (
    <Box
      component="span"
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.5,
        fontWeight: 600,
        color: (theme) => statusInk(theme, status),
        whiteSpace: 'nowrap',
      }}
    >
      {statusIcon(status)}
      {t(`status.${status}`).toLocaleUpperCase(current.language)}
    </Box>
  );
}
