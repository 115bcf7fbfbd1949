import ChatBubbleOutlineIcon from '@mui/icons-material/ChatBubbleOutlineOutlined';
import MailOutlineIcon from '@mui/icons-material/MailOutlined';
import PhoneIphoneIcon from '@mui/icons-material/PhoneIphone';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import { Box, Chip, type ChipProps, Paper, Skeleton, Tooltip, Typography } from '@mui/material';
import { type Communication, type MessageAttempt, type MessageKind, PARENT_REPLY_LABELS } from '@tuitiondesk/contract';
import { ColumnTable } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { Pager, type PageState } from '../../components/pager';
import type { DataColumn } from '../../components/row-cards';
import { formatDayTime } from '../../lib/dates';

/** The history shows the first 50 characters of each message. */
export const PREVIEW_LENGTH = 50;

export function messagePreview(message: string): string {
  const chars = Array.from(message);
  return chars.length > PREVIEW_LENGTH ? `${chars.slice(0, PREVIEW_LENGTH).join('')}…` : message;
}

/** Delivery status colours: delivered and read success, sent info, failed error, queued and anything else default. */
export function deliveryStatusColor(status: string): ChipProps['color'] {
  switch (status.toLowerCase()) {
    case 'delivered':
    case 'read':
      return 'success';
    case 'sent':
      return 'info';
    case 'failed':
      return 'error';
    default:
      return 'default';
  }
}

function statusLabel(status: string): string {
  return status ? status.charAt(0).toUpperCase() + status.slice(1).toLowerCase() : 'Unknown';
}

/** The channel that reached the family (or is trying to). */
export function MessageTypeIcon({ type }: { type: string }) {
  switch (type) {
    case 'WHATSAPP':
      // WhatsApp's green darkened to 4.5:1 on white, as an icon that carries meaning must be.
      return <WhatsAppIcon titleAccess="WhatsApp" sx={{ color: '#128c4a' }} />;
    case 'IN_APP':
      return <PhoneIphoneIcon titleAccess="In-app message" color="primary" />;
    default:
      return <MailOutlineIcon titleAccess={type ? `Other (${type})` : 'Other'} color="action" />;
  }
}

/** What a message is, when it is not a notice staff wrote to parents. */
const KIND_LABELS: Partial<Record<MessageKind, string>> = {
  absence_alert: 'Absence alert',
  late_alert: 'Late alert',
  access_notice: 'Parent app access changed',
  whatsapp: 'WhatsApp message to one parent',
};

const CHANNEL_LABELS: Record<MessageAttempt['channel'], string> = { push: 'Parent app', whatsapp: 'WhatsApp' };

/** One line per channel tried: "WhatsApp: Delivered 22 Nov 2026, 09:07", with the reason it failed or waits. */
export function attemptLine(attempt: MessageAttempt): string {
  const when = attempt.read_at ?? attempt.delivered_at ?? attempt.sent_at;
  const parts = [`${CHANNEL_LABELS[attempt.channel]}: ${statusLabel(attempt.status)}`];
  if (when) parts.push(formatDayTime(when));
  const reason = attempt.failure_reason ?? attempt.waiting_reason;
  return reason ? `${parts.join(' ')}. ${reason}` : parts.join(' ');
}

function StatusChip({ item }: { item: Communication }) {
  const color = deliveryStatusColor(item.delivery_status);
  const details = [
    ...item.attempts.map(attemptLine),
    ...(item.attempts.length === 0 && item.failure_reason ? [item.failure_reason] : []),
  ];
  const chip = (
    <Chip
      size="small"
      label={statusLabel(item.delivery_status)}
      color={color}
      // White on the theme's light info blue is below 4.5:1; its dark shade keeps the colour and the contrast.
      sx={color === 'info' ? { bgcolor: 'info.dark' } : undefined}
      // Focusable when it has more to say, so the details open from the keyboard too.
      tabIndex={details.length > 0 ? 0 : undefined}
      aria-description={details.length > 0 ? details.join('; ') : undefined}
    />
  );
  const status =
    details.length > 0 ? (
      <Tooltip
        title={
          <Box component="ul" sx={{ m: 0, pl: 2 }}>
            {details.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </Box>
        }
      >
        {chip}
      </Tooltip>
    ) : (
      chip
    );
  return (
    <>
      {status}
      {item.reply && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, whiteSpace: 'nowrap' }}>
          Replied: {PARENT_REPLY_LABELS[item.reply]}
        </Typography>
      )}
    </>
  );
}

/** Type, Subject, Recipient, Sent At, Status: on a phone, a card a message, headed by its subject. */
const COLUMNS: readonly DataColumn<Communication>[] = [
  { id: 'type', header: 'Type', cell: (item) => <MessageTypeIcon type={item.message_type} /> },
  {
    id: 'subject',
    header: 'Subject',
    sx: { maxWidth: 360 },
    cell: (item) => (
      <>
        {KIND_LABELS[item.kind] && (
          <Typography variant="caption" color="text.secondary" component="div">
            {KIND_LABELS[item.kind]}
          </Typography>
        )}
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {item.subject || '-'}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {messagePreview(item.message)}
        </Typography>
      </>
    ),
  },
  {
    id: 'recipient',
    header: 'Recipient',
    cell: (item) => (
      <>
        <Typography variant="body2">{item.recipient_name || item.recipient}</Typography>
        {item.recipient_name && (
          <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
            {item.recipient}
          </Typography>
        )}
      </>
    ),
  },
  { id: 'sent-at', header: 'Sent At', nowrap: true, cell: (item) => formatDayTime(item.sent_at) },
  { id: 'status', header: 'Status', cell: (item) => <StatusChip item={item} /> },
];
const itemId = (item: Communication) => item.id;
/** A card's name: the subject and to whom. */
const itemName = (item: Communication) => `${item.subject || '-'}, ${item.recipient_name || item.recipient}`;

interface Props {
  items: Communication[] | undefined;
  loading: boolean;
  paging: PageState;
  hasMore: boolean;
}

export const ROWS_PER_PAGE_OPTIONS = [25, 50, 100];

export function MessageHistoryTable({ items, loading, paging, hasMore }: Props) {
  const { page, pageSize } = paging;
  if (loading) {
    return (
      <Box aria-label="Loading messages" sx={{ p: 2 }}>
        {[0, 1, 2, 3].map((row) => (
          <Skeleton key={row} height={48} />
        ))}
      </Box>
    );
  }
  if (!items || (items.length === 0 && page === 0)) {
    return (
      <EmptyState
        icon={<ChatBubbleOutlineIcon />}
        title="No messages sent yet"
        text="Messages you send to parents will appear here."
      />
    );
  }
  // The API gives no total: while another page exists the count is unknown (-1), then it is exact.
  const count = hasMore ? -1 : page * pageSize + items.length;
  return (
    <Paper variant="outlined">
      <ColumnTable
        label="Message history"
        region="Message history"
        columns={COLUMNS}
        rows={items}
        rowKey={itemId}
        nameOf={itemName}
        titleColumn="subject"
        sx={{ minWidth: 760 }}
      />
      <Pager paging={paging} count={count} sizes={ROWS_PER_PAGE_OPTIONS} />
    </Paper>
  );
}
