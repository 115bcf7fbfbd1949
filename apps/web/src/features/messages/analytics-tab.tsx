import InsightsIcon from '@mui/icons-material/InsightsOutlined';
import { Box, Grid, MenuItem, Paper, Skeleton, TextField, Typography } from '@mui/material';
import type { MessageAnalytics } from '@tuitiondesk/contract';
import { lazy, Suspense, useState } from 'react';
import { ColumnTable } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import type { DataColumn } from '../../components/row-cards';
import { type TFunction, useTranslation } from '../../i18n';
import { formatDayTime, formatNumber, isoDaysAgo, todayIso } from '../../lib/dates';
import { useAnalytics } from './api';

const ReachChart = lazy(() => import('./reach-chart'));

/** The periods offered, in days. */
const RANGES = [7, 30, 90];

/** "83%" of `part` in `whole`, or "-" when there is nothing to divide. */
export function percent(part: number, whole: number): string {
  return whole === 0 ? '-' : `${Math.round((part / whole) * 100)}%`;
}

function Figure({ label, value, caption }: { label: string; value: string | number; caption?: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, height: '100%' }} role="group" aria-label={label}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h5" component="p">
        {value}
      </Typography>
      {caption && (
        <Typography variant="caption" color="text.secondary">
          {caption}
        </Typography>
      )}
    </Paper>
  );
}

function Figures({ data }: { data: MessageAnalytics }) {
  const { t } = useTranslation('messages');
  const { totals, whatsapp_cost: cost } = data;
  const figures = [
    { label: t('analytics.families'), value: formatNumber(totals.families) },
    { label: t('analytics.inApp'), value: formatNumber(totals.in_app) },
    { label: t('analytics.whatsapp'), value: formatNumber(totals.whatsapp) },
    {
      label: t('analytics.delivered'),
      value: percent(totals.delivered, totals.families),
      caption: t('analytics.familiesCount', { count: totals.delivered }),
    },
    {
      label: t('analytics.read'),
      value: percent(totals.read, totals.families),
      caption: t('analytics.familiesCount', { count: totals.read }),
    },
    { label: t('analytics.sentByHand'), value: formatNumber(totals.sent_by_hand) },
    { label: t('analytics.notReached'), value: formatNumber(totals.not_reached), caption: t('analytics.onCallList') },
    { label: t('analytics.replies'), value: formatNumber(totals.replies) },
    {
      label: t('analytics.cost'),
      value: `₹${cost.estimate.toFixed(2)}`,
      caption: t('analytics.costCaption', { count: cost.template_messages, price: cost.price_per_message }),
    },
  ];
  return (
    <Grid container spacing={2}>
      {figures.map((figure) => (
        <Grid key={figure.label} size={{ xs: 6, md: 4, lg: 3 }}>
          <Figure {...figure} />
        </Grid>
      ))}
    </Grid>
  );
}

type Send = MessageAnalytics['sends'][number];

/** Message, Families, In app, WhatsApp, Delivered, Read, Sent by hand, Not reached, Replies: on a phone, a card a message. */
const sendColumns = (t: TFunction<'messages'>): readonly DataColumn<Send>[] => [
  {
    id: 'message',
    header: t('analytics.columns.message'),
    cell: (send) => (
      <>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {send.subject}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {formatDayTime(send.sent_at)}
          {send.sent_by ? ` · ${send.sent_by}` : ''}
        </Typography>
      </>
    ),
  },
  { id: 'families', header: t('analytics.columns.families'), cell: (send) => formatNumber(send.families) },
  { id: 'in-app', header: t('analytics.columns.inApp'), cell: (send) => formatNumber(send.in_app) },
  { id: 'whatsapp', header: t('analytics.columns.whatsapp'), cell: (send) => formatNumber(send.whatsapp) },
  { id: 'delivered', header: t('analytics.columns.delivered'), cell: (send) => percent(send.delivered, send.families) },
  { id: 'read', header: t('analytics.columns.read'), cell: (send) => percent(send.read, send.families) },
  {
    id: 'sent-by-hand',
    header: t('analytics.columns.sentByHand'),
    cell: (send) => formatNumber(send.sent_by_hand),
  },
  { id: 'not-reached', header: t('analytics.columns.notReached'), cell: (send) => formatNumber(send.not_reached) },
  { id: 'replies', header: t('analytics.columns.replies'), cell: (send) => formatNumber(send.replies) },
];
const sendId = (send: Send) => send.id;
const sendName = (send: Send) => send.subject;

/** Message Analytics: how the centre's messages reached families, per channel, per day and per message. */
export function AnalyticsTab() {
  const { t } = useTranslation('messages');
  const [days, setDays] = useState(30);
  const analytics = useAnalytics(isoDaysAgo(days - 1), todayIso());
  const data = analytics.data;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <TextField
        select
        label={t('analytics.period')}
        value={days}
        onChange={(event) => setDays(Number(event.target.value))}
        sx={{ maxWidth: 220 }}
        size="small"
      >
        {RANGES.map((range) => (
          <MenuItem key={range} value={range}>
            {t('analytics.lastDays', { count: range })}
          </MenuItem>
        ))}
      </TextField>
      {!data ? (
        <Skeleton height={160} aria-label={t('analytics.loading')} />
      ) : data.totals.families === 0 ? (
        <Paper variant="outlined">
          <EmptyState icon={<InsightsIcon />} title={t('analytics.emptyTitle')} text={t('analytics.emptyText')} />
          <Figures data={data} />
        </Paper>
      ) : (
        <>
          <Figures data={data} />
          <Paper variant="outlined" sx={{ p: 2 }}>
            <Typography variant="h6" component="h3">
              {t('analytics.perDay')}
            </Typography>
            <Suspense fallback={<Skeleton height={280} aria-label={t('analytics.loadingChart')} />}>
              <ReachChart days={data.days} />
            </Suspense>
          </Paper>
          {data.sends.length > 0 && (
            <Paper variant="outlined">
              <ColumnTable
                label={t('analytics.sent')}
                region={t('analytics.sent')}
                columns={sendColumns(t)}
                rows={data.sends}
                rowKey={sendId}
                nameOf={sendName}
                sx={{ minWidth: 760 }}
              />
            </Paper>
          )}
        </>
      )}
    </Box>
  );
}
