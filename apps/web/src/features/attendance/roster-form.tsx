import HelpOutlineIcon from '@mui/icons-material/HelpOutlineOutlined';
import { Alert, Box, Chip, Paper, Typography, useMediaQuery, useTheme } from '@mui/material';
import type { Roster } from '@tuitiondesk/contract';
import dayjs from 'dayjs';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Pager, rowsOfPage, usePageState } from '../../components/pager';
import { SearchField } from '../../components/search-field';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { formatDay } from '../../lib/dates';
import { markSync, useMarkQueue } from '../../lib/offline/mark-sync';
import { useToast } from '../../lib/toast';
import { answerText } from './answer-text';
import { ATTENDANCE_STATUSES, classLabel, statusIcon, statusInk } from './attendance-status';
import { clearDraft, type RegisterKey, readDraft, saveDraft, startingMarks } from './register-draft';
import { RosterBar } from './roster-bar';
import { countStatuses, isLocked, type Mark, NOT_MARKED, recordsToSubmit } from './roster-marks';
import { StudentRow } from './roster-row';

const PAGE_SIZES = [50, 100, 200];
/** From this many students a register offers a search: a class of 30 on a phone is long to scroll. */
const SEARCH_FROM = 12;
/**
 * The register's columns on a wide screen. The header and the rows share them (CSS subgrid), so the
 * status column is as wide as its buttons in every language (Tamil's words are longer than English's).
 */
const COLUMNS = 'minmax(120px, 1fr) max-content minmax(120px, 1fr)';

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

  /**
   * Saves the students marked; those not marked are left out and stay "Not marked" (ADR 048), and the
   * toast says how many. With nobody marked there is nothing to save: the toast says how to start.
   */
  const submit = async () => {
    const records = recordsToSubmit(students, marks);
    if (records.length === 0) {
      showToast(t('roster.nothingMarked'), 'warning');
      return;
    }
    const notMarked = editable - records.length;
    const stillNotMarked = notMarked > 0 ? ` ${t('roster.stillNotMarked', { count: notMarked })}` : '';
    setSaving(true);
    try {
      const outcome = await markSync.submit({
        class_name: roster.class_name,
        date: roster.date,
        records,
        names: Object.fromEntries(students.map((student) => [student.student_id, student.student_name])),
      });
      // The queue holds the marks now: the draft's work is done.
      edited.current = false;
      clearDraft(register);
      if (outcome.kind === 'queued') {
        showToast(t('roster.queuedToast') + stillNotMarked, 'warning');
      } else {
        // The server's sentence (`message`), written from its counts in the language in use.
        const { marked_count: marked, refused } = outcome.result;
        showToast(
          (refused.length > 0
            ? t('roster.markedRefusedToast', { marked, count: refused.length })
            : t('roster.markedToast', { count: marked })) + stillNotMarked,
          refused.length > 0 || notMarked > 0 ? 'warning' : 'success',
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
        {counts.not_marked > 0 && (
          <Chip
            size="small"
            color="warning"
            icon={<HelpOutlineIcon />}
            label={t('roster.statusCount', { status: t('roster.notMarkedStatus'), count: counts.not_marked })}
            sx={{ fontWeight: 600, bgcolor: (theme) => theme.palette.warning.dark }}
          />
        )}
        {roster.last_marked && (
          <Typography variant="body2" color="text.secondary" sx={{ flexBasis: '100%' }}>
            {t('roster.lastMarked', {
              name: roster.last_marked.by,
              time: dayjs(roster.last_marked.at).format('HH:mm'),
            })}
          </Typography>
        )}
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
              mark={marks.get(student.student_id) ?? NOT_MARKED}
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
      <RosterBar
        register={register}
        compact={compact}
        disabled={editable === 0 || isSaving}
        isSaving={isSaving}
        onMarkAllPresent={markAllPresent}
        onSubmit={() => void submit()}
      />
    </Paper>
  );
}
