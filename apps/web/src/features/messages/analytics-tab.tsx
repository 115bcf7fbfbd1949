import InsightsIcon from '@mui/icons-material/InsightsOutlined';
import { Box, Grid, MenuItem, Paper, Skeleton, TextField, Typography } from '@mui/material';
import type { MessageAnalytics } from '@tuitiondesk/contract';
import { lazy, Suspense, useState } from 'react';
import { ColumnTable } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import type { DataColumn } from '../../components/row-cards';
import { formatDayTime, isoDaysAgo, todayIso } from '../../lib/dates';
import { useAnalytics } from './api';

const ReachChart = lazy(() => import('./reach-chart'));

const RANGES = [
  { days: 7, label: 'Last 7 days' },
  { days: 30, label: 'Last 30 days' },
  { days: 90, label: 'Last 90 days' },
];

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
  const { totals, whatsapp_cost: cost } = data;
  const figures = [
    { label: 'Families messaged', value: totals.families },
    { label: 'Reached in the app', value: totals.in_app },
    { label: 'Reached on WhatsApp', value: totals.whatsapp },
    { label: 'Delivered', value: percent(totals.delivered, totals.families), caption: `${totals.delivered} families` },
    { label: 'Read', value: percent(totals.read, totals.families), caption: `${totals.read} families` },
    { label: 'Replies', value: totals.replies },
    { label: 'Not reached', value: totals.not_reached, caption: 'On the call list' },
    {
      label: 'WhatsApp this month',
      value: `₹${cost.estimate.toFixed(2)}`,
      caption: `${cost.template_messages} template messages at ₹${cost.price_per_message} (estimate)`,
    },
  ];
  return (
    <Grid container spacing={2}>
      {figures.map((figure) => (
        <Grid key={figure.label} size={{ xs: 6, md: 3 }}>
          <Figure {...figure} />
        </Grid>
      ))}
    </Grid>
  );
}

type Send = MessageAnalytics['sends'][number];

/** Message, Families, In app, WhatsApp, Delivered, Read, Replies, Not reached: on a phone, a card a message. */
const SEND_COLUMNS: readonly DataColumn<Send>[] = [
  {
    id: 'message',
    header: 'Message',
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
  { id: 'families', header: 'Families', cell: (send) => send.families },
  { id: 'in-app', header: 'In app', cell: (send) => send.in_app },
  { id: 'whatsapp', header: 'WhatsApp', cell: (send) => send.whatsapp },
  { id: 'delivered', header: 'Delivered', cell: (send) => percent(send.delivered, send.families) },
  { id: 'read', header: 'Read', cell: (send) => percent(send.read, send.families) },
  { id: 'replies', header: 'Replies', cell: (send) => send.replies },
  { id: 'not-reached', header: 'Not reached', cell: (send) => send.not_reached },
];
const sendId = (send: Send) => send.id;
const sendName = (send: Send) => send.subject;

/** Message Analytics: how the centre's messages reached families, per channel, per day and per message. */
export function AnalyticsTab() {
  const [days, setDays] = useState(30);
  const analytics = useAnalytics(isoDaysAgo(days - 1), todayIso());
  const data = analytics.data;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <TextField
        select
        label="Period"
        value={days}
        onChange={(event) => setDays(Number(event.target.value))}
        sx={{ maxWidth: 220 }}
        size="small"
      >
        {RANGES.map((range) => (
          <MenuItem key={range.days} value={range.days}>
            {range.label}
          </MenuItem>
        ))}
      </TextField>
      {!data ? (
        <Skeleton height={160} aria-label="Loading message analytics" />
      ) : data.totals.families === 0 ? (
        <Paper variant="outlined">
          <EmptyState
            icon={<InsightsIcon />}
            title="No messages in this period"
            text="When you send messages or approve absences, how they reached families shows here."
          />
          <Figures data={data} />
        </Paper>
      ) : (
        <>
          <Figures data={data} />
          <Paper variant="outlined" sx={{ p: 2 }}>
            <Typography variant="h6" component="h3">
              Families reached per day
            </Typography>
            <Suspense fallback={<Skeleton height={280} aria-label="Loading the chart" />}>
              <ReachChart days={data.days} />
            </Suspense>
          </Paper>
          {data.sends.length > 0 && (
            <Paper variant="outlined">
              <ColumnTable
                label="Messages sent"
                region="Messages sent"
                columns={SEND_COLUMNS}
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
