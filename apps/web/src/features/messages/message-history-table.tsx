import ChatBubbleOutlineIcon from '@mui/icons-material/ChatBubbleOutlineOutlined';
import MailOutlineIcon from '@mui/icons-material/MailOutlined';
import PhoneIphoneIcon from '@mui/icons-material/PhoneIphone';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import { Box, Chip, type ChipProps, Paper, Skeleton, Tooltip, Typography } from '@mui/material';
import { type Communication, DELIVERY_STATUSES, type DeliveryStatus, type MessageAttempt } from '@tuitiondesk/contract';
import { ColumnTable } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { Pager, type PageState } from '../../components/pager';
import type { DataColumn } from '../../components/row-cards';
import { type TFunction, useTranslation } from '../../i18n';
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

/** The statuses the server gives a message, each with its text (`status.<name>`). */
const KNOWN_STATUSES = new Set<string>(DELIVERY_STATUSES);

/** A delivery status in words: a known one in the language in use, any other as the server wrote it, capitalised. */
export function deliveryStatusText(t: TFunction<'messages'>, status: string): string {
  if (!status) return t('status.unknown');
  const name = status.toLowerCase();
  return KNOWN_STATUSES.has(name)
    ? t(`status.${name as DeliveryStatus}`)
    : name.charAt(0).toUpperCase() + name.slice(1);
}

/** The channel that reached the family (or is trying to). */
export function MessageTypeIcon({ type }: { type: string }) {
  const { t } = useTranslation('messages');
  switch (type) {
    case 'WHATSAPP':
      // WhatsApp's green darkened to 4.5:1 on white, as an icon that carries meaning must be.
      return <WhatsAppIcon titleAccess={t('history.whatsapp')} sx={{ color: '#128c4a' }} />;
    case 'IN_APP':
      return <PhoneIphoneIcon titleAccess={t('history.inApp')} color="primary" />;
    default:
      return (
        <MailOutlineIcon titleAccess={type ? t('history.otherType', { type }) : t('history.other')} color="action" />
      );
  }
}

/** The kinds of message that are not a notice staff wrote to parents: each is named above its subject. */
const NAMED_KINDS = new Set<Communication['kind']>([
  'absence_alert',
  'late_alert',
  'access_notice',
  'leave_notice',
  'whatsapp',
]);
const isNamedKind = (kind: Communication['kind']): kind is Exclude<Communication['kind'], 'notice'> =>
  NAMED_KINDS.has(kind);

/** One line per channel tried: "WhatsApp: Delivered 22 Nov 2026, 09:07", with the reason it failed or waits. */
export function attemptLine(t: TFunction<'messages'>, attempt: MessageAttempt): string {
  const when = attempt.read_at ?? attempt.delivered_at ?? attempt.sent_at;
  const parts = [`${t(`history.channel.${attempt.channel}`)}: ${deliveryStatusText(t, attempt.status)}`];
  if (when) parts.push(formatDayTime(when));
  const reason = attempt.failure_reason ?? attempt.waiting_reason;
  return reason ? `${parts.join(' ')}. ${reason}` : parts.join(' ');
}

function StatusChip({ item }: { item: Communication }) {
  const { t } = useTranslation('messages');
  const color = deliveryStatusColor(item.delivery_status);
  const details = [
    ...item.attempts.map((attempt) => attemptLine(t, attempt)),
    ...(item.attempts.length === 0 && item.failure_reason ? [item.failure_reason] : []),
  ];
  const chip = (
    <Chip
      size="small"
      label={deliveryStatusText(t, item.delivery_status)}
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
          {t('history.replied', { reply: t(`reply.${item.reply}`) })}
        </Typography>
      )}
    </>
  );
}

/** Type, Subject, Recipient, Sent At, Status: on a phone, a card a message, headed by its subject. */
const columns = (t: TFunction<'messages'>): readonly DataColumn<Communication>[] => [
  { id: 'type', header: t('history.columns.type'), cell: (item) => <MessageTypeIcon type={item.message_type} /> },
  {
    id: 'subject',
    header: t('history.columns.subject'),
    sx: { maxWidth: 360 },
    cell: (item) => (
      <>
        {isNamedKind(item.kind) && (
          <Typography variant="caption" color="text.secondary" component="div">
            {t(`history.kind.${item.kind}`)}
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
    header: t('history.columns.recipient'),
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
  { id: 'sent-at', header: t('history.columns.sentAt'), nowrap: true, cell: (item) => formatDayTime(item.sent_at) },
  { id: 'status', header: t('history.columns.status'), cell: (item) => <StatusChip item={item} /> },
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
  const { t } = useTranslation('messages');
  const { page, pageSize } = paging;
  if (loading) {
    return (
      <Box aria-label={t('history.loading')} sx={{ p: 2 }}>
        {[0, 1, 2, 3].map((row) => (
          <Skeleton key={row} height={48} />
        ))}
      </Box>
    );
  }
  if (!items || (items.length === 0 && page === 0)) {
    return (
      <EmptyState icon={<ChatBubbleOutlineIcon />} title={t('history.emptyTitle')} text={t('history.emptyText')} />
    );
  }
  // The API gives no total: while another page exists the count is unknown (-1), then it is exact.
  const count = hasMore ? -1 : page * pageSize + items.length;
  return (
    <Paper variant="outlined">
      <ColumnTable
        label={t('history.label')}
        region={t('history.label')}
        columns={columns(t)}
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
