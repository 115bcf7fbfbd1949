import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { useId, useState } from 'react';
import { DataSentence, LtrText } from '../../components/data-text';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useReversePayment } from './api';

/**
 * Reverse a payment (a bounced cheque, a mistake): a reason is required; the receipt stays, marked
 * reversed, and the family owes the money again. A second reversal is the server's 409, shown in its
 * words in the language in use.
 */
export function ReverseDialog({
  paymentId,
  receiptNumber,
  onClose,
}: {
  paymentId: number;
  receiptNumber: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('fees');
  const formId = useId();
  const toast = useToast();
  const reverse = useReversePayment();
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const failure = reverse.error ? errorText(reverse.error, t('reverse.failed')) : null;

  function submit() {
    if (reason.trim() === '') {
      setMissing(true);
      return;
    }
    reverse.mutate(
      { paymentId, reason: reason.trim() },
      {
        onSuccess: () => {
          toast.showToast(t('reverse.done', { number: receiptNumber }), 'success');
          onClose();
        },
      },
    );
  }

  return (
    <Dialog
      open
      onClose={reverse.isPending ? undefined : onClose}
      fullWidth
      maxWidth="xs"
      aria-labelledby={`${formId}-t`}
    >
      <DialogTitle id={`${formId}-t`}>
        <DataSentence
          text={(stand) => t('reverse.title', { number: stand.number })}
          data={{ number: <LtrText>{receiptNumber}</LtrText> }}
        />
      </DialogTitle>
      <DialogContent>
        <Stack
          component="form"
          id={formId}
          spacing={2}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <Alert severity="warning">{t('reverse.explain')}</Alert>
          {failure && <Alert severity="error">{failure}</Alert>}
          <TextField
            label={t('reverse.reason')}
            value={reason}
            required
            autoFocus
            onChange={(event) => {
              setReason(event.target.value);
              setMissing(false);
            }}
            error={missing}
            helperText={missing ? t('reverse.reasonRequired') : t('reverse.reasonHint')}
            slotProps={{ htmlInput: { maxLength: 200 } }}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={reverse.isPending}>
          {t('cancel')}
        </Button>
        <Button type="submit" form={formId} color="error" variant="contained" disabled={reverse.isPending}>
          {t('reverse.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
