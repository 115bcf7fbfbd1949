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
import { errorText } from '../../lib/api-client';
import { formatDayTime } from '../../lib/dates';
import { useCallList, useMarkCalled } from './api';

const KIND_WORDS: Record<CallListItem['kind'], string> = {
  notice: 'Notice',
  absence_alert: 'Absence alert',
  late_alert: 'Late alert',
  access_notice: 'App access',
  whatsapp: 'WhatsApp message',
};

/** Why this family is on the list, in the office's words. */
export function callReason(item: CallListItem): string {
  if (item.reason === 'call_requested') return 'Asked to be called';
  if (item.failure_reason) return `Not reached: ${item.failure_reason}`;
  return 'Not reached: no channel confirmed delivery in time';
}

function CallRow({ item }: { item: CallListItem }) {
  const mark = useMarkCalled();
  const [error, setError] = useState<string | null>(null);
  const called = item.called_at !== null;
  const name = item.recipient_name ?? item.phone;
  return (
    <ListItem divider sx={{ display: 'block', py: 1.5, opacity: called ? 0.7 : 1 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'space-between' }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography sx={{ fontWeight: 600 }}>{name}</Typography>
          <Link href={`tel:${item.phone}`} aria-label={`Call ${name} on ${item.phone}`}>
            {item.phone}
          </Link>
          <Typography variant="body2" color={item.reason === 'call_requested' ? 'warning.dark' : 'text.secondary'}>
            {callReason(item)}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {KIND_WORDS[item.kind]}: {item.subject}, {formatDayTime(item.sent_at)}
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
                      onError: (failure) => setError(errorText(failure, 'Could not save the call. Please try again.')),
                    },
                  );
                }}
                slotProps={{ input: { 'aria-label': `Called ${name}` } }}
              />
            }
            label={called ? `Called${item.called_by ? ` by ${item.called_by}` : ''}` : 'Called'}
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
  const list = useCallList();
  if (list.isPending) {
    return (
      <Box aria-label="Loading the call list" sx={{ p: 2 }}>
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
        <EmptyState
          icon={<PhoneInTalkIcon />}
          title="Nobody to call"
          text="Families that no message reached, and families who ask to be called, appear here."
        />
      </Paper>
    );
  }
  return (
    <Paper variant="outlined">
      <Typography sx={{ px: 2, pt: 2 }} color="text.secondary">
        {list.data?.waiting_count === 1 ? '1 family' : `${list.data?.waiting_count ?? 0} families`} to call. A family
        comes here when no message reached it within {list.data?.not_reached_minutes} minutes.
      </Typography>
      <List aria-label="Call list">
        {items.map((item) => (
          <CallRow key={item.message_id} item={item} />
        ))}
      </List>
    </Paper>
  );
}
