import LockIcon from '@mui/icons-material/Lock';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Paper,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import type { AttendanceStatus, Roster, RosterEntry } from '@tuitiondesk/contract';
import { memo, useCallback, useMemo, useState } from 'react';
import { Pager, rowsOfPage, usePageState } from '../../components/pager';
import { errorText } from '../../lib/api-client';
import { formatClock, formatDay } from '../../lib/dates';
import { useToast } from '../../lib/toast';
import { useMarkAttendance } from './api';
import { ATTENDANCE_STATUSES, classLabel, STATUS_LABELS, statusIcon, statusInk } from './attendance-status';
import { countStatuses, initialMarks, isLocked, type Mark, recordsToSubmit } from './roster-marks';

const PAGE_SIZES = [50, 100, 200];
const REMARKS_MAX = 500;
/** Header and rows are separate grids: a fixed status column keeps them aligned. */
const ROW_COLUMNS = { md: 'minmax(180px, 1fr) 360px minmax(200px, 1fr)' };

interface RowProps {
  student: RosterEntry;
  mark: Mark;
  /** The caller may not mark this roster (another teacher's class, or a day outside their window). */
  readOnly: boolean;
  onChange: (studentId: number, change: Partial<Mark>) => void;
}

function MarkerNote({ student }: { student: RosterEntry }) {
  if (isLocked(student)) {
    return (
      <Chip size="small" icon={<LockIcon />} label="Approved" variant="outlined" sx={{ mt: 0.5, fontWeight: 600 }} />
    );
  }
  return (
    <Typography variant="caption" color="text.secondary" component="div">
      {student.status
        ? `Marked by ${student.marked_by ?? 'staff'} at ${formatClock(student.marked_at)}`
        : 'Not marked yet'}
    </Typography>
  );
}

/** One student: who, the four statuses, remarks. Memoised so a keystroke redraws one row, not the class. */
const StudentRow = memo(function StudentRow({ student, mark, readOnly, onChange }: RowProps) {
  const locked = isLocked(student);
  const disabled = locked || readOnly;
  const name = student.student_name;
  return (
    <Box
      component="li"
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', ...ROW_COLUMNS },
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
        <Typography sx={{ fontWeight: 600 }} noWrap>
          {name}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {student.student_unique_id}
        </Typography>
        <MarkerNote student={student} />
      </Box>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={mark.status}
        disabled={disabled}
        aria-label={`Attendance of ${name}`}
        onChange={(_event, value: AttendanceStatus | null) => value && onChange(student.student_id, { status: value })}
        sx={{ flexWrap: 'nowrap', width: { xs: '100%', md: 'auto' } }}
      >
        {ATTENDANCE_STATUSES.map((status) => (
          <ToggleButton
            key={status}
            value={status}
            sx={{
              flex: { xs: 1, md: 'none' },
              px: 1.5,
              gap: 0.5,
              textTransform: 'none',
              '&.Mui-selected, &.Mui-selected:hover': {
                bgcolor: (theme) => statusInk(theme, status),
                color: 'common.white',
              },
              '&.Mui-selected.Mui-disabled': { opacity: 0.75 },
            }}
          >
            <Box component="span" sx={{ display: { xs: 'none', sm: 'inline-flex' } }}>
              {statusIcon(status)}
            </Box>
            {STATUS_LABELS[status]}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <TextField
        size="small"
        placeholder="Remarks (optional)"
        value={mark.remarks}
        disabled={disabled}
        onChange={(event) => onChange(student.student_id, { remarks: event.target.value })}
        slotProps={{ htmlInput: { 'aria-label': `Remarks for ${name}`, maxLength: REMARKS_MAX } }}
        fullWidth
      />
    </Box>
  );
});

/** The register of one class on one date: everyone's status and remarks, and Submit. */
export function RosterForm({ roster }: { roster: Roster }) {
  const { showToast } = useToast();
  const mark = useMarkAttendance();
  const students = roster.students;
  const [marks, setMarks] = useState(() => initialMarks(students));
  const paging = usePageState(PAGE_SIZES[1] as number);

  const change = useCallback((studentId: number, change: Partial<Mark>) => {
    setMarks((current) => {
      const previous = current.get(studentId);
      if (!previous) return current;
      return new Map(current).set(studentId, { ...previous, ...change });
    });
  }, []);

  const counts = useMemo(() => countStatuses(students, marks), [students, marks]);
  const readOnly = !roster.can_mark;
  const approved = students.filter(isLocked).length;
  const editable = readOnly ? 0 : students.length - approved;
  const shown = rowsOfPage(students, paging.page, paging.pageSize);

  const markAllPresent = () =>
    setMarks((current) => {
      const next = new Map(current);
      for (const student of students) {
        const entry = next.get(student.student_id);
        if (entry && !isLocked(student)) next.set(student.student_id, { ...entry, status: 'present' });
      }
      return next;
    });

  const submit = () => {
    mark.mutate(
      { date: roster.date, records: recordsToSubmit(students, marks) },
      {
        onSuccess: (result) => showToast(result.message, 'success'),
        onError: (error) => showToast(errorText(error, 'Failed to save attendance'), 'error'),
      },
    );
  };

  return (
    <Paper variant="outlined">
      <Box sx={{ p: 2, display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, mr: 1 }}>
          {classLabel(roster.class_name)}, {formatDay(roster.date)}
        </Typography>
        <Chip size="small" label={`${students.length} student${students.length === 1 ? '' : 's'}`} />
        {ATTENDANCE_STATUSES.map((status) => (
          <Chip
            key={status}
            size="small"
            variant="outlined"
            icon={statusIcon(status)}
            label={`${STATUS_LABELS[status]}: ${counts[status]}`}
            sx={{ '& .MuiChip-icon': { color: (theme) => statusInk(theme, status) } }}
          />
        ))}
      </Box>
      {readOnly && (
        <Alert severity="info" sx={{ mx: 2, mb: 1 }}>
          {roster.cannot_mark_reason ?? 'You cannot mark attendance for this class on this date.'}
        </Alert>
      )}
      {approved > 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ px: 2, pb: 1 }}>
          {approved === students.length
            ? 'All attendance for this class and date has been approved and is locked.'
            : `${approved} approved record${approved === 1 ? ' is' : 's are'} locked and will not be sent.`}
        </Typography>
      )}
      <Box
        aria-hidden
        sx={{
          display: { xs: 'none', md: 'grid' },
          gridTemplateColumns: ROW_COLUMNS,
          gap: 2,
          px: 2,
          py: 1,
          borderTop: 1,
          borderBottom: 1,
          borderColor: 'divider',
          typography: 'body2',
          fontWeight: 600,
          color: 'text.secondary',
        }}
      >
        <span>Student</span>
        <span>Status</span>
        <span>Remarks</span>
      </Box>
      <Box
        component="ul"
        aria-label={`Students of ${classLabel(roster.class_name)}`}
        sx={{ listStyle: 'none', m: 0, p: 0 }}
      >
        {shown.map((student) => (
          <StudentRow
            key={student.student_id}
            student={student}
            mark={marks.get(student.student_id) ?? { status: 'present', remarks: '' }}
            readOnly={readOnly}
            onChange={change}
          />
        ))}
      </Box>
      {students.length > (PAGE_SIZES[0] as number) && (
        <Pager paging={paging} count={students.length} sizes={PAGE_SIZES} />
      )}
      {/* Stays in view while a long class scrolls past. */}
      <Stack
        direction="row"
        spacing={1}
        sx={{
          p: 2,
          justifyContent: 'flex-end',
          flexWrap: 'wrap',
          rowGap: 1,
          position: 'sticky',
          bottom: 0,
          zIndex: 1,
          bgcolor: 'background.paper',
          borderTop: 1,
          borderColor: 'divider',
          borderRadius: '0 0 8px 8px',
        }}
      >
        <Button onClick={markAllPresent} disabled={editable === 0 || mark.isPending}>
          Mark All Present
        </Button>
        <Button
          variant="contained"
          onClick={submit}
          disabled={editable === 0 || mark.isPending}
          startIcon={mark.isPending ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
        >
          {mark.isPending ? 'Saving...' : 'Submit Attendance'}
        </Button>
      </Stack>
    </Paper>
  );
}
