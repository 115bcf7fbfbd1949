import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { type ReactNode, useId } from 'react';
import { useTranslation } from '../../i18n';

/**
 * "Are you sure?" before a change that reaches families or closes a task: the title says what will
 * happen, the text what follows; a refusal shows inside, above the buttons, and the dialog stays.
 */
export function ConfirmDialog({
  title,
  text,
  confirm,
  busy,
  failure,
  onConfirm,
  onClose,
}: {
  title: ReactNode;
  text: ReactNode;
  confirm: string;
  busy: boolean;
  failure: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('fees');
  const id = useId();
  return (
    <Dialog open onClose={busy ? undefined : onClose} fullWidth maxWidth="xs" aria-labelledby={`${id}-title`}>
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText component="div">{text}</DialogContentText>
        {failure && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {failure}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {t('cancel')}
        </Button>
        <Button variant="contained" onClick={onConfirm} disabled={busy}>
          {confirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
