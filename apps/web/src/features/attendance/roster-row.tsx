import EventBusyIcon from '@mui/icons-material/EventBusy';
import LockIcon from '@mui/icons-material/Lock';
import NotesIcon from '@mui/icons-material/Notes';
import { Box, Chip, IconButton, TextField, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import type { AttendanceStatus, RosterEntry } from '@tuitiondesk/contract';
import { memo, useState } from 'react';
import { LtrText, NameText } from '../../components/data-text';
import { useTranslation } from '../../i18n';
import { formatClock, formatDay } from '../../lib/dates';
import { ATTENDANCE_STATUSES, statusIcon, statusInk } from './attendance-status';
import { isLocked, type Mark } from './roster-marks';

const REMARKS_MAX = 500;

interface RowProps {
  student: RosterEntry;
  mark: Mark;
  /** The caller may not mark this roster (another teacher's class, or a day outside their window). */
  readOnly: boolean;
  /** A phone: one line a student, remarks opened on demand. */
  compact: boolean;
  onChange: (studentId: number, change: Partial<Mark>) => void;
}

/** Said on the row of a student with no mark, on every width: the register never shows them as present. */
function NotMarkedNote() {
  const { t } = useTranslation('attendance');
  return (
    <Typography
      variant="caption"
      component="div"
      sx={{ color: (theme) => theme.palette.warning.dark, fontWeight: 600 }}
      data-testid="not-marked"
    >
      {t('roster.notMarkedStatus')}
    </Typography>
  );
}

function MarkerNote({ student, mark }: { student: RosterEntry; mark: Mark }) {
  const { t } = useTranslation('attendance');
  if (isLocked(student)) {
    return (
      <Chip
        size="small"
        icon={<LockIcon />}
        label={t('roster.approved')}
        variant="outlined"
        sx={{ mt: 0.5, fontWeight: 600 }}
      />
    );
  }
  if (mark.status === null) return <NotMarkedNote />;
  if (!student.status) return null;
  return (
    <Typography variant="caption" color="text.secondary" component="div">
      {t('roster.markedBy', { name: student.marked_by ?? t('roster.staff'), time: formatClock(student.marked_at) })}
    </Typography>
  );
}

/** The parent's leave for the day, in their words: approved (the student starts on Leave) or still waiting. */
function LeaveNote({ student }: { student: RosterEntry }) {
  const { t } = useTranslation('attendance');
  const leave = student.leave;
  if (!leave) return null;
  const oneDay = leave.from_date === leave.to_date;
  const key = leave.status === 'approved' ? 'roster.leaveTold' : 'roster.leaveAsked';
  const text = t(oneDay ? key : `${key}Days`, {
    reason: leave.reason,
    from: formatDay(leave.from_date),
    to: formatDay(leave.to_date),
  });
  return (
    <Typography
      variant="caption"
      component="div"
      sx={{ display: 'flex', alignItems: 'center', gap: 0.5, color: 'info.main', fontWeight: 500 }}
    >
      <EventBusyIcon sx={{ fontSize: 16 }} aria-hidden />
      {text}
    </Typography>
  );
}

/** One student: who, the four statuses, remarks. Memoised so a keystroke redraws one row, not the class. */
export const StudentRow = memo(function StudentRow({ student, mark, readOnly, compact, onChange }: RowProps) {
  const { t } = useTranslation('attendance');
  const locked = isLocked(student);
  const disabled = locked || readOnly;
  const name = student.student_name;
  const [remarksOpen, setRemarksOpen] = useState(false);
  const remarks = (
    <TextField
      size="small"
      placeholder={t('roster.remarksPlaceholder')}
      value={mark.remarks}
      disabled={disabled}
      autoFocus={compact}
      onChange={(event) => onChange(student.student_id, { remarks: event.target.value })}
      slotProps={{ htmlInput: { 'aria-label': t('roster.remarksFor', { name }), maxLength: REMARKS_MAX } }}
      fullWidth
    />
  );
  const statuses = (
    <ToggleButtonGroup
      exclusive
      size="small"
      value={mark.status}
      disabled={disabled}
      aria-label={t('roster.attendanceOf', { name })}
      onChange={(_event, value: AttendanceStatus | null) => value && onChange(student.student_id, { status: value })}
      sx={{ flexWrap: 'nowrap', flexShrink: 0, width: { md: 'auto' } }}
    >
      {ATTENDANCE_STATUSES.map((status) => (
        <ToggleButton
          key={status}
          value={status}
          aria-label={t(`status.${status}`)}
          sx={{
            px: compact ? 0 : 1.5,
            minWidth: compact ? 40 : undefined,
            minHeight: compact ? 40 : undefined,
            gap: 0.5,
            textTransform: 'none',
            fontWeight: compact ? 600 : undefined,
            '&.Mui-selected, &.Mui-selected:hover': {
              bgcolor: (theme) => statusInk(theme, status),
              color: 'common.white',
            },
            '&.Mui-selected.Mui-disabled': { opacity: 0.75 },
          }}
        >
          {!compact && (
            <Box component="span" sx={{ display: { xs: 'none', sm: 'inline-flex' } }}>
              {statusIcon(status)}
            </Box>
          )}
          {compact ? t(`statusShort.${status}`) : t(`status.${status}`)}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );

  if (compact) {
    const hasRemarks = mark.remarks.trim() !== '';
    return (
      <Box
        component="li"
        sx={{
          px: 1.5,
          py: 0.75,
          borderBottom: 1,
          borderColor: 'divider',
          bgcolor: locked ? 'action.hover' : undefined,
        }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Box sx={{ minWidth: 0, flex: 1 }}>
            <Typography sx={{ fontWeight: 600, display: 'flex', alignItems: 'center', gap: 0.5 }} noWrap>
              {locked && <LockIcon sx={{ fontSize: 16 }} titleAccess={t('roster.approved')} />}
              <NameText>{name}</NameText>
            </Typography>
            {mark.status === null && !locked && <NotMarkedNote />}
            {hasRemarks && !remarksOpen && (
              <Typography variant="caption" color="text.secondary" noWrap component="div">
                {mark.remarks}
              </Typography>
            )}
          </Box>
          {statuses}
          <IconButton
            size="small"
            aria-label={t('roster.remarksFor', { name })}
            aria-expanded={remarksOpen}
            disabled={disabled && !hasRemarks}
            color={hasRemarks ? 'primary' : 'default'}
            onClick={() => setRemarksOpen((open) => !open)}
          >
            <NotesIcon fontSize="small" />
          </IconButton>
        </Box>
        <LeaveNote student={student} />
        {remarksOpen && <Box sx={{ mt: 0.75 }}>{remarks}</Box>}
      </Box>
    );
  }

  return (
    <Box
      component="li"
      sx={{
        display: 'grid',
        gridColumn: '1 / -1',
        gridTemplateColumns: { xs: '1fr', md: 'subgrid' },
        gap: { xs: 1, md: 2 },
        alignItems: 'center',
        px: 2,
        py: 1.5,
        borderBottom: 1,
        borderColor: 'divider',
        bgcolor: locked ? 'action.hover' : undefined,
      }}
    >
      <Box sx={{ minWidth: 0 }}>
        <Typography sx={{ fontWeight: 600 }} component="div">
          <NameText>{name}</NameText>
        </Typography>
        <Typography variant="body2" color="text.secondary">
          <LtrText>{student.student_unique_id}</LtrText>
        </Typography>
        <MarkerNote student={student} mark={mark} />
        <LeaveNote student={student} />
      </Box>
      {statuses}
      {remarks}
    </Box>
  );
});
