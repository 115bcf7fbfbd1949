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
import { ApiError, errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useSendWhatsapp } from './api';

/** The spec's words when sending fails and the server gave no reason. */
export const WHATSAPP_FAILED = 'Failed to send WhatsApp message';
export const NOT_OPTED_IN =
  "This family has not agreed to WhatsApp messages. Record the parent's agreement on the student (Edit) first; until then they are reached through the parent app.";
export const WHATSAPP_OFF =
  'WhatsApp is not set up for this centre, so messages reach families through the parent app only.';

/**
 * Message on WhatsApp: one message to the parent of `student`. Outside the 24 hours after the parent
 * last wrote, the server sends it through the centre's approved notice template; inside, as typed.
 */
export function WhatsappMessageDialog({ student, onClose }: { student: Student; onClose: () => void }) {
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [off, setOff] = useState(false);
  const send = useSendWhatsapp();
  const { showToast } = useToast();
  const parent = student.parent_name.trim() || `Parent of ${student.full_name}`;
  const blocked = !student.parent_whatsapp_opt_in || off;

  const submit = () => {
    setError(null);
    send.mutate(
      { student_id: student.id, message },
      {
        onSuccess: (result) => {
          showToast(result.message, 'success');
          onClose();
        },
        onError: (failure) => {
          if (failure instanceof ApiError && failure.status === 503) setOff(true);
          setError(errorText(failure, WHATSAPP_FAILED));
        },
      },
    );
  };

  return (
    <Dialog open onClose={send.isPending ? undefined : onClose} fullWidth maxWidth="sm">
      <DialogTitle>Message on WhatsApp</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography variant="body2">
            To {parent} ({student.parent_phone}), about {student.full_name}
          </Typography>
          {!student.parent_whatsapp_opt_in && <Alert severity="info">{NOT_OPTED_IN}</Alert>}
          {off && <Alert severity="warning">{WHATSAPP_OFF}</Alert>}
          {error && !off && <Alert severity="error">{error}</Alert>}
          <TextField
            label="Message"
            multiline
            minRows={4}
            value={message}
            onChange={(event) => setMessage(event.target.value)}
            disabled={blocked}
            autoFocus={!blocked}
            slotProps={{ htmlInput: { maxLength: 4096 } }}
            helperText="Sent as written when the parent wrote to the centre in the last 24 hours; otherwise inside the centre's approved notice template."
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={send.isPending}>
          Cancel
        </Button>
        <Button variant="contained" onClick={submit} disabled={blocked || message.trim() === '' || send.isPending}>
          {send.isPending ? 'Sending...' : 'Send'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
