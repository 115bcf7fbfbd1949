import CloudDoneIcon from '@mui/icons-material/CloudDone';
import CloudOffIcon from '@mui/icons-material/CloudOff';
import EventBusyIcon from '@mui/icons-material/EventBusy';
import LockIcon from '@mui/icons-material/Lock';
import NotesIcon from '@mui/icons-material/Notes';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  IconButton,
  Paper,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import type { AttendanceStatus, Roster, RosterEntry } from '@tuitiondesk/contract';
import dayjs from 'dayjs';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Pager, rowsOfPage, usePageState } from '../../components/pager';
import { SearchField } from '../../components/search-field';
import { addEnglish, useTranslation } from '../../i18n';
import enAttendance from '../../i18n/locales/en/attendance.json';
import { errorText } from '../../lib/api-client';
import { formatClock, formatDay } from '../../lib/dates';
import { markSync, useMarkQueue } from '../../lib/offline/mark-sync';
import { useToast } from '../../lib/toast';
import { answerText } from './answer-text';
import { ATTENDANCE_STATUSES, classLabel, statusIcon, statusInk } from './attendance-status';
import { clearDraft, type RegisterKey, readDraft, saveDraft, startingMarks } from './register-draft';
import { countStatuses, isLocked, type Mark, recordsToSubmit } from './roster-marks';

addEnglish('attendance', enAttendance);

const PAGE_SIZES = [50, 100, 200];
const REMARKS_MAX = 500;
/** From this many students a register offers a search: a class of 30 on a phone is long to scroll. */
const SEARCH_FROM = 12;
/**
 * The register's columns on a wide screen. The header and the rows share them (CSS subgrid), so the
 * status column is as wide as its buttons in every language (Tamil's words are longer than English's).
 */
const COLUMNS = 'minmax(120px, 1fr) max-content minmax(120px, 1fr)';

interface RowProps {
  student: RosterEntry;
  mark: Mark;
  /** The caller may not mark this roster (another teacher's class, or a day outside their window). */
  readOnly: boolean;
  /** A phone: one line a student, remarks opened on demand. */
  compact: boolean;
  onChange: (studentId: number, change: Partial<Mark>) => void;
}

function MarkerNote({ student }: { student: RosterEntry }) {
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
  return (
    <Typography variant="caption" color="text.secondary" component="div">
      {student.status
        ? t('roster.markedBy', { name: student.marked_by ?? t('roster.staff'), time: formatClock(student.marked_at) })
        : t('roster.notMarked')}
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
const StudentRow = memo(function StudentRow({ student, mark, readOnly, compact, onChange }: RowProps) {
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
              <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
                {name}
              </Box>
            </Typography>
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
        <Typography sx={{ fontWeight: 600 }} noWrap>
          {name}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {student.student_unique_id}
        </Typography>
        <MarkerNote student={student} />
        <LeaveNote student={student} />
      </Box>
      {statuses}
      {remarks}
    </Box>
  );
});

/** What the device knows of this register's last submit: kept until the network returns, or saved (when). */
function SubmitState({ register, compact }: { register: RegisterKey; compact: boolean }) {
  const { t } = useTranslation('attendance');
  const queue = useMarkQueue();
  const last = [...queue.entries]
    .reverse()
    .find((entry) => entry.class_name === register.className && entry.date === register.date);
  // Its first try is under way: Submit says Saving.
  if (!last || queue.firstSends.includes(last.submission_id)) return null;
  const refused = last.result?.refused.length ?? 0;
  const at = (time: string | null) => dayjs(time).format('HH:mm');
  // On a phone the bar keeps one line: the short words, the whole sentence as the element's title.
  const [icon, text, short, colour] = !last.sent_at
    ? [
        <CloudOffIcon key="i" fontSize="small" />,
        t('roster.keptAt', { time: at(last.queued_at) }),
        t('roster.waitingShort'),
        'warning.main',
      ]
    : refused > 0
      ? [
          <CloudDoneIcon key="i" fontSize="small" />,
          t('roster.savedRefused', { time: at(last.sent_at), count: refused }),
          t('roster.refusedShort', { count: refused }),
          'warning.main',
        ]
      : [
          <CloudDoneIcon key="i" fontSize="small" />,
          t('roster.savedAt', { time: at(last.sent_at) }),
          t('roster.savedAt', { time: at(last.sent_at) }),
          'success.main',
        ];
  return (
    <Typography
      variant={compact ? 'caption' : 'body2'}
      role="status"
      title={text}
      aria-label={text}
      sx={{ display: 'flex', alignItems: 'center', gap: 0.5, color: colour, minWidth: 0, fontWeight: 500 }}
    >
      {icon}
      <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        {compact ? short : text}
      </Box>
    </Typography>
  );
}

/** The register of one class on one date: everyone's status and remarks, and Submit. */
export function RosterForm({ roster, userId }: { roster: Roster; userId: number }) {
  const { t } = useTranslation('attendance');
  const { showToast } = useToast();
  const theme = useTheme();
  const compact = useMediaQuery(theme.breakpoints.down('md'));
  const students = roster.students;
  const register: RegisterKey = useMemo(
    () => ({ userId, className: roster.class_name, date: roster.date }),
    [userId, roster.class_name, roster.date],
  );
  const queue = useMarkQueue();
  const [marks, setMarks] = useState(() => {
    const waiting = [...queue.entries]
      .reverse()
      .find((entry) => !entry.sent_at && entry.class_name === roster.class_name && entry.date === roster.date);
    return startingMarks(students, waiting, readDraft(register));
  });
  const [search, setSearch] = useState('');
  const [isSaving, setSaving] = useState(false);
  const paging = usePageState(PAGE_SIZES[1] as number);
  const edited = useRef(false);

  const change = useCallback((studentId: number, change: Partial<Mark>) => {
    edited.current = true;
    setMarks((current) => {
      const previous = current.get(studentId);
      if (!previous) return current;
      return new Map(current).set(studentId, { ...previous, ...change });
    });
  }, []);

  // Every change is kept on the device at once: a reload, or the phone closing the browser, loses nothing.
  useEffect(() => {
    if (edited.current) saveDraft(register, marks);
  }, [register, marks]);

  const counts = useMemo(() => countStatuses(students, marks), [students, marks]);
  const readOnly = !roster.can_mark;
  const approved = students.filter(isLocked).length;
  const editable = readOnly ? 0 : students.length - approved;
  const needle = search.trim().toLowerCase();
  const found = needle
    ? students.filter(
        (student) =>
          student.student_name.toLowerCase().includes(needle) ||
          student.student_unique_id.toLowerCase().includes(needle),
      )
    : students;
  const shown = rowsOfPage(found, paging.page, paging.pageSize);

  const markAllPresent = () => {
    edited.current = true;
    setMarks((current) => {
      const next = new Map(current);
      for (const student of students) {
        const entry = next.get(student.student_id);
        if (entry && !isLocked(student)) next.set(student.student_id, { ...entry, status: 'present' });
      }
      return next;
    });
  };

  const submit = async () => {
    setSaving(true);
    try {
      const outcome = await markSync.submit({
        class_name: roster.class_name,
        date: roster.date,
        records: recordsToSubmit(students, marks),
        names: Object.fromEntries(students.map((student) => [student.student_id, student.student_name])),
      });
      // The queue holds the marks now: the draft's work is done.
      edited.current = false;
      clearDraft(register);
      if (outcome.kind === 'queued') {
        showToast(t('roster.queuedToast'), 'warning');
      } else {
        // The server's sentence (`message`), written from its counts in the language in use.
        const { marked_count: marked, refused } = outcome.result;
        showToast(
          refused.length > 0
            ? t('roster.markedRefusedToast', { marked, count: refused.length })
            : t('roster.markedToast', { count: marked }),
          refused.length > 0 ? 'warning' : 'success',
        );
      }
    } catch (error) {
      showToast(errorText(error, error instanceof Error ? error.message : t('roster.saveFailed')), 'error');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Paper variant="outlined">
      <Box sx={{ p: 2, display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, mr: 1 }}>
          {t('register', { class: classLabel(roster.class_name), date: formatDay(roster.date) })}
        </Typography>
        <Chip size="small" label={t('students', { count: students.length })} />
        {ATTENDANCE_STATUSES.map((status) => (
          <Chip
            key={status}
            size="small"
            variant="outlined"
            icon={statusIcon(status)}
            label={t('roster.statusCount', { status: t(`status.${status}`), count: counts[status] })}
            sx={{ '& .MuiChip-icon': { color: (theme) => statusInk(theme, status) } }}
          />
        ))}
      </Box>
      {readOnly && (
        <Alert severity="info" sx={{ mx: 2, mb: 1 }}>
          {roster.cannot_mark_reason
            ? answerText(roster.cannot_mark_reason, roster.cannot_mark)
            : t('roster.cannotMark')}
        </Alert>
      )}
      {approved > 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ px: 2, pb: 1 }}>
          {approved === students.length ? t('roster.allApproved') : t('roster.someApproved', { count: approved })}
        </Typography>
      )}
      {students.length >= SEARCH_FROM && (
        <Box sx={{ px: 2, pb: 1.5 }}>
          <SearchField
            value={search}
            onChange={(value) => {
              setSearch(value);
              paging.setPage(0);
            }}
            placeholder={t('roster.searchPlaceholder')}
            label={t('roster.searchLabel', { class: classLabel(roster.class_name) })}
            fullWidth
          />
        </Box>
      )}
      <Box sx={{ display: { md: 'grid' }, gridTemplateColumns: { md: COLUMNS }, columnGap: 2 }}>
        <Box
          aria-hidden
          sx={{
            display: { xs: 'none', md: 'grid' },
            gridColumn: '1 / -1',
            gridTemplateColumns: 'subgrid',
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
          <span>{t('roster.student')}</span>
          <span>{t('roster.status')}</span>
          <span>{t('roster.remarks')}</span>
        </Box>
        <Box
          component="ul"
          aria-label={t('roster.studentsOf', { class: classLabel(roster.class_name) })}
          sx={{
            listStyle: 'none',
            m: 0,
            p: 0,
            borderTop: { xs: 1, md: 0 },
            borderColor: 'divider',
            display: { md: 'grid' },
            gridColumn: '1 / -1',
            gridTemplateColumns: { md: 'subgrid' },
          }}
        >
          {shown.map((student) => (
            <StudentRow
              key={student.student_id}
              student={student}
              mark={marks.get(student.student_id) ?? { status: 'present', remarks: '' }}
              readOnly={readOnly}
              compact={compact}
              onChange={change}
            />
          ))}
        </Box>
      </Box>
      {needle && found.length === 0 && (
        <Typography color="text.secondary" sx={{ p: 2 }}>
          {t('roster.noMatch', { search: search.trim() })}
        </Typography>
      )}
      {found.length > (PAGE_SIZES[0] as number) && <Pager paging={paging} count={found.length} sizes={PAGE_SIZES} />}
      {/* Stays in view, on one line, while a long class scrolls past. */}
      <Stack
        direction="row"
        spacing={1}
        sx={{
          px: { xs: 1.5, sm: 2 },
          py: 1.5,
          alignItems: 'center',
          flexWrap: 'nowrap',
          position: 'sticky',
          bottom: 0,
          zIndex: 1,
          bgcolor: 'background.paper',
          borderTop: 1,
          borderColor: 'divider',
          borderRadius: '0 0 8px 8px',
        }}
      >
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <SubmitState register={register} compact={compact} />
        </Box>
        <Button
          onClick={markAllPresent}
          disabled={editable === 0 || isSaving}
          aria-label={t('roster.markAllPresent')}
          sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
        >
          {compact ? t('roster.allPresent') : t('roster.markAllPresent')}
        </Button>
        <Button
          variant="contained"
          onClick={() => void submit()}
          disabled={editable === 0 || isSaving}
          aria-label={isSaving ? undefined : t('roster.submitAttendance')}
          startIcon={isSaving ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
          sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
        >
          {isSaving ? t('roster.saving') : compact ? t('roster.submit') : t('roster.submitAttendance')}
        </Button>
      </Stack>
    </Paper>
  );
}
