import ForumIcon from '@mui/icons-material/ForumOutlined';
import {
  Alert,
  Box,
  Button,
  List,
  ListItemButton,
  ListItemText,
  Paper,
  Skeleton,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { EmptyState } from '../../components/empty-state';
import { errorText } from '../../lib/api-client';
import { formatDayTime } from '../../lib/dates';
import { useConversation, useConversations, useSendWhatsapp } from './api';
import { WHATSAPP_FAILED } from './whatsapp-message-dialog';

function Thread({ phone, canAnswer }: { phone: string; canAnswer: boolean }) {
  const conversation = useConversation(phone);
  const send = useSendWhatsapp();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const data = conversation.data;
  if (!data) return <Skeleton height={200} aria-label="Loading the conversation" />;
  const open = data.window_open_until !== null;
  const answer = () => {
    setError(null);
    send.mutate(
      { to: phone, message: text },
      {
        onSuccess: () => {
          setText('');
          void conversation.refetch();
        },
        onError: (failure) => setError(errorText(failure, WHATSAPP_FAILED)),
      },
    );
  };
  return (
    <Box>
      <Typography variant="h6" component="h3">
        {data.recipient_name ?? data.phone}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {data.phone}
      </Typography>
      <Stack spacing={1} component="ol" aria-label="Conversation" sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {data.entries.map((entry) => (
          <Box
            component="li"
            key={entry.id}
            sx={{
              alignSelf: entry.direction === 'in' ? 'flex-start' : 'flex-end',
              maxWidth: '80%',
              bgcolor: entry.direction === 'in' ? 'grey.100' : 'primary.50',
              border: 1,
              borderColor: 'divider',
              borderRadius: 2,
              px: 1.5,
              py: 1,
            }}
          >
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {entry.text}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {entry.direction === 'in' ? 'Parent' : (entry.sent_by ?? 'Centre')} · {formatDayTime(entry.at)}
              {entry.delivery_status ? ` · ${entry.delivery_status}` : ''}
            </Typography>
          </Box>
        ))}
      </Stack>
      <Box sx={{ mt: 2 }}>
        {!open && (
          <Alert severity="info" sx={{ mb: 1 }}>
            More than 24 hours since the parent last wrote: WhatsApp allows only approved templates now. Use Message on
            WhatsApp on the student, or Send Message.
          </Alert>
        )}
        {open && !canAnswer && (
          <Alert severity="info" sx={{ mb: 1 }}>
            Only admins answer on WhatsApp.
          </Alert>
        )}
        {error && (
          <Alert severity="error" sx={{ mb: 1 }}>
            {error}
          </Alert>
        )}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
          <TextField
            label="Answer"
            value={text}
            onChange={(event) => setText(event.target.value)}
            disabled={!open || !canAnswer}
            multiline
            maxRows={4}
            fullWidth
            helperText={open ? `You can write freely until ${formatDayTime(data.window_open_until)}.` : undefined}
          />
          <Button
            variant="contained"
            onClick={answer}
            disabled={!open || !canAnswer || text.trim() === '' || send.isPending}
            sx={{ alignSelf: 'flex-start' }}
          >
            {send.isPending ? 'Sending...' : 'Send'}
          </Button>
        </Stack>
      </Box>
    </Box>
  );
}

/** What parents wrote on WhatsApp, per family, and the centre's answers (admins, inside the 24 hours). */
export function Conversations({ canAnswer }: { canAnswer: boolean }) {
  const conversations = useConversations();
  const [selected, setSelected] = useState<string | null>(null);
  if (conversations.isPending) return <Skeleton height={120} aria-label="Loading conversations" />;
  const items = conversations.data ?? [];
  if (items.length === 0) {
    return (
      <Paper variant="outlined">
        <EmptyState
          icon={<ForumIcon />}
          title="No conversations yet"
          text="When a parent writes to the centre's WhatsApp number, the conversation appears here."
        />
      </Paper>
    );
  }
  return (
    <Paper variant="outlined" sx={{ display: 'flex', flexDirection: { xs: 'column', md: 'row' }, minHeight: 320 }}>
      <List aria-label="Conversations" sx={{ width: { md: 300 }, borderRight: { md: 1 }, borderColor: 'divider' }}>
        {items.map((item) => (
          <ListItemButton key={item.phone} selected={item.phone === selected} onClick={() => setSelected(item.phone)}>
            <ListItemText
              primary={item.recipient_name ?? item.phone}
              secondary={`${item.last_text.slice(0, 60)} · ${formatDayTime(item.last_at)}`}
            />
          </ListItemButton>
        ))}
      </List>
      <Box sx={{ flex: 1, p: 2, minWidth: 0 }}>
        {selected ? (
          <Thread key={selected} phone={selected} canAnswer={canAnswer} />
        ) : (
          <Typography color="text.secondary">Choose a family to read the conversation.</Typography>
        )}
      </Box>
    </Paper>
  );
}
