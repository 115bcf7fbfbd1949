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
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { formatDayTime } from '../../lib/dates';
import { useConversation, useConversations, useSendWhatsapp } from './api';

function Thread({ phone, canAnswer }: { phone: string; canAnswer: boolean }) {
  const { t } = useTranslation('messages');
  const conversation = useConversation(phone);
  const send = useSendWhatsapp();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const data = conversation.data;
  if (!data) return <Skeleton height={200} aria-label={t('conversations.loadingOne')} />;
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
        onError: (failure) => setError(errorText(failure, t('whatsapp.failed'))),
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
      <Stack spacing={1} component="ol" aria-label={t('conversations.label')} sx={{ listStyle: 'none', p: 0, m: 0 }}>
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
              {entry.direction === 'in' ? t('conversations.parent') : (entry.sent_by ?? t('conversations.centre'))} ·{' '}
              {formatDayTime(entry.at)}
              {entry.delivery_status ? ` · ${t(`conversations.status.${entry.delivery_status}`)}` : ''}
            </Typography>
          </Box>
        ))}
      </Stack>
      <Box sx={{ mt: 2 }}>
        {!open && (
          <Alert severity="info" sx={{ mb: 1 }}>
            {t('conversations.closed')}
          </Alert>
        )}
        {open && !canAnswer && (
          <Alert severity="info" sx={{ mb: 1 }}>
            {t('conversations.adminsOnly')}
          </Alert>
        )}
        {error && (
          <Alert severity="error" sx={{ mb: 1 }}>
            {error}
          </Alert>
        )}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
          <TextField
            label={t('conversations.answer')}
            value={text}
            onChange={(event) => setText(event.target.value)}
            disabled={!open || !canAnswer}
            multiline
            maxRows={4}
            fullWidth
            helperText={
              open ? t('conversations.openUntil', { when: formatDayTime(data.window_open_until) }) : undefined
            }
          />
          <Button
            variant="contained"
            onClick={answer}
            disabled={!open || !canAnswer || text.trim() === '' || send.isPending}
            sx={{ alignSelf: 'flex-start' }}
          >
            {send.isPending ? t('conversations.sending') : t('conversations.send')}
          </Button>
        </Stack>
      </Box>
    </Box>
  );
}

/** What parents wrote on WhatsApp, per family, and the centre's answers (admins, inside the 24 hours). */
export function Conversations({ canAnswer }: { canAnswer: boolean }) {
  const { t } = useTranslation('messages');
  const conversations = useConversations();
  const [selected, setSelected] = useState<string | null>(null);
  if (conversations.isPending) return <Skeleton height={120} aria-label={t('conversations.loading')} />;
  const items = conversations.data ?? [];
  if (items.length === 0) {
    return (
      <Paper variant="outlined">
        <EmptyState icon={<ForumIcon />} title={t('conversations.emptyTitle')} text={t('conversations.emptyText')} />
      </Paper>
    );
  }
  return (
    <Paper variant="outlined" sx={{ display: 'flex', flexDirection: { xs: 'column', md: 'row' }, minHeight: 320 }}>
      <List
        aria-label={t('conversations.listLabel')}
        sx={{ width: { md: 300 }, borderRight: { md: 1 }, borderColor: 'divider' }}
      >
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
          <Typography color="text.secondary">{t('conversations.choose')}</Typography>
        )}
      </Box>
    </Paper>
  );
}
