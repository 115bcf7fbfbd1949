import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import PaymentsIcon from '@mui/icons-material/Payments';
import { Alert, AlertTitle, Box, Button, Chip, Paper, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { FeeFamily, Statement } from '@tuitiondesk/contract';
import { useMemo, useState } from 'react';
import { ColumnTable } from '../../components/data-table';
import { LtrText } from '../../components/data-text';
import { FLIP_IN_RTL } from '../../components/flip-in-rtl';
import { NotLoaded } from '../../components/not-loaded';
import { PageSpinner } from '../../components/page-spinner';
import type { DataColumn } from '../../components/row-cards';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { formatDay } from '../../lib/dates';
import { formatMoney } from '../../lib/money';
import { familyQuery, statementQuery } from './api';
import { FeesExportMenu } from './export-menu';
import { PaymentLinkButton } from './family-payment-link';
import { FamilyState } from './family-state';
import { BalanceText, useClassName } from './family-text';
import { PaymentDialog } from './payment-dialog';
import { dismissPayment, usePaymentQueue } from './payment-queue';
import { ReceiptDialog } from './receipt-view';

type Entry = Statement['entries'][number] & { index: number };

/**
 * A family's statement (issue 29 item 7): its parent, children and balance, what waits on this device
 * to be recorded, and every ledger entry with the running balance, newest at the top (ADR 055). From
 * here: collect a payment, a payment link, a payment's receipt (and its reversal), the export.
 */
export function FamilyStatement({ familyId, onBack }: { familyId: number; onBack: () => void }) {
  const { t } = useTranslation('fees');
  const family = useQuery(familyQuery(familyId));
  const statement = useQuery(statementQuery(familyId));
  const className = useClassName();
  const queue = usePaymentQueue().filter((entry) => entry.body.family_id === familyId);
  const [collecting, setCollecting] = useState(false);
  const [receipt, setReceipt] = useState<number | null>(null);

  const entries = useMemo<Entry[]>(
    () => (statement.data?.entries ?? []).map((entry, index) => ({ ...entry, index })).reverse(),
    [statement.data],
  );

  if (family.isError || statement.isError)
    return (
      <Box sx={{ p: 2 }}>
        <Button startIcon={<ArrowBackIcon sx={FLIP_IN_RTL} />} onClick={onBack} sx={{ mb: 2 }}>
          {t('statement.back')}
        </Button>
        <NotLoaded
          text={errorText(family.error ?? statement.error, t('statement.loadFailed'))}
          onRetry={() => {
            void family.refetch();
            void statement.refetch();
          }}
        />
      </Box>
    );
  if (!family.data || !statement.data) return <PageSpinner />;
  const data: FeeFamily = family.data;
  const childName = (studentId: number | null) =>
    studentId === null ? '-' : (data.students.find((student) => student.id === studentId)?.full_name ?? '-');

  const columns: DataColumn<Entry>[] = [
    { id: 'date', header: t('statement.columns.date'), cell: (entry) => formatDay(entry.date), nowrap: true },
    { id: 'kind', header: t('statement.columns.kind'), cell: (entry) => t(`kinds.${entry.kind}`) },
    { id: 'child', header: t('statement.columns.child'), cell: (entry) => childName(entry.student_id) },
    { id: 'description', header: t('statement.columns.description'), cell: (entry) => entry.description },
    {
      id: 'debit',
      header: t('statement.columns.debit'),
      cell: (entry) => (entry.debit_paise ? formatMoney(entry.debit_paise) : ''),
      nowrap: true,
    },
    {
      id: 'credit',
      header: t('statement.columns.credit'),
      cell: (entry) => (entry.credit_paise ? formatMoney(entry.credit_paise) : ''),
      nowrap: true,
    },
    {
      id: 'balance',
      header: t('statement.columns.balance'),
      cell: (entry) => formatMoney(entry.balance_paise),
      nowrap: true,
    },
  ];

  return (
    <Box sx={{ p: { xs: 1.5, sm: 2 } }}>
      <Button startIcon={<ArrowBackIcon sx={FLIP_IN_RTL} />} onClick={onBack} sx={{ mb: 1 }}>
        {t('statement.back')}
      </Button>
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ justifyContent: 'space-between' }}>
          <Box sx={{ minWidth: 0 }}>
            <Typography component="h2" variant="h6">
              {t('statement.title', { name: data.parent_name })}
            </Typography>
            <Typography color="text.secondary">
              <LtrText>{data.parent_phone}</LtrText>
            </Typography>
            <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', mt: 1 }}>
              {data.students.map((student) => (
                <Chip key={student.id} size="small" label={`${student.full_name} · ${className(student.class_name)}`} />
              ))}
            </Stack>
            <FamilyState family={data} />
          </Box>
          <Box sx={{ textAlign: { md: 'end' } }}>
            <Typography variant="h5" component="p" sx={{ fontWeight: 600 }} data-testid="family-balance">
              <BalanceText balance={data.balance_paise} />
            </Typography>
            <Stack
              direction="row"
              spacing={1}
              useFlexGap
              sx={{ flexWrap: 'wrap', mt: 1, justifyContent: { md: 'flex-end' } }}
            >
              <Button variant="contained" startIcon={<PaymentsIcon />} onClick={() => setCollecting(true)}>
                {t('dues.collect')}
              </Button>
              <PaymentLinkButton familyId={familyId} phone={data.parent_phone} parentName={data.parent_name} />
              <FeesExportMenu report="statement" familyId={familyId} />
            </Stack>
          </Box>
        </Stack>
      </Paper>

      {queue.length > 0 && (
        <Alert severity="info" sx={{ mb: 2 }}>
          <AlertTitle>{t('queue.title')}</AlertTitle>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {queue.map((entry) => (
              <li key={entry.client_id}>
                {t('queue.line', {
                  amount: formatMoney(entry.body.amount_paise),
                  mode: t(`modes.${entry.body.mode}`),
                  date: formatDay(entry.body.received_on),
                })}{' '}
                {entry.sent_at === null
                  ? t('queue.waiting')
                  : entry.result
                    ? t('queue.recorded', { number: entry.result.receipt_number })
                    : t('queue.refused', { reason: entry.refusal ?? '' })}
                {entry.sent_at !== null && (
                  <Button size="small" onClick={() => void dismissPayment(entry.client_id)}>
                    {t('queue.dismiss')}
                  </Button>
                )}
              </li>
            ))}
          </Box>
        </Alert>
      )}

      <Typography component="h3" variant="subtitle1" sx={{ mb: 1 }}>
        {t('statement.heading')}
      </Typography>
      <ColumnTable
        label={t('statement.label')}
        region={t('statement.label')}
        outlined
        columns={columns}
        rows={entries}
        rowKey={(entry) => entry.index}
        nameOf={(entry) => `${formatDay(entry.date)} ${t(`kinds.${entry.kind}`)}`}
        titleColumn="kind"
        message={entries.length === 0 ? t('statement.empty') : undefined}
        actions={{
          header: t('statement.columns.receipt'),
          cell: (entry) =>
            entry.payment_id !== null ? (
              <Button size="small" onClick={() => setReceipt(entry.payment_id)}>
                {t('statement.receipt')}
              </Button>
            ) : null,
        }}
      />

      {collecting && (
        <PaymentDialog
          family={data}
          onClose={() => setCollecting(false)}
          onReceipt={(paymentId) => {
            setCollecting(false);
            setReceipt(paymentId);
          }}
        />
      )}
      {receipt !== null && <ReceiptDialog paymentId={receipt} onClose={() => setReceipt(null)} />}
    </Box>
  );
}
