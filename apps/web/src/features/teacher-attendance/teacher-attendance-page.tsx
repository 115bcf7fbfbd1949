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
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { formatDay, formatDayTime, todayIso } from '../../lib/dates';
import { useToast } from '../../lib/toast';
import { useLockTeacherAttendance, useMarkTeacherAttendance, useTeacherDay } from './api';
import { buildTeacherRecords, type StatusEdits, statusOf, withEdit } from './attendance-marks';
import { RemarksDialog } from './remarks-dialog';

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
  const { t } = useTranslation('teacherAttendance');
  return (
    <Select
      native
      size="small"
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value as TeacherAttendanceStatus)}
      inputProps={{ 'aria-label': t('statusOf', { name: entry.teacher_name }) }}
      sx={{ minWidth: 140 }}
    >
      {TEACHER_ATTENDANCE_STATUSES.map((status) => (
        // Not Marked is where every teacher starts; it is shown but cannot be chosen.
        <option key={status} value={status} disabled={status === 'not_marked'}>
          {t(`statuses.${status}`)}
        </option>
      ))}
    </Select>
  );
}

function DaySheet({ day }: { day: TeacherAttendanceDay }) {
  const { t } = useTranslation('teacherAttendance');
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
      showToast(t('markOne'), 'warning');
      return;
    }
    save.mutate(
      { date: day.date, teacher_records: records },
      {
        onSuccess: (result) => {
          setEdits(NO_EDITS);
          showToast(t('saved', { n: result.marked_count }), 'success');
        },
        onError: (error) => showToast(errorText(error, t('saveFailed')), 'error'),
      },
    );
  };

  const lockAttendance = () => {
    const question = t(edits.size > 0 ? 'lockQuestionUnsaved' : 'lockQuestion', { date: formatDay(day.date) });
    if (!window.confirm(question)) return;
    lock.mutate(day.date, {
      onSuccess: () => {
        setEdits(NO_EDITS);
        showToast(t('lockDone'), 'success');
      },
      onError: (error) => showToast(errorText(error, t('lockFailed')), 'error'),
    });
  };

  // Teacher ID, Name, Phone, Status, Remarks; on a phone a card a teacher, under their name.
  const columns = useMemo<readonly DataColumn<TeacherAttendanceEntry>[]>(
    () => [
      { id: 'teacher-id', header: t('columns.teacherId'), cell: (entry) => entry.teacher_unique_id },
      { id: 'name', header: t('columns.name'), cell: (entry) => entry.teacher_name },
      { id: 'phone', header: t('columns.phone'), nowrap: true, cell: (entry) => entry.phone_number },
      {
        id: 'status',
        header: t('columns.status'),
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
        header: t('columns.remarks'),
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
                {t('remarksFor', { name: entry.teacher_name })}{' '}
              </Box>
              {entry.remarks || t('addRemarks')}
            </Button>
          ),
      },
    ],
    [edits, isLocked, busy, t],
  );

  const remarksTeacher = day.teachers.find((entry) => entry.teacher_id === remarksFor) ?? null;

  return (
    <>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', mb: 2 }}>
        <Chip label={t('totals.total', { n: day.total_teachers })} color="primary" variant="outlined" />
        <Chip label={t('totals.marked', { n: day.marked_attendance })} color="success" variant="outlined" />
        {/* The theme's warning orange is too light for text: the border carries the colour. */}
        <Chip
          label={t('totals.pending', { n: day.pending_count })}
          color="warning"
          variant="outlined"
          sx={{ color: 'text.primary' }}
        />
        {edits.size > 0 && <Chip label={t('totals.unsaved', { n: edits.size })} color="info" />}
      </Stack>

      {isLocked && (
        <Alert severity="warning" icon={<LockIcon />} sx={{ mb: 2 }}>
          {t('locked')}
          {day.locked_by && day.locked_at && (
            <Typography variant="body2" component="span" sx={{ display: 'block' }}>
              {t('lockedBy', { name: day.locked_by, when: formatDayTime(day.locked_at) })}
            </Typography>
          )}
        </Alert>
      )}

      {day.teachers.length === 0 ? (
        <Paper variant="outlined">
          <EmptyState title={t('emptyTitle')} text={t('emptyText')} />
        </Paper>
      ) : (
        <ColumnTable
          label={t('table', { date: formatDay(day.date) })}
          region={t('table', { date: formatDay(day.date) })}
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
          {lock.isPending ? t('locking') : t('lock')}
        </Button>
        <Button
          variant="contained"
          startIcon={<SaveIcon />}
          onClick={saveAttendance}
          disabled={isLocked || busy || day.teachers.length === 0}
        >
          {save.isPending ? t('saving') : t('save')}
        </Button>
      </Stack>

      <RemarksDialog teacher={remarksTeacher} date={day.date} onClose={() => setRemarksFor(null)} />
    </>
  );
}

/** Teacher Attendance: mark each teacher for a day, add remarks, then lock the day. */
export default function TeacherAttendancePage() {
  const { t } = useTranslation('teacherAttendance');
  const [date, setDate] = useState(todayIso);
  const day = useTeacherDay(date);

  return (
    <Box>
      <PageHeader title={t('title')} action={<DateField label={t('date')} value={date} onChange={setDate} />} />
      {day.isPending ? (
        <PageSpinner />
      ) : day.data === undefined ? (
        <Alert severity="error">{errorText(day.error, t('loadFailed'))}</Alert>
      ) : (
        // A new date starts a fresh sheet: unsaved choices belong to the day they were made for.
        <DaySheet key={date} day={day.data} />
      )}
    </Box>
  );
}
