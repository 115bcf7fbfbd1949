import PhoneInTalkIcon from '@mui/icons-material/PhoneInTalkOutlined';
import {
  Alert,
  Box,
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
import { EmptyState } from '../../components/empty-state';
import { type TFunction, useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { formatDayTime } from '../../lib/dates';
import { useCallList, useMarkCalled } from './api';

/** Why this family is on the list, in the office's words. */
export function callReason(t: TFunction<'messages'>, item: CallListItem): string {
  if (item.reason === 'call_requested') return t('callList.askedToCall');
  if (item.failure_reason) return t('callList.notReachedBecause', { reason: item.failure_reason });
  return t('callList.notReachedInTime');
}

function CallRow({ item }: { item: CallListItem }) {
  const { t } = useTranslation('messages');
  const mark = useMarkCalled();
  const [error, setError] = useState<string | null>(null);
  const called = item.called_at !== null;
  const name = item.recipient_name ?? item.phone;
  return (
    <ListItem divider sx={{ display: 'block', py: 1.5, opacity: called ? 0.7 : 1 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'space-between' }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography sx={{ fontWeight: 600 }}>{name}</Typography>
          <Link href={`tel:${item.phone}`} aria-label={t('callList.callName', { name, phone: item.phone })}>
            {item.phone}
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
        <Box sx={{ flexShrink: 0 }}>
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
            label={called && item.called_by ? t('callList.calledBy', { name: item.called_by }) : t('callList.called')}
          />
          {called && item.called_at && (
            <Typography variant="caption" color="text.secondary" component="div">
              {formatDayTime(item.called_at)}
            </Typography>
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
 * Families to ring: no channel reached them in time (or at all), or they tapped "Please call me".
 * Ticked ones stay a week, so a mistaken tick can be undone.
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
        {t('callList.waiting', {
          count: list.data?.waiting_count ?? 0,
          minutes: list.data?.not_reached_minutes,
        })}
      </Typography>
      <List aria-label={t('callList.label')}>
        {items.map((item) => (
          <CallRow key={item.message_id} item={item} />
        ))}
      </List>
    </Paper>
  );
}
