import LockIcon from '@mui/icons-material/Lock';
import SaveIcon from '@mui/icons-material/Save';
import { Alert, Box, Button, Chip, Paper, Select, Stack, Typography } from '@mui/material';
import type { TeacherAttendanceDay, TeacherAttendanceEntry, TeacherAttendanceStatus } from '@tuitiondesk/contract';
import { TEACHER_ATTENDANCE_STATUSES } from '@tuitiondesk/contract';
import { useMemo, useState } from 'react';
import { ColumnTable } from '../../components/data-table';
import { DateField } from '../../components/date-field';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { PageSpinner } from '../../components/page-spinner';
import type { DataColumn } from '../../components/row-cards';
import { errorText } from '../../lib/api-client';
import { formatDay, formatDayTime, todayIso } from '../../lib/dates';
import { useToast } from '../../lib/toast';
import { useLockTeacherAttendance, useMarkTeacherAttendance, useTeacherDay } from './api';
import { buildTeacherRecords, STATUS_LABELS, type StatusEdits, statusOf, withEdit } from './attendance-marks';
import { RemarksDialog } from './remarks-dialog';

export const LOCKED_WARNING = 'Attendance for this date is locked and cannot be modified.';
const NO_EDITS: StatusEdits = new Map();
/** Read by screen readers, not shown. */
const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
  padding: 0,
  margin: '-1px',
} as const;

function StatusSelect({
  entry,
  value,
  disabled,
  onChange,
}: {
  entry: TeacherAttendanceEntry;
  value: TeacherAttendanceStatus;
  disabled: boolean;
  onChange: (status: TeacherAttendanceStatus) => void;
}) {
  return (
    <Select
      native
      size="small"
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value as TeacherAttendanceStatus)}
      inputProps={{ 'aria-label': `Status of ${entry.teacher_name}` }}
      sx={{ minWidth: 140 }}
    >
      {TEACHER_ATTENDANCE_STATUSES.map((status) => (
        // Not Marked is where every teacher starts; it is shown but cannot be chosen.
        <option key={status} value={status} disabled={status === 'not_marked'}>
          {STATUS_LABELS[status]}
        </option>
      ))}
    </Select>
  );
}

function DaySheet({ day }: { day: TeacherAttendanceDay }) {
  const { showToast } = useToast();
  const save = useMarkTeacherAttendance();
  const lock = useLockTeacherAttendance();
  const [edits, setEdits] = useState<StatusEdits>(NO_EDITS);
  const [remarksFor, setRemarksFor] = useState<number | null>(null);
  // A day counts as locked if any teacher entry is.
  const isLocked = day.is_locked || day.teachers.some((entry) => entry.is_locked);
  const busy = save.isPending || lock.isPending;

  const saveAttendance = () => {
    const records = buildTeacherRecords(day.teachers, edits);
    if (records.length === 0) {
      showToast('Please mark attendance for at least one teacher', 'warning');
      return;
    }
    save.mutate(
      { date: day.date, teacher_records: records },
      {
        onSuccess: (result) => {
          setEdits(NO_EDITS);
          showToast(`Attendance saved successfully for ${result.marked_count} teachers!`, 'success');
        },
        onError: (error) => showToast(errorText(error, 'Failed to save teacher attendance'), 'error'),
      },
    );
  };

  const lockAttendance = () => {
    const unsaved = edits.size > 0 ? ' Unsaved changes on this screen will be lost.' : '';
    const question = `Lock teacher attendance for ${formatDay(day.date)}? This is irreversible: no further edits will be allowed.${unsaved}`;
    if (!window.confirm(question)) return;
    lock.mutate(day.date, {
      onSuccess: () => {
        setEdits(NO_EDITS);
        showToast('Attendance locked successfully for the date. No further edits allowed.', 'success');
      },
      onError: (error) => showToast(errorText(error, 'Failed to lock teacher attendance'), 'error'),
    });
  };

  // Teacher ID, Name, Phone, Status, Remarks; on a phone a card a teacher, under their name.
  const columns = useMemo<readonly DataColumn<TeacherAttendanceEntry>[]>(
    () => [
      { id: 'teacher-id', header: 'Teacher ID', cell: (entry) => entry.teacher_unique_id },
      { id: 'name', header: 'Name', cell: (entry) => entry.teacher_name },
      { id: 'phone', header: 'Phone', nowrap: true, cell: (entry) => entry.phone_number },
      {
        id: 'status',
        header: 'Status',
        cell: (entry) => (
          <StatusSelect
            entry={entry}
            value={statusOf(entry, edits)}
            disabled={isLocked || busy}
            onChange={(status) => setEdits((current) => withEdit(current, entry, status))}
          />
        ),
      },
      {
        id: 'remarks',
        header: 'Remarks',
        sx: { maxWidth: 280 },
        cell: (entry) =>
          isLocked ? (
            <Typography variant="body2" color={entry.remarks ? 'text.primary' : 'text.secondary'}>
              {entry.remarks || '-'}
            </Typography>
          ) : (
            <Button
              size="small"
              onClick={() => setRemarksFor(entry.teacher_id)}
              sx={{ textTransform: 'none', textAlign: 'left', justifyContent: 'flex-start' }}
            >
              <Box component="span" sx={visuallyHidden}>
                Remarks for {entry.teacher_name}:{' '}
              </Box>
              {entry.remarks || 'Add remarks'}
            </Button>
          ),
      },
    ],
    [edits, isLocked, busy],
  );

  const remarksTeacher = day.teachers.find((entry) => entry.teacher_id === remarksFor) ?? null;

  return (
    <>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', mb: 2 }}>
        <Chip label={`Total Teachers: ${day.total_teachers}`} color="primary" variant="outlined" />
        <Chip label={`Marked: ${day.marked_attendance}`} color="success" variant="outlined" />
        {/* The theme's warning orange is too light for text: the border carries the colour. */}
        <Chip
          label={`Pending: ${day.pending_count}`}
          color="warning"
          variant="outlined"
          sx={{ color: 'text.primary' }}
        />
        {edits.size > 0 && <Chip label={`Unsaved changes: ${edits.size}`} color="info" />}
      </Stack>

      {isLocked && (
        <Alert severity="warning" icon={<LockIcon />} sx={{ mb: 2 }}>
          {LOCKED_WARNING}
          {day.locked_by && day.locked_at && (
            <Typography variant="body2" component="span" sx={{ display: 'block' }}>
              Locked by {day.locked_by} on {formatDayTime(day.locked_at)}.
            </Typography>
          )}
        </Alert>
      )}

      {day.teachers.length === 0 ? (
        <Paper variant="outlined">
          <EmptyState title="No teachers yet" text="Add teachers on the Teachers screen to mark their attendance." />
        </Paper>
      ) : (
        <ColumnTable
          label={`Teacher attendance, ${formatDay(day.date)}`}
          region={`Teacher attendance, ${formatDay(day.date)}`}
          columns={columns}
          rows={day.teachers}
          rowKey={(entry) => entry.teacher_id}
          nameOf={(entry) => entry.teacher_name}
          titleColumn="name"
          outlined
          sx={{ minWidth: 720 }}
        />
      )}

      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 2, justifyContent: 'flex-end' }}>
        <Button
          variant="outlined"
          color="error"
          startIcon={<LockIcon />}
          onClick={lockAttendance}
          disabled={isLocked || busy || day.marked_attendance === 0}
        >
          {lock.isPending ? 'Locking...' : 'Lock Attendance'}
        </Button>
        <Button
          variant="contained"
          startIcon={<SaveIcon />}
          onClick={saveAttendance}
          disabled={isLocked || busy || day.teachers.length === 0}
        >
          {save.isPending ? 'Saving...' : 'Save Attendance'}
        </Button>
      </Stack>

      <RemarksDialog teacher={remarksTeacher} date={day.date} onClose={() => setRemarksFor(null)} />
    </>
  );
}

/** Teacher Attendance: mark each teacher for a day, add remarks, then lock the day. */
export default function TeacherAttendancePage() {
  const [date, setDate] = useState(todayIso);
  const day = useTeacherDay(date);

  return (
    <Box>
      <PageHeader title="Teacher Attendance" action={<DateField label="Date" value={date} onChange={setDate} />} />
      {day.isPending ? (
        <PageSpinner />
      ) : day.data === undefined ? (
        <Alert severity="error">{errorText(day.error, 'Failed to fetch teacher attendance')}</Alert>
      ) : (
        // A new date starts a fresh sheet: unsaved choices belong to the day they were made for.
        <DaySheet key={date} day={day.data} />
      )}
    </Box>
  );
}
