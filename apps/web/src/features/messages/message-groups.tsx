import ChatBubbleOutlineIcon from '@mui/icons-material/ChatBubbleOutlineOutlined';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import {
  Box,
  Button,
  Paper,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableRow,
  Typography,
} from '@mui/material';
import type { FamilyMessage, MessageGroup } from '@tuitiondesk/contract';
import { Fragment, type ReactNode, useState } from 'react';
import { ColumnTable, cellSx, TableHeadings } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { NotLoaded } from '../../components/not-loaded';
import { Pager, type PageState } from '../../components/pager';
import { CardFields, type DataColumn, useCardLayout } from '../../components/row-cards';
import { type TFunction, useTranslation } from '../../i18n';
import { classInWords, useClassChoices } from '../../lib/centre-classes';
import { formatDayTime } from '../../lib/dates';
import { useSendFamilies } from './api';
import {
  FamilyStatus,
  familyColumns,
  isNamedKind,
  MessageTypeIcon,
  messagePreview,
  RecipientCell,
} from './message-history-table';
import { groupReachText } from './reach-words';

export const GROUPS_PER_PAGE = [25, 50, 100];

/** To whom: every parent, one approval's families, a class as the centre names it, or the one family. */
function Recipients({ group }: { group: MessageGroup }) {
  const { t } = useTranslation('messages');
  const { labelOf } = useClassChoices();
  if (group.family) return <RecipientCell item={group.family} />;
  if (group.recipients === 'all_parents') return t('groups.allParents');
  if (group.recipients === null) return '-';
  if (group.recipients === 'approval') return t('groups.approval');
  const value = group.recipients;
  return classInWords(value, labelOf(value), (name) => t('groups.className', { name }));
}

/** Message, To, Sent At, Reached: on a phone, a card a message, headed by its subject. */
const groupColumns = (t: TFunction<'messages'>): readonly DataColumn<MessageGroup>[] => [
  {
    id: 'message',
    header: t('groups.columns.message'),
    sx: { maxWidth: 340 },
    cell: (group) => (
      <>
        {isNamedKind(group.kind) && (
          <Typography variant="caption" color="text.secondary" component="div">
            {t(`history.kind.${group.kind}`)}
          </Typography>
        )}
        <Typography variant="body2" component="span" sx={{ fontWeight: 600, display: 'block' }}>
          {group.subject || '-'}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere', fontWeight: 400 }}>
          {messagePreview(group.message)}
        </Typography>
      </>
    ),
  },
  { id: 'to', header: t('groups.columns.to'), cell: (group) => <Recipients group={group} /> },
  {
    id: 'sent-at',
    header: t('history.columns.sentAt'),
    cell: (group) => (
      <>
        <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
          {formatDayTime(group.sent_at)}
        </Typography>
        {group.sent_by && (
          <Typography variant="body2" color="text.secondary">
            {t('groups.sentBy', { name: group.sent_by })}
          </Typography>
        )}
      </>
    ),
  },
  {
    id: 'reach',
    header: t('groups.columns.reach'),
    cell: (group) =>
      group.family ? (
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
          <MessageTypeIcon type={group.family.message_type} />
          <Box>
            <FamilyStatus item={group.family} />
          </Box>
        </Box>
      ) : (
        <>
          <Typography variant="body2">{groupReachText(t, group)}</Typography>
          {group.replies > 0 && (
            <Typography variant="body2" color="text.secondary">
              {t('groups.replies', { count: group.replies })}
            </Typography>
          )}
        </>
      ),
  },
];

const familyId = (item: FamilyMessage) => item.id;
const familyName = (item: FamilyMessage) => item.recipient_name || item.recipient;
const panelId = (sendId: number) => `send-families-${sendId}`;

/** The families of one send, each with its status: fetched when the send is opened. */
function SendFamilies({ group }: { group: MessageGroup & { send_id: number } }) {
  const { t } = useTranslation('messages');
  const families = useSendFamilies(group.send_id);
  let body: ReactNode;
  if (families.data) {
    body = (
      <ColumnTable
        label={t('groups.familiesLabel', { subject: group.subject })}
        columns={familyColumns(t)}
        rows={families.data}
        rowKey={familyId}
        nameOf={familyName}
        titleColumn="recipient"
      />
    );
  } else if (families.isError) {
    body = <NotLoaded text={t('groups.familiesNotLoaded')} onRetry={() => void families.refetch()} />;
  } else {
    body = <Skeleton height={96} aria-label={t('groups.loadingFamilies')} />;
  }
  return (
    <Box id={panelId(group.send_id)} sx={{ bgcolor: 'action.hover', borderRadius: 1, p: { xs: 0.5, md: 1 } }}>
      {body}
    </Box>
  );
}

/** Opens and closes a send's families: "Show the 141 families". */
function FamiliesToggle({ group, open, onToggle }: { group: MessageGroup; open: boolean; onToggle: () => void }) {
  const { t } = useTranslation('messages');
  if (group.send_id === null) return null;
  return (
    <Button
      size="small"
      onClick={onToggle}
      aria-expanded={open}
      aria-controls={open ? panelId(group.send_id) : undefined}
      endIcon={open ? <ExpandLessIcon /> : <ExpandMoreIcon />}
      sx={{ whiteSpace: 'nowrap' }}
    >
      {open ? t('groups.hide') : t('groups.show', { count: group.families })}
    </Button>
  );
}

const groupKey = (group: MessageGroup) =>
  group.send_id === null ? `message-${group.family?.id}` : `send-${group.send_id}`;

function useOpenSends() {
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (sendId: number) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(sendId)) next.add(sendId);
      return next;
    });
  return { isOpen: (group: MessageGroup) => group.send_id !== null && open.has(group.send_id), toggle };
}

/** On a phone: a card a message, its families opening beneath it. */
function GroupCards({ groups, label }: { groups: MessageGroup[]; label: string }) {
  const { t } = useTranslation('messages');
  const columns = groupColumns(t);
  const [title, ...lines] = columns;
  const { isOpen, toggle } = useOpenSends();
  return (
    <Box component="ul" aria-label={label} sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {groups.map((group) => (
        <Box
          component="li"
          key={groupKey(group)}
          aria-label={group.subject || '-'}
          sx={{ px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider', '&:last-of-type': { borderBottom: 0 } }}
        >
          <Box sx={{ overflowWrap: 'anywhere' }}>{title?.cell(group)}</Box>
          <CardFields row={group} columns={lines} />
          {group.send_id !== null && (
            <Box sx={{ mt: 1 }}>
              <FamiliesToggle group={group} open={isOpen(group)} onToggle={() => toggle(group.send_id as number)} />
              {isOpen(group) && <SendFamilies group={group as MessageGroup & { send_id: number }} />}
            </Box>
          )}
        </Box>
      ))}
    </Box>
  );
}

/** On wider screens: a row a message, its families in a row opening beneath it. */
function GroupTable({ groups, label }: { groups: MessageGroup[]; label: string }) {
  const { t } = useTranslation('messages');
  const columns = groupColumns(t);
  const { isOpen, toggle } = useOpenSends();
  return (
    <TableContainer tabIndex={0} role="region" aria-label={label}>
      <Table size="small" aria-label={label} sx={{ minWidth: 760 }}>
        <TableHeadings labels={[...columns.map((column) => column.header), t('groups.columns.families')]} />
        <TableBody>
          {groups.map((group) => (
            <Fragment key={groupKey(group)}>
              <TableRow hover sx={isOpen(group) ? { '& > td': { borderBottom: 0 } } : undefined}>
                {columns.map((column) => (
                  <TableCell key={column.id} sx={cellSx(column)}>
                    {column.cell(group)}
                  </TableCell>
                ))}
                <TableCell>
                  <FamiliesToggle group={group} open={isOpen(group)} onToggle={() => toggle(group.send_id as number)} />
                </TableCell>
              </TableRow>
              {isOpen(group) && (
                <TableRow>
                  <TableCell colSpan={columns.length + 1} sx={{ pt: 0 }}>
                    <SendFamilies group={group as MessageGroup & { send_id: number }} />
                  </TableCell>
                </TableRow>
              )}
            </Fragment>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

interface Props {
  items: MessageGroup[] | undefined;
  loading: boolean;
  paging: PageState;
  hasMore: boolean;
}

/**
 * Message History grouped by message (issue 28, item 4; ADR 049): a row a message sent, "Sent to 141:
 * 12 delivered, 1 read, 128 not reached", opening to its families with their statuses; a message to
 * one family is a row with that family's status.
 */
export function MessageGroups({ items, loading, paging, hasMore }: Props) {
  const { t } = useTranslation('messages');
  const cards = useCardLayout();
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
  const label = t('history.label');
  return (
    <Paper variant="outlined">
      {cards ? <GroupCards groups={items} label={label} /> : <GroupTable groups={items} label={label} />}
      <Pager paging={paging} count={count} sizes={GROUPS_PER_PAGE} />
    </Paper>
  );
}
