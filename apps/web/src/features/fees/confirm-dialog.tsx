import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
} from '@mui/material';
import { type ReactNode, useId } from 'react';
import { useTranslation } from '../../i18n';

/**
 * "Are you sure?" before a change that reaches families or closes a task: the title says what will
 * happen, the text what follows, `children` the fields it asks for (a note); Enter in a field confirms.
 * A refusal shows inside, above the fields, and the dialog stays.
 */
export function ConfirmDialog({
  title,
  text,
  confirm,
  busy,
  failure,
  danger = false,
  children,
  onConfirm,
  onClose,
}: {
  title: ReactNode;
  text?: ReactNode;
  confirm: string;
  busy: boolean;
  failure: string | null;
  /** A change that turns something down (a red button). */
  danger?: boolean;
  children?: ReactNode;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('fees');
  const id = useId();
  return (
    <Dialog open onClose={busy ? undefined : onClose} fullWidth maxWidth="xs" aria-labelledby={`${id}-title`}>
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <DialogContent>
        <Stack
          component="form"
          id={id}
          spacing={2}
          noValidate
          sx={{ pt: children ? 1 : 0 }}
          onSubmit={(event) => {
            event.preventDefault();
            onConfirm();
          }}
        >
          {text && <DialogContentText component="div">{text}</DialogContentText>}
          {failure && <Alert severity="error">{failure}</Alert>}
          {children}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {t('cancel')}
        </Button>
        <Button type="submit" form={id} variant="contained" color={danger ? 'error' : 'primary'} disabled={busy}>
          {confirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
