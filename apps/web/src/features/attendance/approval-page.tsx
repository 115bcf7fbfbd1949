import DoneAllIcon from '@mui/icons-material/DoneAll';
import PendingActionsIcon from '@mui/icons-material/PendingActions';
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import { Alert, Box, Button, Chip, CircularProgress, Paper, Stack } from '@mui/material';
import type { ApproveAttendanceResult, AttendanceRecord, PendingDay } from '@tuitiondesk/contract';
import { type ReactNode, useCallback, useMemo, useState } from 'react';
import { DateField } from '../../components/date-field';
import { EmptyState } from '../../components/empty-state';
import { PageSpinner } from '../../components/page-spinner';
import { i18n, useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { formatDay, todayIso } from '../../lib/dates';
import { toggledIn } from '../../lib/row-selection';
import { useToast } from '../../lib/toast';
import { useApproveAttendance, usePendingDays, usePendingOnDate } from './api';
import { NotMarkedLines } from './not-marked-lines';
import { PendingClassPanel } from './pending-class-panel';
import { otherPendingDays, PendingDays } from './pending-days';
import { groupByClass, keepPending, toggleGroup } from './pending-selection';
import { RecordFilterFields } from './record-filter-fields';
import { filterRecords, NO_FILTERS, type RecordFilters } from './record-filters';

const EMPTY: AttendanceRecord[] = [];
const NO_DAYS: PendingDay[] = [];

/**
 * What the approval's toast adds when absence alerts went out, channel by channel in the send dialog's
 * words (ADR 044): ` Absence alerts for 3 families: 1 in the app, 0 on WhatsApp, 2 with no channel yet:
 * they go on your send list.` Never "sent" of a family no channel reaches. A server without the
 * channels: ` Absence alerts sent to 3 families.`
 */
export function alertedText(
  result: Pick<ApproveAttendanceResult, 'alerted_families'> & Partial<Pick<ApproveAttendanceResult, 'alert_reach'>>,
): string {
  const families = result.alerted_families;
  if (!families) return '';
  const reach = result.alert_reach;
  if (!reach) return ` ${i18n.t('attendance:approval.alerted', { count: families })}`;
  const values = { inApp: reach.in_app, whatsapp: reach.whatsapp, none: reach.no_channel };
  const channels = i18n.t('attendance:approval.alertChannels', values);
  return ` ${i18n.t('attendance:approval.alertReach', { count: families, channels })}`;
}

/**
 * Attendance Approval: one date's pending records, by class, approved in bulk. `settings` is what the app
 * places under the toolbar (the centre's absence-alerts switch).
 */
export default function ApprovalPage({ settings }: { settings?: ReactNode }) {
  const { t } = useTranslation('attendance');
  const { showToast } = useToast();
  const [date, setDate] = useState(todayIso);
  const [filters, setFilters] = useState<RecordFilters>(NO_FILTERS);
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set());
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set());
  const pending = usePendingOnDate(date);
  const pendingDays = usePendingDays();
  const approve = useApproveAttendance();

  const records = pending.data ?? EMPTY;
  // A record approved elsewhere drops out of the list at the next refresh, and out of the selection with it.
  const selection = useMemo(() => keepPending(selected, records), [selected, records]);
  const visible = useMemo(() => filterRecords(records, filters), [records, filters]);
  const groups = useMemo(() => groupByClass(visible), [visible]);
  const hiddenSelected = useMemo(
    () => selection.size - visible.filter((record) => selection.has(record.id)).length,
    [selection, visible],
  );

  const allDays = pendingDays.data ?? NO_DAYS;
  const otherDays = useMemo(() => otherPendingDays(allDays, date), [allDays, date]);
  const otherDaysPending = otherDays.reduce((sum, day) => sum + day.pending, 0);
  const dayMarks = useMemo(
    () => new Map(allDays.map((day) => [day.date, t('approval.dayMark', { count: day.pending })])),
    [allDays, t],
  );

  const changeDate = useCallback((next: string) => {
    setDate(next);
    setSelected(new Set());
  }, []);
  const toggleRecord = useCallback((id: number) => setSelected((current) => toggledIn(current, id)), []);
  const toggleClass = useCallback(
    (group: AttendanceRecord[]) => setSelected((current) => toggleGroup(group, current)),
    [],
  );
  const setExpanded = useCallback((className: string, open: boolean) => {
    setCollapsed((current) => {
      const next = new Set(current);
      if (open) next.delete(className);
      else next.add(className);
      return next;
    });
  }, []);

  const selectAll = () => setSelected(new Set([...selection, ...visible.map((record) => record.id)]));
  const deselectAll = () => setSelected(new Set());
  const approveSelected = () => {
    approve.mutate([...selection], {
      onSuccess: (result) => {
        setSelected(new Set());
        showToast(
          t('approval.approvedToast', { count: result.approved_count }) + alertedText(result),
          result.alert_reach?.no_channel ? 'warning' : 'success',
        );
      },
      onError: (error) => showToast(errorText(error, t('approval.approveFailed')), 'error'),
    });
  };

  let content: ReactNode;
  if (pending.isPending) {
    content = <PageSpinner />;
  } else if (pending.isError && !pending.data) {
    content = null;
  } else if (visible.length === 0) {
    content = (
      <Paper variant="outlined">
        <EmptyState
          icon={<TaskAltIcon />}
          title={t('approval.emptyTitle')}
          text={
            records.length > 0
              ? t('approval.noMatch')
              : otherDaysPending > 0
                ? t('approval.otherDays', { date: formatDay(date), count: otherDaysPending })
                : t('approval.allApproved', { date: formatDay(date) })
          }
        />
      </Paper>
    );
  } else {
    content = (
      <Stack spacing={1.5}>
        {[...groups].map(([className, group]) => (
          <PendingClassPanel
            key={className}
            className={className}
            records={group}
            selected={selection}
            expanded={!collapsed.has(className)}
            onExpandedChange={setExpanded}
            onToggleRecord={toggleRecord}
            onToggleGroup={toggleClass}
          />
        ))}
      </Stack>
    );
  }

  return (
    <Stack spacing={2}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack spacing={2}>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
            <DateField label={t('approval.date')} value={date} disableFuture onChange={changeDate} marks={dayMarks} />
            <RecordFilterFields filters={filters} onChange={setFilters} />
          </Box>
          <PendingDays days={otherDays} onPick={changeDate} />
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
            <Chip icon={<PendingActionsIcon />} label={t('approval.pendingChip', { count: records.length })} />
            <Chip
              icon={<DoneAllIcon />}
              color={selection.size > 0 ? 'primary' : 'default'}
              label={
                hiddenSelected > 0
                  ? t('approval.selectedHiddenChip', { count: selection.size, hidden: hiddenSelected })
                  : t('approval.selectedChip', { count: selection.size })
              }
            />
            <Box sx={{ flexGrow: 1 }} />
            <Button onClick={selectAll} disabled={visible.length === 0}>
              {t('approval.selectAll')}
            </Button>
            <Button onClick={deselectAll} disabled={selection.size === 0}>
              {t('approval.deselectAll')}
            </Button>
            <Button
              variant="contained"
              color="success"
              onClick={approveSelected}
              disabled={selection.size === 0 || approve.isPending}
              startIcon={approve.isPending ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
            >
              {t('approval.approve', { count: selection.size })}
            </Button>
          </Box>
          {settings && <Box sx={{ borderTop: 1, borderColor: 'divider', pt: 1.5 }}>{settings}</Box>}
        </Stack>
      </Paper>
      {pending.isError && <Alert severity="error">{errorText(pending.error, t('approval.fetchFailed'))}</Alert>}
      <NotMarkedLines date={date} />
      {content}
    </Stack>
  );
}
