import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Accordion, AccordionDetails, AccordionSummary, Box, Checkbox, Chip, Typography } from '@mui/material';
import type { AttendanceRecord } from '@tuitiondesk/contract';
import { useCallback, useEffect, useMemo } from 'react';
import { ColumnTable } from '../../components/data-table';
import { LtrText } from '../../components/data-text';
import { Pager, rowsOfPage, usePageState } from '../../components/pager';
import type { DataColumn } from '../../components/row-cards';
import { type TFunction, useTranslation } from '../../i18n';
import { formatClock } from '../../lib/dates';
import { classLabel, StatusLabel } from './attendance-status';
import { groupCheckState } from './pending-selection';
import { RemarksAndReason } from './remarks-and-reason';

/** Select, Student, ID, Status, Remarks, Parent Phone, Marked At: on a phone, a card a record under its name. */
const columns = (t: TFunction<'attendance'>): readonly DataColumn<AttendanceRecord>[] => [
  { id: 'student', header: t('pending.student'), sx: { fontWeight: 600 }, cell: (record) => record.student_name },
  { id: 'id', header: t('pending.id'), cell: (record) => <LtrText>{record.student_unique_id}</LtrText> },
  { id: 'status', header: t('pending.status'), cell: (record) => <StatusLabel status={record.status} /> },
  {
    id: 'remarks',
    header: t('pending.remarks'),
    sx: { whiteSpace: 'normal', minWidth: 160, maxWidth: 280, overflowWrap: 'anywhere' },
    cell: (record) => <RemarksAndReason remarks={record.remarks} parentReason={record.parent_reason} />,
  },
  { id: 'parent-phone', header: t('pending.parentPhone'), cell: (record) => <LtrText>{record.parent_phone}</LtrText> },
  { id: 'marked-at', header: t('pending.markedAt'), cell: (record) => formatClock(record.marked_at) },
];

const recordId = (record: AttendanceRecord) => record.id;
const studentName = (record: AttendanceRecord) => record.student_name;

const PAGE_SIZES = [25, 50, 100];

interface Props {
  className: string;
  records: AttendanceRecord[];
  selected: ReadonlySet<number>;
  expanded: boolean;
  onExpandedChange: (className: string, expanded: boolean) => void;
  onToggleRecord: (id: number) => void;
  onToggleGroup: (records: AttendanceRecord[]) => void;
}

/** One class's pending records: a panel with a group checkbox and a count chip, holding the table. */
export function PendingClassPanel({
  className,
  records,
  selected,
  expanded,
  onExpandedChange,
  onToggleRecord,
  onToggleGroup,
}: Props) {
  const { t } = useTranslation('attendance');
  const paging = usePageState(PAGE_SIZES[1] as number);
  const { page, pageSize, setPage } = paging;
  const lastPage = Math.max(0, Math.ceil(records.length / pageSize) - 1);
  useEffect(() => {
    if (page > lastPage) setPage(lastPage);
  }, [page, lastPage, setPage]);

  const state = groupCheckState(records, selected);
  const label = classLabel(className);
  const summaryId = `pending-class-${className}-summary`;
  const regionId = `pending-class-${className}-records`;
  const shown = rowsOfPage(records, page, pageSize);
  const toggle = useCallback((record: AttendanceRecord) => onToggleRecord(record.id), [onToggleRecord]);
  const selection = useMemo(
    () => ({ header: t('pending.select'), isSelected: (record: AttendanceRecord) => selected.has(record.id), toggle }),
    [selected, toggle, t],
  );
  // `t` is a new function in each language: the headers follow it.
  const tableColumns = useMemo(() => columns(t), [t]);

  return (
    <Accordion
      expanded={expanded}
      onChange={(_event, open) => onExpandedChange(className, open)}
      disableGutters
      variant="outlined"
      slotProps={{
        // The page title is the h1: class panels come next.
        heading: { component: 'h2' },
        transition: { unmountOnExit: true },
        region: { 'aria-labelledby': summaryId, id: regionId },
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', pl: 1 }}>
        <Checkbox
          checked={state === 'checked'}
          indeterminate={state === 'indeterminate'}
          onChange={() => onToggleGroup(records)}
          slotProps={{ input: { 'aria-label': t('pending.selectAllIn', { class: label }) } }}
        />
        <AccordionSummary
          id={summaryId}
          aria-controls={regionId}
          expandIcon={<ExpandMoreIcon />}
          sx={{ flexGrow: 1, pl: 0.5 }}
        >
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
            <Typography sx={{ fontWeight: 600 }}>{label}</Typography>
            <Chip size="small" color="primary" label={t('students', { count: records.length })} />
          </Box>
        </AccordionSummary>
      </Box>
      <AccordionDetails sx={{ p: 0 }}>
        <ColumnTable
          label={t('pending.tableLabel', { class: label })}
          columns={tableColumns}
          rows={shown}
          rowKey={recordId}
          nameOf={studentName}
          selection={selection}
          boxSx={{ borderTop: 1, borderColor: 'divider' }}
          sx={{ '& th, & td': { whiteSpace: 'nowrap' } }}
        />
        {records.length > (PAGE_SIZES[0] as number) && (
          <Pager paging={paging} count={records.length} sizes={PAGE_SIZES} page={Math.min(page, lastPage)} />
        )}
      </AccordionDetails>
    </Accordion>
  );
}
