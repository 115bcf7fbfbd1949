import DoneIcon from '@mui/icons-material/Done';
import PhoneInTalkIcon from '@mui/icons-material/PhoneInTalkOutlined';
import SmsIcon from '@mui/icons-material/SmsOutlined';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  Link,
  List,
  ListItem,
  Paper,
  Skeleton,
  Stack,
  Typography,
} from '@mui/material';
import type { CallListItem } from '@tuitiondesk/contract';
import { useState } from 'react';
import { LtrText, NameText } from '../../components/data-text';
import { EmptyState } from '../../components/empty-state';
import { type TFunction, useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { formatDayTime } from '../../lib/dates';
import { useCallList, useMarkCalled, useMarkSentByHand } from './api';

/** Why this family is on the list, in the office's words. */
export function callReason(t: TFunction<'messages'>, item: CallListItem): string {
  if (item.reason === 'call_requested') return t('callList.askedToCall');
  if (item.failure_reason) return t('callList.notReachedBecause', { reason: item.failure_reason });
  return t('callList.notReachedInTime');
}

/** The by-hand actions for a family nothing reached: WhatsApp and SMS from the staff member's phone, then the tick. */
function SendByHand({ item, name }: { item: CallListItem; name: string }) {
  const { t } = useTranslation('messages');
  const mark = useMarkSentByHand();
  const [error, setError] = useState<string | null>(null);
  if (item.sent_by_hand_at) {
    return (
      <Box>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {t('sendList.sentBy', { name: item.sent_by_hand_by ?? '' })}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="div">
          {formatDayTime(item.sent_by_hand_at)}
        </Typography>
      </Box>
    );
  }
  return (
    <Box>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button
          size="small"
          variant="outlined"
          startIcon={<WhatsAppIcon />}
          href={item.whatsapp_link}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={t('sendList.whatsappName', { name })}
        >
          {t('sendList.whatsapp')}
        </Button>
        <Button
          size="small"
          variant="outlined"
          startIcon={<SmsIcon />}
          href={item.sms_link}
          aria-label={t('sendList.smsName', { name })}
        >
          {t('sendList.sms')}
        </Button>
        <Button
          size="small"
          variant="contained"
          startIcon={<DoneIcon />}
          disabled={mark.isPending}
          aria-label={t('sendList.markSentName', { name })}
          onClick={() => {
            setError(null);
            mark.mutate(item.message_id, {
              onError: (failure) => setError(errorText(failure, t('sendList.saveFailed'))),
            });
          }}
        >
          {t('sendList.markSent')}
        </Button>
      </Stack>
      {error && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
    </Box>
  );
}

function CallRow({ item }: { item: CallListItem }) {
  const { t } = useTranslation('messages');
  const mark = useMarkCalled();
  const [error, setError] = useState<string | null>(null);
  const called = item.called_at !== null;
  const done = called || item.sent_by_hand_at !== null;
  const name = item.recipient_name ?? item.phone;
  // A family nothing reached gets the message by hand; one that asked for a call gets the call.
  const byHand = item.reason === 'not_reached';
  return (
    <ListItem divider sx={{ display: 'block', py: 1.5, bgcolor: done ? 'action.hover' : undefined }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'space-between' }}>
        <Box sx={{ minWidth: 0 }}>
          {/* The family's name cut at its end, or its phone left to right, in either direction (ADR 048). */}
          <Typography component="div" sx={{ fontWeight: 600 }}>
            {item.recipient_name ? (
              <NameText title={item.recipient_name}>{item.recipient_name}</NameText>
            ) : (
              <LtrText>{item.phone}</LtrText>
            )}
          </Typography>
          {item.students && (
            <Typography variant="body2" color="text.secondary">
              {t('sendList.students', { names: item.students })}
            </Typography>
          )}
          <Link href={`tel:${item.phone}`} aria-label={t('callList.callName', { name, phone: item.phone })}>
            <LtrText>{item.phone}</LtrText>
          </Link>
          <Typography variant="body2" color={item.reason === 'call_requested' ? 'warning.dark' : 'text.secondary'}>
            {callReason(t, item)}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {t('callList.about', {
              kind: t(`kind.${item.kind}`),
              subject: item.subject,
              when: formatDayTime(item.sent_at),
            })}
          </Typography>
        </Box>
        <Box sx={{ flexShrink: 0, maxWidth: { sm: '55%' } }}>
          {byHand ? (
            <SendByHand item={item} name={name} />
          ) : (
            <>
              <FormControlLabel
                control={
                  <Checkbox
                    checked={called}
                    disabled={mark.isPending}
                    onChange={(event) => {
                      setError(null);
                      mark.mutate(
                        { messageId: item.message_id, called: event.target.checked },
                        {
                          onError: (failure) => setError(errorText(failure, t('callList.saveFailed'))),
                        },
                      );
                    }}
                    slotProps={{ input: { 'aria-label': t('callList.calledName', { name }) } }}
                  />
                }
                label={
                  called && item.called_by ? t('callList.calledBy', { name: item.called_by }) : t('callList.called')
                }
              />
              {called && item.called_at && (
                <Typography variant="caption" color="text.secondary" component="div">
                  {formatDayTime(item.called_at)}
                </Typography>
              )}
            </>
          )}
        </Box>
      </Stack>
      {error && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
    </ListItem>
  );
}

/**
 * The send list and the call list, one list (ADR 044): families no channel reached (in time, or at
 * all), each with its message to send by hand from the staff member's own phone (WhatsApp, SMS, in
 * the family's language) and ticked "sent by hand"; and families who tapped "Please call me", to ring
 * and tick called. Done ones stay a week.
 */
export function CallList() {
  const { t } = useTranslation('messages');
  const list = useCallList();
  if (list.isPending) {
    return (
      <Box aria-label={t('callList.loading')} sx={{ p: 2 }}>
        {[0, 1, 2].map((row) => (
          <Skeleton key={row} height={64} />
        ))}
      </Box>
    );
  }
  const items = list.data?.items ?? [];
  if (items.length === 0) {
    return (
      <Paper variant="outlined">
        <EmptyState icon={<PhoneInTalkIcon />} title={t('callList.emptyTitle')} text={t('callList.emptyText')} />
      </Paper>
    );
  }
  return (
    <Paper variant="outlined">
      <Typography sx={{ px: 2, pt: 2 }} color="text.secondary">
        {t('sendList.toDo', { count: list.data?.waiting_count ?? 0 })}
      </Typography>
      <List aria-label={t('callList.label')}>
        {items.map((item) => (
          <CallRow key={item.message_id} item={item} />
        ))}
      </List>
    </Paper>
  );
}
