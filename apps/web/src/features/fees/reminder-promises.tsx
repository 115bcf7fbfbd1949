import { Paper, Typography } from '@mui/material';
import type { FeePromise } from '@tuitiondesk/contract';
import { ColumnTable } from '../../components/data-table';
import { LtrText, NameText } from '../../components/data-text';
import { NotLoaded } from '../../components/not-loaded';
import type { DataColumn } from '../../components/row-cards';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { formatDay } from '../../lib/dates';
import { formatMoney } from '../../lib/money';
import { usePromises } from './reminders-api';

/** The families whose promise to pay pauses their reminders until the day they gave, soonest first. */
export function ReminderPromises() {
  const { t } = useTranslation('feeReminders');
  const promises = usePromises();
  const rows = promises.data?.promises ?? [];
  const columns: DataColumn<FeePromise>[] = [
    { id: 'family', header: t('promises.family'), cell: (row) => <NameText>{row.parent_name}</NameText> },
    { id: 'phone', header: t('promises.phone'), cell: (row) => <LtrText>{row.parent_phone}</LtrText>, nowrap: true },
    { id: 'promised', header: t('promises.promised'), cell: (row) => formatDay(row.promised_on), nowrap: true },
    {
      id: 'balance',
      header: t('promises.balance'),
      cell: (row) => <strong>{formatMoney(row.balance_paise)}</strong>,
      nowrap: true,
    },
  ];
  const message = promises.isError ? (
    <NotLoaded
      centred
      text={errorText(promises.error, t('promises.notLoaded'))}
      onRetry={() => void promises.refetch()}
    />
  ) : promises.isPending ? (
    t('promises.loading')
  ) : rows.length === 0 ? (
    t('promises.empty')
  ) : undefined;
  return (
    <Paper variant="outlined" component="section" aria-labelledby="reminder-promises-title" sx={{ p: 2 }}>
      <Typography id="reminder-promises-title" component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
        {t('promises.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {t('promises.hint')}
      </Typography>
      <ColumnTable
        label={t('promises.title')}
        columns={columns}
        rows={rows}
        rowKey={(row) => row.family_id}
        nameOf={(row) => row.parent_name}
        message={message}
      />
    </Paper>
  );
}
