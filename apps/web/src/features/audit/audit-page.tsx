import FileDownloadIcon from '@mui/icons-material/FileDownload';
import { Box, Button, MenuItem, Paper, TextField, Typography } from '@mui/material';
import { AUDIT_WAYS, type AuditEntry, type AuditWay } from '@tuitiondesk/contract';
import { type ReactNode, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ColumnTable } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { Pager, usePageState } from '../../components/pager';
import type { DataColumn } from '../../components/row-cards';
import { errorText } from '../../lib/api-client';
import { formatDayTime } from '../../lib/dates';
import { useToast } from '../../lib/toast';
import { type AuditFilters, exportAuditCsv, NO_AUDIT_FILTERS, useAuditPage } from './api';
import { AuditChange } from './audit-change';
import { actionLabel, ENTITY_LABELS, entityLabel, WAY_LABELS } from './audit-labels';

/** When, Who, Way, Address, What, Action, Change: on a phone, a card an entry, headed by when. */
const COLUMNS: readonly DataColumn<AuditEntry>[] = [
  { id: 'when', header: 'When', nowrap: true, cell: (entry) => formatDayTime(entry.at) },
  {
    id: 'who',
    header: 'Who',
    cell: (entry) =>
      entry.actor_name ?? (
        <Typography variant="body2" color="text.secondary">
          System
        </Typography>
      ),
  },
  { id: 'way', header: 'Way', cell: (entry) => WAY_LABELS[entry.way] },
  { id: 'address', header: 'Address', nowrap: true, cell: (entry) => entry.address ?? '—' },
  {
    id: 'what',
    header: 'What',
    cell: (entry) => (
      <>
        {entityLabel(entry.entity)}
        {entry.record_id !== null && (
          <Typography variant="body2" color="text.secondary">
            #{entry.record_id}
          </Typography>
        )}
      </>
    ),
  },
  { id: 'action', header: 'Action', cell: (entry) => actionLabel(entry.action) },
  {
    id: 'change',
    header: 'Change',
    sx: { minWidth: 240, maxWidth: 420 },
    cell: (entry) => <AuditChange entry={entry} />,
  },
];
const entryId = (entry: AuditEntry) => entry.id;
/** A card's name: what was done, to what, when. */
const entryName = (entry: AuditEntry) =>
  `${actionLabel(entry.action)}, ${entityLabel(entry.entity)}, ${formatDayTime(entry.at)}`;
const PAGE_SIZES = [50, 100, 200];
/** Typing settles this long before the filter goes to the server. */
const TYPING_PAUSE_MS = 300;

function filtersOf(params: URLSearchParams): AuditFilters {
  const way = params.get('way') ?? '';
  return {
    actor: params.get('actor') ?? '',
    entity: params.get('entity') ?? '',
    record_id: params.get('record_id') ?? '',
    way: (AUDIT_WAYS as readonly string[]).includes(way) ? (way as AuditWay) : '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
  };
}

interface AuditPageProps {
  /** The centre's retention setting, which the app places above the log. */
  settings?: ReactNode;
}

/**
 * The audit log for admins: who changed what, when, from which address and through which way, newest
 * first. The filters live in the address, so a record's History link opens its full history here.
 */
export default function AuditPage({ settings }: AuditPageProps) {
  const { showToast } = useToast();
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  /** What the text fields show at once; they reach the address once typing pauses. */
  const [typed, setTyped] = useState({ actor: filters.actor, record_id: filters.record_id });
  const paging = usePageState(PAGE_SIZES[0] as number);
  const { page, pageSize, setPage } = paging;
  const [exporting, setExporting] = useState(false);

  const apply = (change: Partial<AuditFilters>) => {
    const next = { ...filters, ...change };
    setParams(Object.fromEntries(Object.entries(next).filter(([, value]) => value !== '')), { replace: true });
    setPage(0);
  };

  // Another History link (or Back) changes the address: the fields follow it.
  useEffect(() => {
    setTyped({ actor: filters.actor, record_id: filters.record_id });
  }, [filters.actor, filters.record_id]);
  useEffect(() => {
    if (typed.actor.trim() === filters.actor && typed.record_id.trim() === filters.record_id) return;
    const timer = setTimeout(
      () => apply({ actor: typed.actor.trim(), record_id: typed.record_id.trim() }),
      TYPING_PAUSE_MS,
    );
    return () => clearTimeout(timer);
  });

  const problem = filters.from && filters.to && filters.from > filters.to ? 'To must not be before From' : undefined;
  const audit = useAuditPage(filters, pageSize, page * pageSize, problem === undefined);
  const data = problem ? undefined : audit.data;
  const stale = data !== undefined && audit.isPlaceholderData;
  const rows = data?.entries ?? [];
  const total = data?.total ?? 0;

  const exportCsv = async () => {
    setExporting(true);
    try {
      await exportAuditCsv(filters);
    } catch (error) {
      showToast(errorText(error, 'Failed to export the audit log'), 'error');
    } finally {
      setExporting(false);
    }
  };

  let message: string | undefined;
  if (problem) message = problem;
  else if (audit.isLoading) message = 'Loading the audit log...';
  // A refetch that fails keeps the entries shown; only entries never loaded show the failure.
  else if (audit.isError && audit.data === undefined) message = errorText(audit.error, 'Failed to load the audit log');
  else if (rows.length === 0) message = 'No audit entries match these filters.';

  const fieldWidth = { width: { xs: '100%', sm: 180 } };
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <PageHeader
        title="Audit log"
        subtitle="Every change to the centre's records: who made it, when, from which address and how."
        mb={0}
        action={
          <Button
            variant="outlined"
            startIcon={<FileDownloadIcon />}
            onClick={exportCsv}
            disabled={exporting || problem !== undefined}
          >
            Export CSV
          </Button>
        }
      />
      {settings}
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Box role="search" aria-label="Audit filters" sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
          <TextField
            label="Who"
            size="small"
            value={typed.actor}
            onChange={(event) => setTyped({ ...typed, actor: event.target.value })}
            sx={fieldWidth}
          />
          <TextField
            select
            label="What"
            size="small"
            value={filters.entity}
            onChange={(event) => apply({ entity: event.target.value })}
            sx={fieldWidth}
          >
            <MenuItem value="">Anything</MenuItem>
            {Object.entries(ENTITY_LABELS).map(([entity, label]) => (
              <MenuItem key={entity} value={entity}>
                {label}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Record"
            size="small"
            value={typed.record_id}
            onChange={(event) => setTyped({ ...typed, record_id: event.target.value })}
            sx={fieldWidth}
          />
          <TextField
            select
            label="Way"
            size="small"
            value={filters.way}
            onChange={(event) => apply({ way: event.target.value as AuditWay | '' })}
            sx={fieldWidth}
          >
            <MenuItem value="">Any way</MenuItem>
            {AUDIT_WAYS.map((way) => (
              <MenuItem key={way} value={way}>
                {WAY_LABELS[way]}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="From"
            type="date"
            size="small"
            value={filters.from}
            onChange={(event) => apply({ from: event.target.value })}
            slotProps={{ inputLabel: { shrink: true } }}
            sx={fieldWidth}
          />
          <TextField
            label="To"
            type="date"
            size="small"
            value={filters.to}
            onChange={(event) => apply({ to: event.target.value })}
            error={problem !== undefined}
            helperText={problem}
            slotProps={{ inputLabel: { shrink: true } }}
            sx={fieldWidth}
          />
          {(Object.keys(filters) as (keyof AuditFilters)[]).some((key) => filters[key] !== '') && (
            <Button
              onClick={() => {
                setTyped({ actor: '', record_id: '' });
                apply(NO_AUDIT_FILTERS);
              }}
            >
              Clear filters
            </Button>
          )}
        </Box>
      </Paper>
      <Paper variant="outlined">
        <ColumnTable
          label="Audit log"
          region="Audit entries"
          columns={COLUMNS}
          rows={rows}
          rowKey={entryId}
          nameOf={entryName}
          message={message}
          rowSx={{ verticalAlign: 'top' }}
          busy={stale}
        />
        {total > 0 && <Pager paging={paging} count={total} sizes={PAGE_SIZES} />}
      </Paper>
    </Box>
  );
}
