import ChatBubbleOutlineIcon from '@mui/icons-material/ChatBubbleOutlineOutlined';
import EventBusyIcon from '@mui/icons-material/EventBusy';
import LockResetIcon from '@mui/icons-material/LockReset';
import MailOutlineIcon from '@mui/icons-material/MailOutlined';
import PhoneIphoneIcon from '@mui/icons-material/PhoneIphone';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import { Box, Chip, type ChipProps, Paper, Skeleton, TableCell, TableRow, Tooltip, Typography } from '@mui/material';
import { ABSENCE_ALERT_TYPE, ACCESS_NOTICE_TYPE, type Communication } from '@tuitiondesk/contract';
import { DataTable } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { Pager, type PageState } from '../../components/pager';
import { formatDayTime } from '../../lib/dates';

const HEADINGS = ['Type', 'Subject', 'Recipient', 'Sent At', 'Status'];

/** The history shows the first 50 characters of each message. */
export const PREVIEW_LENGTH = 50;

export function messagePreview(message: string): string {
  const chars = Array.from(message);
  return chars.length > PREVIEW_LENGTH ? `${chars.slice(0, PREVIEW_LENGTH).join('')}…` : message;
}

/** Delivery status colours: delivered success, sent info, failed error, anything else default. */
export function deliveryStatusColor(status: string): ChipProps['color'] {
  switch (status.toLowerCase()) {
    case 'delivered':
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

export function MessageTypeIcon({ type }: { type: string }) {
  switch (type) {
    case 'WHATSAPP':
      return <WhatsAppIcon titleAccess="WhatsApp" sx={{ color: '#25d366' }} />;
    case 'IN_APP':
      return <PhoneIphoneIcon titleAccess="In-app message" color="primary" />;
    case ABSENCE_ALERT_TYPE:
      return <EventBusyIcon titleAccess="Absence alert" color="warning" />;
    case ACCESS_NOTICE_TYPE:
      return <LockResetIcon titleAccess="Parent app access changed" color="action" />;
    default:
      return <MailOutlineIcon titleAccess={type ? `Other (${type})` : 'Other'} color="action" />;
  }
}

function StatusChip({ item }: { item: Communication }) {
  const color = deliveryStatusColor(item.delivery_status);
  const chip = (
    <Chip
      size="small"
      label={statusLabel(item.delivery_status)}
      color={color}
      // White on the theme's light info blue is below 4.5:1; its dark shade keeps the colour and the contrast.
      sx={color === 'info' ? { bgcolor: 'info.dark' } : undefined}
    />
  );
  return item.failure_reason ? (
    <Tooltip title={item.failure_reason}>
      <span>{chip}</span>
    </Tooltip>
  ) : (
    chip
  );
}

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
      <DataTable label="Message history" labels={HEADINGS} region="Message history" sx={{ minWidth: 760 }}>
        {items.map((item) => (
          <TableRow key={item.id} hover>
            <TableCell>
              <MessageTypeIcon type={item.message_type} />
            </TableCell>
            <TableCell sx={{ maxWidth: 360 }}>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {item.subject || '-'}
              </Typography>
              <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                {messagePreview(item.message)}
              </Typography>
            </TableCell>
            <TableCell>
              <Typography variant="body2">{item.recipient_name || item.recipient}</Typography>
              {item.recipient_name && (
                <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
                  {item.recipient}
                </Typography>
              )}
            </TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDayTime(item.sent_at)}</TableCell>
            <TableCell>
              <StatusChip item={item} />
            </TableCell>
          </TableRow>
        ))}
      </DataTable>
      <Pager paging={paging} count={count} sizes={ROWS_PER_PAGE_OPTIONS} />
    </Paper>
  );
}
