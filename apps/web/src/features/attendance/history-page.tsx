import AssignmentIcon from '@mui/icons-material/Assignment';
import CancelIcon from '@mui/icons-material/Cancel';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import ScheduleIcon from '@mui/icons-material/Schedule';
import {
  Box,
  Button,
  Grid,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
} from '@mui/material';
import type { AttendanceRecord } from '@tuitiondesk/contract';
import dayjs from 'dayjs';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { DateField } from '../../components/date-field';
import { StatCard } from '../../components/stat-card';
import { saveFile } from '../../lib/api-client';
import { csvBlob } from '../../lib/csv';
import { formatDay, isoDaysAgo, todayIso } from '../../lib/dates';
import { useAttendanceHistory } from './api';
import { StatusLabel } from './attendance-status';
import { buildHistoryCsv, historyCsvFilename, summariseHistory } from './history-rows';
import { RecordFilterFields } from './record-filter-fields';
import { filterRecords, NO_FILTERS, type RecordFilters } from './record-filters';

/** Spec section 9: the last 7 days, ending today. */
export const HISTORY_DEFAULT_DAYS = 7;
/** The server refuses longer ranges; say so here rather than show an empty list. */
const MAX_RANGE_DAYS = 366;
const PAGE_SIZES = [25, 50, 100];
const COLUMNS = 8;
const EMPTY: AttendanceRecord[] = [];

function rangeProblem(start: string, end: string): string | undefined {
  if (start > end) return 'End Date must not be before Start Date';
  if (dayjs(end).diff(dayjs(start), 'day') + 1 > MAX_RANGE_DAYS) return `Choose at most ${MAX_RANGE_DAYS} days`;
  return undefined;
}

function MessageRow({ text }: { text: string }) {
  return (
    <TableRow>
      <TableCell colSpan={COLUMNS} sx={{ py: 6, textAlign: 'center', color: 'text.secondary', whiteSpace: 'normal' }}>
        {text}
      </TableCell>
    </TableRow>
  );
}

/** Attendance History (spec section 2): every record in a date range, filtered, counted and exported. */
export default function HistoryPage() {
  const [start, setStart] = useState(() => isoDaysAgo(HISTORY_DEFAULT_DAYS));
  const [end, setEnd] = useState(todayIso);
  const [filters, setFilters] = useState<RecordFilters>(NO_FILTERS);
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(PAGE_SIZES[0] as number);

  const problem = rangeProblem(start, end);
  const history = useAttendanceHistory(start, end, problem === undefined);
  useEffect(() => {
    // Spec section 8: history fetch errors are only logged, and the list shows empty.
    if (history.error) console.error('Failed to fetch attendance history', history.error);
  }, [history.error]);

  const rows = problem ? EMPTY : (history.data ?? EMPTY);
  const filtered = useMemo(() => filterRecords(rows, filters), [rows, filters]);
  const summary = useMemo(() => summariseHistory(filtered), [filtered]);
  const lastPage = Math.max(0, Math.ceil(filtered.length / pageSize) - 1);
  const currentPage = Math.min(page, lastPage);
  const shown = filtered.slice(currentPage * pageSize, currentPage * pageSize + pageSize);

  const changeStart = useCallback((value: string) => {
    setStart(value);
    setPage(0);
  }, []);
  const changeEnd = useCallback((value: string) => {
    setEnd(value);
    setPage(0);
  }, []);
  const changeFilters = (next: RecordFilters) => {
    setFilters(next);
    setPage(0);
  };
  const exportCsv = () => {
    if (filtered.length === 0) {
      window.alert('No data to export');
      return;
    }
    saveFile(csvBlob(buildHistoryCsv(filtered)), historyCsvFilename(todayIso()));
  };

  let body: ReactNode;
  if (history.isLoading) body = <MessageRow text="Loading attendance records..." />;
  else if (shown.length === 0) body = <MessageRow text="No attendance records found for the selected filters." />;
  else
    body = shown.map((row) => (
      <TableRow key={row.id} hover>
        <TableCell sx={{ fontWeight: 600 }}>{row.student_name}</TableCell>
        <TableCell>{row.student_unique_id}</TableCell>
        <TableCell>{row.class_name}</TableCell>
        <TableCell>{formatDay(row.date)}</TableCell>
        <TableCell>
          <StatusLabel status={row.status} />
        </TableCell>
        <TableCell>{row.marked_by}</TableCell>
        <TableCell>
          {row.approved_by ?? (
            <Typography component="span" variant="body2" color="text.secondary" sx={{ fontStyle: 'italic' }}>
              Pending
            </Typography>
          )}
        </TableCell>
        <TableCell sx={{ whiteSpace: 'normal', minWidth: 160, maxWidth: 280, overflowWrap: 'anywhere' }}>
          {row.remarks || '-'}
        </TableCell>
      </TableRow>
    ));

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
          <DateField label="Start Date" value={start} onChange={changeStart} />
          <DateField label="End Date" value={end} error={problem} onChange={changeEnd} />
          <RecordFilterFields filters={filters} onChange={changeFilters} searchLabel="Search by name or student ID" />
          <Button
            variant="outlined"
            startIcon={<FileDownloadIcon />}
            onClick={exportCsv}
            sx={{ height: 40, width: { xs: '100%', sm: 'auto' }, ml: { sm: 'auto' } }}
          >
            Export
          </Button>
        </Box>
      </Paper>
      <Grid container spacing={2}>
        <Grid size={{ xs: 6, md: 3 }}>
          <StatCard label="Total Records" value={summary.total} icon={<AssignmentIcon />} loading={history.isLoading} />
        </Grid>
        <Grid size={{ xs: 6, md: 3 }}>
          <StatCard label="Present" value={summary.present} icon={<CheckCircleIcon />} loading={history.isLoading} />
        </Grid>
        <Grid size={{ xs: 6, md: 3 }}>
          <StatCard label="Absent" value={summary.absent} icon={<CancelIcon />} loading={history.isLoading} />
        </Grid>
        <Grid size={{ xs: 6, md: 3 }}>
          <StatCard
            label="Late/Leave"
            value={summary.lateOrLeave}
            icon={<ScheduleIcon />}
            loading={history.isLoading}
          />
        </Grid>
      </Grid>
      <Paper variant="outlined">
        {/* Scrolls sideways on phones: focusable so a keyboard can scroll it too. */}
        <TableContainer tabIndex={0} role="region" aria-label="Attendance records">
          <Table size="small" aria-label="Attendance history" sx={{ '& th, & td': { whiteSpace: 'nowrap' } }}>
            <TableHead>
              <TableRow>
                <TableCell>Student</TableCell>
                <TableCell>Student ID</TableCell>
                <TableCell>Class</TableCell>
                <TableCell>Date</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Marked By</TableCell>
                <TableCell>Approved By</TableCell>
                <TableCell>Remarks</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>{body}</TableBody>
          </Table>
        </TableContainer>
        {filtered.length > 0 && (
          <TablePagination
            component="div"
            count={filtered.length}
            page={currentPage}
            onPageChange={(_event, next) => setPage(next)}
            rowsPerPage={pageSize}
            rowsPerPageOptions={PAGE_SIZES}
            onRowsPerPageChange={(event) => {
              setPageSize(Number(event.target.value));
              setPage(0);
            }}
          />
        )}
      </Paper>
    </Box>
  );
}
