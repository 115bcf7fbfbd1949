import PaymentsIcon from '@mui/icons-material/Payments';
import { Alert, Box, Button, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { AGEING_BUCKETS, type Due } from '@tuitiondesk/contract';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ColumnTable } from '../../components/data-table';
import { LtrText, NameText } from '../../components/data-text';
import { NotLoaded } from '../../components/not-loaded';
import { Pager, rowsOfPage, usePageState } from '../../components/pager';
import { type DataColumn, useCardLayout } from '../../components/row-cards';
import { SearchField } from '../../components/search-field';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useClassChoices } from '../../lib/centre-classes';
import { formatDay } from '../../lib/dates';
import { formatMoney } from '../../lib/money';
import { duesQuery, useRefreshFees } from './api';
import { bucketKey, DuesSummary } from './dues-summary';
import { FeesExportMenu } from './export-menu';
import { FamilyStatement } from './family-statement';
import { useClassName } from './family-text';
import { PaymentDialog } from './payment-dialog';
import { replayPayments, usePaymentQueue } from './payment-queue';
import { ReceiptDialog } from './receipt-view';

type Bucket = (typeof AGEING_BUCKETS)[number];

/** The families a page of the dues list shows. */
const DUES_PAGE_SIZES = [50, 100, 200];

/** The ageing bucket of a family's oldest debt, as the server buckets it (0–30, 31–60, 61–90, 90+ days). */
export function bucketOf(daysOverdue: number): Bucket {
  if (daysOverdue <= 30) return '0-30';
  if (daysOverdue <= 60) return '31-60';
  if (daysOverdue <= 90) return '61-90';
  return '90+';
}

export interface DuesFilters {
  search: string;
  className: string;
  bucket: Bucket | '';
}

/** The dues the filters keep: a name (parent or child) or phone digits, a child's class, the oldest debt's age. */
export function filterDues(dues: readonly Due[], { search, className, bucket }: DuesFilters): Due[] {
  const words = search.trim().toLowerCase();
  const digits = search.replace(/\D/g, '');
  return dues.filter((due) => {
    if (className && !due.students.some((student) => student.class_name === className)) return false;
    if (bucket && bucketOf(due.days_overdue) !== bucket) return false;
    if (!words) return true;
    const names = [due.parent_name, ...due.students.map((student) => student.full_name)];
    return (
      names.some((name) => name.toLowerCase().includes(words)) ||
      (digits.length >= 3 && due.parent_phone.replace(/\D/g, '').includes(digits))
    );
  });
}

/** Sends the payments waiting on this device: now, when the network comes back, and every 30 s while some wait. */
function useReplayQueue() {
  const refresh = useRefreshFees();
  const waiting = usePaymentQueue().some((entry) => entry.sent_at === null);
  useEffect(() => {
    const replay = () =>
      void replayPayments()
        .then((sent) => (sent > 0 ? refresh() : undefined))
        .catch(() => undefined);
    replay();
    window.addEventListener('online', replay);
    const timer = waiting ? setInterval(replay, 30_000) : undefined;
    return () => {
      window.removeEventListener('online', replay);
      if (timer) clearInterval(timer);
    };
  }, [refresh, waiting]);
}

function DuesList({ onOpen }: { onOpen: (familyId: number) => void }) {
  const { t } = useTranslation('fees');
  const dues = useQuery(duesQuery());
  const className = useClassName();
  const centre = useClassChoices();
  const cards = useCardLayout();
  const [filters, setFilters] = useState<DuesFilters>({ search: '', className: '', bucket: '' });
  const [collecting, setCollecting] = useState<Due | null>(null);
  const [receipt, setReceipt] = useState<number | null>(null);
  const rows = useMemo(() => filterDues(dues.data ?? [], filters), [dues.data, filters]);
  // A page at a time: a large centre's dues are thousands of families. A new filter starts at page 1
  // (filterBy), and a page that emptied (families paid meanwhile) shows the last one left.
  const paging = usePageState(DUES_PAGE_SIZES[0] as number);
  const { page, pageSize, setPage } = paging;
  const lastPage = Math.max(0, Math.ceil(rows.length / pageSize) - 1);
  useEffect(() => setPage(0), [setPage]);
  useEffect(() => {
    if (page > lastPage) setPage(lastPage);
  }, [page, lastPage, setPage]);
  const shown = rowsOfPage(rows, Math.min(page, lastPage), pageSize);
  const filterBy = (update: (now: DuesFilters) => DuesFilters) => {
    setFilters(update);
    setPage(0);
  };
  // The classes of the children who owe, in the centre's order (a class it no longer lists, last).
  const classes = useMemo(() => {
    const order = centre.all.map((item) => item.value);
    const place = (value: string) => order.indexOf(value) + 1 || Number.MAX_SAFE_INTEGER;
    return [...new Set((dues.data ?? []).flatMap((due) => due.students.map((student) => student.class_name)))].sort(
      (a, b) => place(a) - place(b) || a.localeCompare(b),
    );
  }, [dues.data, centre.all]);

  const overdue = (due: Due) =>
    due.days_overdue > 0 ? t('dues.days', { count: due.days_overdue }) : t('dues.notYetDue');
  const parent: DataColumn<Due> = {
    id: 'parent',
    header: t('dues.columns.parent'),
    cell: (due) => (
      <Button
        variant="text"
        size="small"
        onClick={() => onOpen(due.family_id)}
        sx={{ textAlign: 'start', textTransform: 'none', p: 0, minWidth: 0, maxWidth: '100%' }}
      >
        <NameText>{due.parent_name}</NameText>
      </Button>
    ),
  };
  const phone = (due: Due) => <LtrText>{due.parent_phone}</LtrText>;
  const children: DataColumn<Due> = {
    id: 'children',
    header: t('dues.columns.children'),
    cell: (due) =>
      due.students.map((student) => (
        <Box key={student.id} component="span" sx={{ display: 'block' }}>
          {`${student.full_name} (${className(student.class_name)})`}
        </Box>
      )),
  };
  const balance: DataColumn<Due> = {
    id: 'balance',
    header: t('dues.columns.balance'),
    cell: (due) => <strong>{formatMoney(due.balance_paise)}</strong>,
    nowrap: true,
  };
  // A card has a line for each; the table at 1280 px puts the phone under the name and the days
  // overdue under the date, so that every column and both buttons fit without scrolling sideways.
  const columns: DataColumn<Due>[] = cards
    ? [
        parent,
        { id: 'phone', header: t('dues.columns.phone'), cell: phone, nowrap: true },
        children,
        balance,
        { id: 'oldest', header: t('dues.columns.oldestDue'), cell: (due) => formatDay(due.oldest_due_date) },
        { id: 'overdue', header: t('dues.columns.daysOverdue'), cell: overdue },
      ]
    : [
        {
          ...parent,
          cell: (due) => (
            <>
              {parent.cell(due)}
              <Box sx={{ typography: 'body2', color: 'text.secondary', whiteSpace: 'nowrap' }}>{phone(due)}</Box>
            </>
          ),
        },
        children,
        balance,
        {
          id: 'oldest',
          header: t('dues.columns.oldestDue'),
          nowrap: true,
          cell: (due) => (
            <>
              {formatDay(due.oldest_due_date)}
              <Box sx={{ typography: 'body2', color: 'text.secondary' }}>{overdue(due)}</Box>
            </>
          ),
        },
      ];

  const filtered = filters.search !== '' || filters.className !== '' || filters.bucket !== '';
  const message = dues.isError ? (
    <NotLoaded centred text={errorText(dues.error, t('dues.loadFailed'))} onRetry={() => void dues.refetch()} />
  ) : dues.isPending ? (
    t('dues.loading')
  ) : rows.length === 0 ? (
    filtered ? (
      t('dues.noMatch')
    ) : (
      t('dues.empty')
    )
  ) : undefined;

  return (
    <Box component="section" aria-labelledby="fees-dues-heading">
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1, gap: 1 }}>
        <Typography id="fees-dues-heading" component="h2" variant="h6">
          {t('dues.heading')}
        </Typography>
        <FeesExportMenu report="dues" />
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 2 }}>
        <SearchField
          label={t('dues.search')}
          value={filters.search}
          onChange={(search) => filterBy((now) => ({ ...now, search }))}
          sx={{ minWidth: { sm: 260 } }}
        />
        <TextField
          select
          size="small"
          label={t('dues.class')}
          value={filters.className}
          onChange={(event) => filterBy((now) => ({ ...now, className: event.target.value }))}
          sx={{ minWidth: 160 }}
        >
          <MenuItem value="">{t('dues.allClasses')}</MenuItem>
          {classes.map((value) => (
            <MenuItem key={value} value={value}>
              {className(value)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('dues.bucket')}
          value={filters.bucket}
          onChange={(event) => filterBy((now) => ({ ...now, bucket: event.target.value as Bucket | '' }))}
          sx={{ minWidth: 160 }}
        >
          <MenuItem value="">{t('dues.anyAge')}</MenuItem>
          {AGEING_BUCKETS.map((bucket) => (
            <MenuItem key={bucket} value={bucket}>
              {t(`buckets.${bucketKey(bucket)}`)}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <ColumnTable
        label={t('dues.label')}
        region={t('dues.label')}
        outlined
        columns={columns}
        rows={shown}
        rowKey={(due) => due.family_id}
        nameOf={(due) => due.parent_name}
        message={message}
        busy={dues.isFetching && !dues.isPending}
        actions={{
          header: t('dues.columns.actions'),
          cell: (due) => (
            <Stack direction={{ xs: 'row', md: 'column' }} spacing={1} sx={{ justifyContent: 'flex-end' }}>
              <Button size="small" onClick={() => onOpen(due.family_id)}>
                {t('dues.open')}
              </Button>
              <Button
                size="small"
                variant="outlined"
                startIcon={<PaymentsIcon />}
                onClick={() => setCollecting(due)}
                aria-label={t('dues.collectFor', { name: due.parent_name })}
              >
                {t('dues.collect')}
              </Button>
            </Stack>
          ),
        }}
      />
      {rows.length > pageSize && (
        <Pager paging={paging} count={rows.length} sizes={DUES_PAGE_SIZES} page={Math.min(page, lastPage)} />
      )}
      {collecting && (
        <PaymentDialog
          family={collecting}
          onClose={() => setCollecting(null)}
          onReceipt={(paymentId) => {
            setCollecting(null);
            setReceipt(paymentId);
          }}
        />
      )}
      {receipt !== null && <ReceiptDialog paymentId={receipt} onClose={() => setReceipt(null)} />}
    </Box>
  );
}

/**
 * Fees › Dues (issue 29 items 3 and 7): what is owed by age and what came in today and this month,
 * then the families that owe, oldest debt first; a family's statement opens in place
 * (`?tab=dues&family=<id>`, so a link can open it). Payments kept on this device while offline are
 * sent from here when the network is back.
 */
export function DuesTab() {
  const { t } = useTranslation('fees');
  const [params, setParams] = useSearchParams();
  const family = Number(params.get('family'));
  const queue = usePaymentQueue();
  useReplayQueue();
  const waiting = queue.filter((entry) => entry.sent_at === null).length;
  const open = (familyId: number | null) =>
    setParams(familyId === null ? {} : { tab: 'dues', family: String(familyId) }, { replace: false });

  if (Number.isInteger(family) && family > 0)
    return <FamilyStatement key={family} familyId={family} onBack={() => open(null)} />;
  return (
    <Box sx={{ p: { xs: 1.5, sm: 2 } }}>
      {waiting > 0 && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('queue.waitingCount', { count: waiting })}
        </Alert>
      )}
      <DuesSummary />
      <DuesList onOpen={open} />
    </Box>
  );
}
