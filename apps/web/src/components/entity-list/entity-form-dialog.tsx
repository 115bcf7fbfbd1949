import { Alert, Box, Button, Dialog, DialogActions, DialogContent, type DialogProps, DialogTitle } from '@mui/material';
import { type FormEvent, type ReactNode, useId } from 'react';
import { useTranslation } from '../../i18n';

// The form sits between the dialog and its parts: it must pass on the column layout, so that the
// fields scroll while the title and the buttons stay in view.
const FORM_LAYOUT = { display: 'flex', flexDirection: 'column', minHeight: 0, flex: '1 1 auto' } as const;

/**
 * The frame of an add or edit dialog: the title, a failed save's reason above the fields (a toast
 * would be hidden behind the modal from screen readers), Cancel and the submit button. Enter submits
 * when the form may be saved. While saving, the dialog cannot be closed and the button says so.
 */
export function EntityFormDialog({
  title,
  saving,
  error,
  canSave,
  submitLabel,
  onCancel,
  onSave,
  maxWidth,
  fullScreen = false,
  children,
}: {
  title: string;
  saving: boolean;
  error: string | null;
  /** The fields hold what a save needs (the button stays disabled until then). */
  canSave: boolean;
  submitLabel: string;
  onCancel: () => void;
  onSave: () => void;
  maxWidth: DialogProps['maxWidth'];
  fullScreen?: boolean;
  /** The fields. */
  children: ReactNode;
}) {
  const { t } = useTranslation('lists');
  const titleId = useId();
  const submittable = canSave && !saving;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (submittable) onSave();
  };

  return (
    <Dialog
      open
      onClose={() => {
        if (!saving) onCancel();
      }}
      fullWidth
      fullScreen={fullScreen}
      maxWidth={maxWidth}
      aria-labelledby={titleId}
    >
      <Box component="form" noValidate onSubmit={submit} sx={FORM_LAYOUT}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          {error && (
            <Alert severity="error" sx={{ mb: 1 }}>
              {error}
            </Alert>
          )}
          {children}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onCancel} disabled={saving}>
            {t('cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={!submittable}>
            {saving ? t('saving') : submitLabel}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
