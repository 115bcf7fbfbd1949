import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { Student } from '@tuitiondesk/contract';
import { useState } from 'react';
import { DataSentence, LtrText } from '../../components/data-text';
import { useTranslation } from '../../i18n';
import { ApiError, errorText } from '../../lib/api-client';
import { serverMessage } from '../../lib/server-words';
import { useToast } from '../../lib/toast';
import { useSendWhatsapp } from './api';

/**
 * Message on WhatsApp: one message to the parent of `student`. Outside the 24 hours after the parent
 * last wrote, the server sends it through the centre's approved notice template; inside, as typed.
 */
export function WhatsappMessageDialog({ student, onClose }: { student: Student; onClose: () => void }) {
  const { t } = useTranslation('messages');
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [off, setOff] = useState(false);
  const send = useSendWhatsapp();
  const { showToast } = useToast();
  const parent = student.parent_name.trim() || t('whatsapp.parentOf', { name: student.full_name });
  const blocked = !student.parent_whatsapp_opt_in || off;

  const submit = () => {
    setError(null);
    send.mutate(
      { student_id: student.id, message },
      {
        onSuccess: (result) => {
          // Queued: the server's reason (the daily limit's next window) is English only; another
          // language says that it waits and will go when it can.
          showToast(
            serverMessage(result.message, () =>
              t(result.delivery_status === 'queued' ? 'whatsapp.queued' : 'whatsapp.sent'),
            ),
            'success',
          );
          onClose();
        },
        onError: (failure) => {
          if (failure instanceof ApiError && failure.status === 503) setOff(true);
          // The spec's words when sending fails and the server gave no reason.
          setError(errorText(failure, t('whatsapp.failed')));
        },
      },
    );
  };

  return (
    <Dialog open onClose={send.isPending ? undefined : onClose} fullWidth maxWidth="sm">
      <DialogTitle>{t('whatsapp.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography variant="body2">
            {/* The phone left to right inside Urdu, each name in its own direction (ADR 048). */}
            <DataSentence
              text={(stand) => t('whatsapp.to', stand)}
              data={{
                parent: <bdi>{parent}</bdi>,
                phone: <LtrText>{student.parent_phone}</LtrText>,
                student: <bdi>{student.full_name}</bdi>,
              }}
            />
          </Typography>
          {!student.parent_whatsapp_opt_in && <Alert severity="info">{t('whatsapp.notOptedIn')}</Alert>}
          {off && <Alert severity="warning">{t('whatsapp.off')}</Alert>}
          {error && !off && <Alert severity="error">{error}</Alert>}
          <TextField
            label={t('whatsapp.message')}
            multiline
            minRows={4}
            value={message}
            onChange={(event) => setMessage(event.target.value)}
            disabled={blocked}
            autoFocus={!blocked}
            slotProps={{ htmlInput: { maxLength: 4096 } }}
            helperText={t('whatsapp.help')}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={send.isPending}>
          {t('whatsapp.cancel')}
        </Button>
        <Button variant="contained" onClick={submit} disabled={blocked || message.trim() === '' || send.isPending}>
          {send.isPending ? t('whatsapp.sending') : t('whatsapp.send')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
