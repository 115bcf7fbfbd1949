import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import {
  COUNTER_PAYMENT_MODES,
  type CounterPaymentMode,
  type FeeFamily,
  MODES_NEEDING_REFERENCE,
  PAYMENT_MAX_AGE_DAYS,
  type RecordedPayment,
  recordPaymentSchema,
} from '@tuitiondesk/contract';
import { useId, useState } from 'react';
import { LtrText } from '../../components/data-text';
import { DateField } from '../../components/date-field';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { isoDaysAgo, todayIso } from '../../lib/dates';
import { useFieldErrors } from '../../lib/field-errors';
import { formatMoney, parseRupees } from '../../lib/money';
import { newSubmissionId } from '../../lib/offline/mark-queue';
import { isUnreachable, sendPayment, useRefreshFees } from './api';
import { BalanceText } from './family-text';
import { InvoiceDetailsWarning } from './invoice-details-warning';
import { queuePayment } from './payment-queue';

/** The family as the dialog needs it: whom the money is from, and its children to name the allocations. */
export type PayingFamily = Pick<FeeFamily, 'family_id' | 'parent_name' | 'students'>;

const FIELDS = ['amount_paise', 'mode', 'reference', 'received_on'] as const;
type Field = (typeof FIELDS)[number];

/** The modes whose payment carries the payer's reference. */
type ReferenceMode = 'upi' | 'cheque' | 'bank_transfer';

type Outcome = { kind: 'recorded'; answer: RecordedPayment } | { kind: 'queued' };

/**
 * Collect payment (issue 29 item 3): an amount in rupees (parsed as text into paise), the mode, the
 * payer's reference where the mode needs one, and the day received (today on the centre's clock).
 * The client_id is made once, when the dialog opens: every try of this payment sends the same one, so
 * the server records it once. With no network the payment waits on this device (payment-queue.ts).
 */
export function PaymentDialog({
  family,
  onClose,
  onReceipt,
}: {
  family: PayingFamily;
  onClose: () => void;
  /** Opens the receipt of a payment just recorded. */
  onReceipt: (paymentId: number) => void;
}) {
  const { t } = useTranslation('fees');
  const formId = useId();
  const refresh = useRefreshFees();
  const [clientId] = useState(newSubmissionId);
  const [amount, setAmount] = useState('');
  const [mode, setMode] = useState<CounterPaymentMode>('cash');
  const [reference, setReference] = useState('');
  const [receivedOn, setReceivedOn] = useState(todayIso);
  const [serverError, setServerError] = useState<string | null>(null);
  const [local, setLocal] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const { errors, edited, textField } = useFieldErrors<Field>(serverError, FIELDS);
  const needsReference = MODES_NEEDING_REFERENCE.includes(mode);
  const problem = (field: Field) => local[field] ?? errors.fields[field];
  const change = (field: Field) => {
    edited(field);
    setLocal(({ [field]: _, ...others }) => others);
  };

  /** The body to send, or the problems to show under the fields. */
  function check() {
    const found: Partial<Record<Field, string>> = {};
    const parsed = parseRupees(amount);
    if (parsed.problem) found.amount_paise = t(`collect.amountProblem.${parsed.problem}`);
    const body = {
      family_id: family.family_id,
      amount_paise: parsed.paise ?? 1,
      mode,
      received_on: receivedOn,
      reference: reference.trim() || null,
      client_id: clientId,
    };
    // The server's own rules for the reference (required for UPI, cheque and transfer; its form).
    const checked = recordPaymentSchema.safeParse(body);
    if (!checked.success && checked.error.issues.some((issue) => issue.path[0] === 'reference'))
      found.reference = body.reference === null ? t('collect.referenceRequired') : t(`collect.referenceForm.${mode}`);
    if (receivedOn > todayIso()) found.received_on = t('collect.futureDay');
    else if (receivedOn < isoDaysAgo(PAYMENT_MAX_AGE_DAYS)) found.received_on = t('collect.tooOld');
    return { body, found };
  }

  async function submit() {
    const { body, found } = check();
    setLocal(found);
    setServerError(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const answer = await sendPayment(body);
      setOutcome({ kind: 'recorded', answer });
      void refresh();
    } catch (error) {
      if (isUnreachable(error)) {
        try {
          await queuePayment({
            client_id: clientId,
            body,
            parent_name: family.parent_name,
            queued_at: new Date().toISOString(),
          });
          setOutcome({ kind: 'queued' });
        } catch {
          setServerError(t('collect.cannotKeep'));
        }
      } else setServerError(errorText(error, t('collect.failed')));
    } finally {
      setBusy(false);
    }
  }

  const childName = (studentId: number | null) =>
    studentId === null
      ? t('collect.toAdvance')
      : (family.students.find((student) => student.id === studentId)?.full_name ?? String(studentId));

  return (
    <Dialog open onClose={busy ? undefined : onClose} fullWidth maxWidth="xs" aria-labelledby={`${formId}-title`}>
      <DialogTitle id={`${formId}-title`}>{t('collect.title', { name: family.parent_name })}</DialogTitle>
      {outcome?.kind === 'recorded' ? (
        <>
          <DialogContent>
            <Alert severity="success" sx={{ mb: 2 }}>
              {t('collect.recorded')}{' '}
              <strong>
                <LtrText>{outcome.answer.receipt_number}</LtrText>
              </strong>
            </Alert>
            <Typography variant="subtitle2" component="h3">
              {t('collect.allocated')}
            </Typography>
            <List dense aria-label={t('collect.allocated')}>
              {outcome.answer.allocations.map((allocation) => (
                <ListItem key={allocation.student_id ?? 'advance'} disableGutters>
                  <ListItemText
                    primary={childName(allocation.student_id)}
                    secondary={formatMoney(allocation.amount_paise)}
                  />
                </ListItem>
              ))}
            </List>
            <Typography>
              <BalanceText balance={outcome.answer.balance_paise} />
            </Typography>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('close')}</Button>
            <Button variant="contained" onClick={() => onReceipt(outcome.answer.payment_id)}>
              {t('collect.printReceipt')}
            </Button>
          </DialogActions>
        </>
      ) : outcome?.kind === 'queued' ? (
        <>
          <DialogContent>
            <Alert severity="info">{t('collect.queued')}</Alert>
          </DialogContent>
          <DialogActions>
            <Button variant="contained" onClick={onClose}>
              {t('close')}
            </Button>
          </DialogActions>
        </>
      ) : (
        <>
          <DialogContent>
            <Stack
              component="form"
              id={formId}
              spacing={2}
              sx={{ pt: 1 }}
              noValidate
              onSubmit={(event) => {
                event.preventDefault();
                void submit();
              }}
            >
              {errors.form && <Alert severity="error">{errors.form}</Alert>}
              <TextField
                {...textField('amount_paise', amount, setAmount)}
                onChange={(event) => {
                  setAmount(event.target.value);
                  change('amount_paise');
                }}
                label={t('collect.amount')}
                required
                autoFocus
                error={problem('amount_paise') !== undefined}
                helperText={problem('amount_paise') ?? t('collect.amountHint')}
                slotProps={{ htmlInput: { inputMode: 'decimal', dir: 'ltr', autoComplete: 'off' } }}
              />
              <TextField
                select
                label={t('collect.mode')}
                value={mode}
                onChange={(event) => {
                  setMode(event.target.value as CounterPaymentMode);
                  change('mode');
                  change('reference');
                }}
                error={problem('mode') !== undefined}
                helperText={problem('mode')}
              >
                {COUNTER_PAYMENT_MODES.map((value) => (
                  <MenuItem key={value} value={value}>
                    {t(`modes.${value}`)}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                {...textField('reference', reference, setReference)}
                onChange={(event) => {
                  setReference(event.target.value);
                  change('reference');
                }}
                label={
                  needsReference ? t(`collect.referenceLabel.${mode as ReferenceMode}`) : t('collect.referenceOptional')
                }
                required={needsReference}
                error={problem('reference') !== undefined}
                helperText={problem('reference') ?? (needsReference ? t(`collect.referenceForm.${mode}`) : undefined)}
                slotProps={{ htmlInput: { dir: 'ltr', autoComplete: 'off', maxLength: 35 } }}
              />
              <DateField
                label={t('collect.receivedOn')}
                value={receivedOn}
                max={todayIso()}
                min={isoDaysAgo(PAYMENT_MAX_AGE_DAYS)}
                error={problem('received_on')}
                onChange={(value) => {
                  setReceivedOn(value);
                  change('received_on');
                }}
              />
            </Stack>
            <InvoiceDetailsWarning familyId={family.family_id} amountPaise={parseRupees(amount).paise ?? null} />
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose} disabled={busy}>
              {t('cancel')}
            </Button>
            <Button type="submit" form={formId} variant="contained" disabled={busy}>
              {busy ? t('collect.saving') : t('collect.save')}
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
