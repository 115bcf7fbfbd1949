import AssignmentIcon from '@mui/icons-material/Assignment';
import CancelIcon from '@mui/icons-material/Cancel';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import ScheduleIcon from '@mui/icons-material/Schedule';
import { Box, Button, Grid, Paper, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { type AttendanceRecord, HISTORY_SEARCH_MAX } from '@tuitiondesk/contract';
import dayjs from 'dayjs';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { ColumnTable } from '../../components/data-table';
import { LtrText } from '../../components/data-text';
import { DateField } from '../../components/date-field';
import { NotLoaded } from '../../components/not-loaded';
import { Pager, usePageState } from '../../components/pager';
import type { DataColumn } from '../../components/row-cards';
import { StatCard } from '../../components/stat-card';
import { i18n, type TFunction, useTranslation } from '../../i18n';
import { errorText, saveFile } from '../../lib/api-client';
import { csvBlob } from '../../lib/csv';
import { formatDay, isoDaysAgo, todayIso } from '../../lib/dates';
import { useToast } from '../../lib/toast';
import { historyQuery, useAttendanceHistoryPage } from './api';
import { StatusLabel } from './attendance-status';
import { buildHistoryCsv, historyCsvFilename } from './history-rows';
import { RecordFilterFields } from './record-filter-fields';
import { filterRecords, NO_FILTERS, type RecordFilters } from './record-filters';
import { RemarksAndReason } from './remarks-and-reason';

/** Student, Student ID, Class, Date, Status, Marked By, Approved By, Remarks: on a phone, a card a record. */
const columns = (t: TFunction<'attendance'>): readonly DataColumn<AttendanceRecord>[] => [
  { id: 'student', header: t('history.student'), sx: { fontWeight: 600 }, cell: (row) => row.student_name },
  { id: 'student-id', header: t('history.studentId'), cell: (row) => <LtrText>{row.student_unique_id}</LtrText> },
  { id: 'class', header: t('history.class'), cell: (row) => row.class_name },
  { id: 'date', header: t('history.date'), cell: (row) => formatDay(row.date) },
  { id: 'status', header: t('history.status'), cell: (row) => <StatusLabel status={row.status} /> },
  { id: 'marked-by', header: t('history.markedBy'), cell: (row) => row.marked_by },
  {
    id: 'approved-by',
    header: t('history.approvedBy'),
    cell: (row) =>
      row.approved_by ?? (
        <Typography component="span" variant="body2" color="text.secondary" sx={{ fontStyle: 'italic' }}>
          {t('history.pending')}
        </Typography>
      ),
  },
  {
    id: 'remarks',
    header: t('history.remarks'),
    sx: { whiteSpace: 'normal', minWidth: 160, maxWidth: 280, overflowWrap: 'anywhere' },
    cell: (row) => <RemarksAndReason remarks={row.remarks} parentReason={row.parent_reason} />,
  },
];
const recordId = (row: AttendanceRecord) => row.id;
const studentName = (row: AttendanceRecord) => row.student_name;

/** The history opens on the last 7 days, ending today. */
export const HISTORY_DEFAULT_DAYS = 7;
/** The server refuses longer ranges; say so here rather than show an empty list. */
const MAX_RANGE_DAYS = 366;
const PAGE_SIZES = [25, 50, 100];
/** Typing settles this long before the search goes to the server. */
const SEARCH_DEBOUNCE_MS = 300;
const EMPTY: AttendanceRecord[] = [];
const NO_COUNTS = { present: 0, absent: 0, late: 0, leave: 0 };
/** A figure not known: the records could not be loaded. */
const UNKNOWN = '—';

/** The search as the server takes it: trimmed, and no longer than it accepts. */
function searchParam(search: string): string {
  return search.trim().slice(0, HISTORY_SEARCH_MAX).trim();
}

function rangeProblem(start: string, end: string): string | undefined {
  if (start > end) return i18n.t('attendance:history.endBeforeStart');
  if (dayjs(end).diff(dayjs(start), 'day') + 1 > MAX_RANGE_DAYS)
    return i18n.t('attendance:history.tooLong', { count: MAX_RANGE_DAYS });
  return undefined;
}

/**
 * Attendance History: the records in a date range, filtered, counted and exported.
 * The server filters, counts and pages (a month at a large centre is 150,000 records); the export
 * alone fetches the whole range.
 */
export default function HistoryPage() {
  const { t } = useTranslation('attendance');
  // `t` is a new function in each language: the headers follow it.
  const tableColumns = useMemo(() => columns(t), [t]);
  const queryClient = useQueryClient();
  const { showToast } = useToast();
  const [start, setStart] = useState(() => isoDaysAgo(HISTORY_DEFAULT_DAYS));
  const [end, setEnd] = useState(todayIso);
  /** What the fields show, at once. */
  const [filters, setFilters] = useState<RecordFilters>(NO_FILTERS);
  /** The search the server is asked for: the typed one, once typing has paused. */
  const [search, setSearch] = useState('');
  const paging = usePageState(PAGE_SIZES[0] as number);
  const { page, pageSize, setPage } = paging;
  const [exporting, setExporting] = useState(false);

  const typed = searchParam(filters.search);
  useEffect(() => {
    if (typed === search) return;
    const timer = setTimeout(() => {
      setSearch(typed);
      setPage(0);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed, search, setPage]);

  const problem = rangeProblem(start, end);
  const history = useAttendanceHistoryPage(
    {
      start,
      end,
      className: filters.className,
      status: filters.status,
      search,
      limit: pageSize,
      offset: page * pageSize,
    },
    problem === undefined,
  );
  useEffect(() => {
    // A failed fetch is logged. A refetch that fails keeps the rows shown (the shell says the server
    // cannot be reached); a range that never loaded says so, never "no records".
    if (history.error) console.error('attendance-history', history.error);
  }, [history.error]);

  const data = problem ? undefined : history.data;
  const notLoaded = problem === undefined && data === undefined && history.isError;
  /** The previous page, still shown while the one asked for loads. */
  const stale = data !== undefined && history.isPlaceholderData;
  const rows = data?.records ?? EMPTY;
  const total = data?.total ?? 0;
  const counts = data?.counts ?? NO_COUNTS;
  const lastPage = Math.max(0, Math.ceil(total / pageSize) - 1);
  const currentPage = Math.min(page, lastPage);
  // Records went while this page was away (a narrower range elsewhere, a deletion): show the last page there is.
  const pastTheEnd = data !== undefined && !stale && page > lastPage;
  useEffect(() => {
    if (pastTheEnd) setPage(lastPage);
  }, [pastTheEnd, lastPage, setPage]);

  const changeStart = useCallback(
    (value: string) => {
      setStart(value);
      setPage(0);
    },
    [setPage],
  );
  const changeEnd = useCallback(
    (value: string) => {
      setEnd(value);
      setPage(0);
    },
    [setPage],
  );
  const changeFilters = (next: RecordFilters) => {
    setFilters(next);
    // A new search resets the page when it reaches the server, after the pause.
    if (next.status !== filters.status || next.className !== filters.className) setPage(0);
  };
  const exportCsv = async () => {
    // The export takes the fields as they read now, even if typing has not yet paused.
    const wanted = { ...filters, search: typed };
    const serverSaysNone = typed === search && data !== undefined && !stale && total === 0;
    if (problem !== undefined || serverSaysNone) {
      window.alert(t('history.noData'));
      return;
    }
    setExporting(true);
    try {
      const all = await queryClient.fetchQuery(historyQuery(start, end));
      const filtered = filterRecords(all, wanted);
      if (filtered.length === 0) window.alert(t('history.noData'));
      else saveFile(csvBlob(buildHistoryCsv(filtered)), historyCsvFilename(todayIso()));
    } catch (error) {
      showToast(errorText(error, t('history.exportFailed')), 'error');
    } finally {
      setExporting(false);
    }
  };

  let message: ReactNode;
  if (history.isLoading) message = t('history.loading');
  else if (notLoaded)
    message = <NotLoaded text={t('history.notLoaded')} onRetry={() => void history.refetch()} centred />;
  else if (rows.length === 0) message = t('history.empty');

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
          <DateField label={t('history.startDate')} value={start} onChange={changeStart} />
          <DateField label={t('history.endDate')} value={end} error={problem} onChange={changeEnd} />
          <RecordFilterFields filters={filters} onChange={changeFilters} searchLabel={t('history.search')} />
          <Button
            variant="outlined"
            startIcon={<FileDownloadIcon />}
            onClick={exportCsv}
            disabled={exporting}
            sx={{ height: 40, width: { xs: '100%', sm: 'auto' }, ml: { sm: 'auto' } }}
          >
            {t('history.export')}
          </Button>
        </Box>
      </Paper>
      <Grid container spacing={2}>
        <Grid size={{ xs: 6, md: 3 }}>
          <StatCard
            label={t('history.total')}
            value={notLoaded ? UNKNOWN : total}
            icon={<AssignmentIcon />}
            loading={history.isLoading}
          />
        </Grid>
        <Grid size={{ xs: 6, md: 3 }}>
          <StatCard
            label={t('status.present')}
            value={notLoaded ? UNKNOWN : counts.present}
            icon={<CheckCircleIcon />}
            loading={history.isLoading}
          />
        </Grid>
        <Grid size={{ xs: 6, md: 3 }}>
          <StatCard
            label={t('status.absent')}
            value={notLoaded ? UNKNOWN : counts.absent}
            icon={<CancelIcon />}
            loading={history.isLoading}
          />
        </Grid>
        <Grid size={{ xs: 6, md: 3 }}>
          <StatCard
            label={t('history.lateLeave')}
            value={notLoaded ? UNKNOWN : counts.late + counts.leave}
            icon={<ScheduleIcon />}
            loading={history.isLoading}
          />
        </Grid>
      </Grid>
      <Paper variant="outlined">
        <ColumnTable
          label={t('history.tableLabel')}
          region={t('history.region')}
          columns={tableColumns}
          rows={rows}
          rowKey={recordId}
          nameOf={studentName}
          message={message}
          sx={{ '& th, & td': { whiteSpace: 'nowrap' } }}
          // The previous page stays, dimmed, until the one asked for arrives.
          busy={stale}
        />
        {total > 0 && <Pager paging={paging} count={total} sizes={PAGE_SIZES} page={currentPage} />}
      </Paper>
    </Box>
  );
}
