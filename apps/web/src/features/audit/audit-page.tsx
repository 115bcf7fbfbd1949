import FileDownloadIcon from '@mui/icons-material/FileDownload';
import { Box, Button, MenuItem, Paper, TextField, Typography } from '@mui/material';
import { AUDIT_WAYS, type AuditEntry, type AuditWay } from '@tuitiondesk/contract';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ColumnTable } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { Pager, usePageState } from '../../components/pager';
import type { DataColumn } from '../../components/row-cards';
import { type TFunction, useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { formatDayTime } from '../../lib/dates';
import { useToast } from '../../lib/toast';
import { type AuditFilters, exportAuditCsv, NO_AUDIT_FILTERS, useAuditPage } from './api';
import { AuditChange } from './audit-change';
import { AUDIT_ENTITIES, actionLabel, actorName, entityLabel, REMOVED, wayLabel } from './audit-labels';

/** When, Who, Way, Address, What, Action, Change: on a phone, a card an entry, headed by when. */
const columnsOf = (t: TFunction<'audit'>): readonly DataColumn<AuditEntry>[] => [
  { id: 'when', header: t('columns.when'), nowrap: true, cell: (entry) => formatDayTime(entry.at) },
  {
    id: 'who',
    header: t('columns.who'),
    cell: (entry) =>
      entry.actor_name === null ? (
        <Typography variant="body2" color="text.secondary">
          {t('system')}
        </Typography>
      ) : (
        actorName(t, entry)
      ),
  },
  { id: 'way', header: t('columns.way'), cell: (entry) => wayLabel(t, entry.way) },
  { id: 'address', header: t('columns.address'), nowrap: true, cell: (entry) => entry.address ?? '—' },
  {
    id: 'what',
    header: t('columns.what'),
    cell: (entry) => (
      <>
        {entityLabel(t, entry.entity)}
        {entry.record_id !== null && (
          <Typography variant="body2" color="text.secondary">
            #{entry.record_id === REMOVED ? t('values.removed') : entry.record_id}
          </Typography>
        )}
      </>
    ),
  },
  { id: 'action', header: t('columns.action'), cell: (entry) => actionLabel(t, entry.action) },
  {
    id: 'change',
    header: t('columns.change'),
    sx: { minWidth: 240, maxWidth: 420 },
    cell: (entry) => <AuditChange entry={entry} />,
  },
];
const entryId = (entry: AuditEntry) => entry.id;
/** A card's name: what was done, to what, when. */
const entryNameOf = (t: TFunction<'audit'>) => (entry: AuditEntry) =>
  t('entryName', {
    action: actionLabel(t, entry.action),
    entity: entityLabel(t, entry.entity),
    when: formatDayTime(entry.at),
  });
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
  const { t } = useTranslation('audit');
  const columns = useMemo(() => columnsOf(t), [t]);
  const entryName = useMemo(() => entryNameOf(t), [t]);
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

  const problem = filters.from && filters.to && filters.from > filters.to ? t('filters.toBeforeFrom') : undefined;
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
      showToast(errorText(error, t('exportFailed')), 'error');
    } finally {
      setExporting(false);
    }
  };

  let message: string | undefined;
  if (problem) message = problem;
  else if (audit.isLoading) message = t('loading');
  // A refetch that fails keeps the entries shown; only entries never loaded show the failure.
  else if (audit.isError && audit.data === undefined) message = errorText(audit.error, t('loadFailed'));
  else if (rows.length === 0) message = t('noMatch');

  const fieldWidth = { width: { xs: '100%', sm: 180 } };
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        mb={0}
        action={
          <Button
            variant="outlined"
            startIcon={<FileDownloadIcon />}
            onClick={exportCsv}
            disabled={exporting || problem !== undefined}
          >
            {t('export')}
          </Button>
        }
      />
      {settings}
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Box role="search" aria-label={t('filters.label')} sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
          <TextField
            label={t('filters.who')}
            size="small"
            value={typed.actor}
            onChange={(event) => setTyped({ ...typed, actor: event.target.value })}
            sx={fieldWidth}
          />
          <TextField
            select
            label={t('filters.what')}
            size="small"
            value={filters.entity}
            onChange={(event) => apply({ entity: event.target.value })}
            sx={fieldWidth}
          >
            <MenuItem value="">{t('filters.anything')}</MenuItem>
            {AUDIT_ENTITIES.map((entity) => (
              <MenuItem key={entity} value={entity}>
                {entityLabel(t, entity)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label={t('filters.record')}
            size="small"
            value={typed.record_id}
            onChange={(event) => setTyped({ ...typed, record_id: event.target.value })}
            sx={fieldWidth}
          />
          <TextField
            select
            label={t('filters.way')}
            size="small"
            value={filters.way}
            onChange={(event) => apply({ way: event.target.value as AuditWay | '' })}
            sx={fieldWidth}
          >
            <MenuItem value="">{t('filters.anyWay')}</MenuItem>
            {AUDIT_WAYS.map((way) => (
              <MenuItem key={way} value={way}>
                {wayLabel(t, way)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label={t('filters.from')}
            type="date"
            size="small"
            value={filters.from}
            onChange={(event) => apply({ from: event.target.value })}
            slotProps={{ inputLabel: { shrink: true } }}
            sx={fieldWidth}
          />
          <TextField
            label={t('filters.to')}
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
              {t('filters.clear')}
            </Button>
          )}
        </Box>
      </Paper>
      <Paper variant="outlined">
        <ColumnTable
          label={t('title')}
          region={t('region')}
          columns={columns}
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
