import MailOutlineIcon from '@mui/icons-material/MailOutlined';
import PhoneIphoneIcon from '@mui/icons-material/PhoneIphone';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import { Box, Chip, type ChipProps, Tooltip, Typography } from '@mui/material';
import {
  type Communication,
  DELIVERY_STATUSES,
  type DeliveryStatus,
  type FamilyMessage,
  type MessageAttempt,
} from '@tuitiondesk/contract';
import { LtrText } from '../../components/data-text';
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
  'fee_reminder',
  'whatsapp',
]);
export const isNamedKind = (kind: Communication['kind']): kind is Exclude<Communication['kind'], 'notice'> =>
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

/** Where a message stands beyond the channels' status: sent by hand (who and when), or not reached. */
function ReachNote({ item }: { item: FamilyMessage }) {
  const { t } = useTranslation('messages');
  if (item.reach === 'sent_by_hand') {
    return (
      <Typography variant="body2" sx={{ mt: 0.5 }}>
        {t('history.sentByHand', { name: item.sent_by_hand_by ?? '-', date: formatDayTime(item.sent_by_hand_at) })}
      </Typography>
    );
  }
  if (item.reach === 'not_reached') {
    return (
      <Typography variant="body2" color="error.dark" sx={{ mt: 0.5 }}>
        {t('history.notReached')}
      </Typography>
    );
  }
  return null;
}

/** The family a message went to: the name, and the phone beneath it, left to right in any language. */
export function RecipientCell({ item }: { item: Communication }) {
  return (
    <>
      <Typography variant="body2">{item.recipient_name || <LtrText>{item.recipient}</LtrText>}</Typography>
      {item.recipient_name && (
        <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
          <LtrText>{item.recipient}</LtrText>
        </Typography>
      )}
    </>
  );
}

/** The family's status: the channels' chip, with the reason on hover, its reply, and sent by hand or not reached. */
export function FamilyStatus({ item }: { item: FamilyMessage }) {
  return (
    <>
      <StatusChip item={item} />
      <ReachNote item={item} />
    </>
  );
}

/** The families beneath a send: Type, Recipient, Message (in the family's language), Status. */
export const familyColumns = (t: TFunction<'messages'>): readonly DataColumn<FamilyMessage>[] => [
  { id: 'type', header: t('history.columns.type'), cell: (item) => <MessageTypeIcon type={item.message_type} /> },
  { id: 'recipient', header: t('history.columns.recipient'), cell: (item) => <RecipientCell item={item} /> },
  {
    id: 'subject',
    header: t('history.columns.subject'),
    sx: { maxWidth: 360 },
    cell: (item) => (
      <>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {item.subject || '-'}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {messagePreview(item.message)}
        </Typography>
      </>
    ),
  },
  { id: 'status', header: t('history.columns.status'), cell: (item) => <FamilyStatus item={item} /> },
];
