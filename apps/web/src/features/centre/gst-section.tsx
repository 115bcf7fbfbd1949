import { Alert, Box, Button, FormControlLabel, Stack, Switch, TextField, Typography } from '@mui/material';
import { GST_DEFAULT_RATE_BASIS_POINTS, GST_SAC, GST_STATES } from '@tuitiondesk/contract';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useFieldErrors } from '../../lib/field-errors';
import { useGstSettings, useUpdateGstSettings } from '../../lib/gst-settings';
import { useToast } from '../../lib/toast';

const FIELDS = ['registered', 'gstin', 'address', 'rate_basis_points'] as const;
type Field = (typeof FIELDS)[number];

/** 1800 basis points → "18"; 1250 → "12.5". */
const percentOf = (basisPoints: number) => String(basisPoints / 100);

/**
 * GST on fees (ADR 057), a section of Centre settings: whether the centre is registered, its GSTIN
 * (the state comes from its first two digits), its address (printed on every tax invoice, ADR 065),
 * SAC 999293 and the rate. A registered centre's receipts are tax invoices; fees include GST. A refusal
 * shows on its field. A centre registered before the address was asked for is asked for it here.
 */
export function GstSection() {
  const { t } = useTranslation('centre');
  const { showToast } = useToast();
  const settings = useGstSettings();
  const update = useUpdateGstSettings();
  const [registered, setRegistered] = useState(false);
  const [gstin, setGstin] = useState('');
  const [address, setAddress] = useState('');
  const [rate, setRate] = useState(percentOf(GST_DEFAULT_RATE_BASIS_POINTS));
  const [serverError, setServerError] = useState<string | null>(null);
  const { errors, textField, edited } = useFieldErrors<Field>(serverError, FIELDS);
  const data = settings.data;
  useEffect(() => {
    if (!data) return;
    setRegistered(data.registered);
    setGstin(data.gstin ?? '');
    setAddress(data.address ?? '');
    setRate(percentOf(data.rate_basis_points));
  }, [data]);

  const save = (event: FormEvent) => {
    event.preventDefault();
    setServerError(null);
    const percent = Number(rate.trim().replace(',', '.'));
    if (rate.trim() === '' || !Number.isFinite(percent)) {
      setServerError(`rate_basis_points: ${t('gst.rate.invalid')}`);
      return;
    }
    update.mutate(
      {
        registered,
        gstin: gstin.trim() === '' ? null : gstin,
        address: address.trim() === '' ? null : address,
        rate_basis_points: Math.round(percent * 100),
      },
      {
        onSuccess: () => showToast(t('gst.saved'), 'success'),
        onError: (error) => {
          const words = errorText(error, t('gst.failed'));
          // The server speaks of basis points; the field is a percentage.
          setServerError(
            words.startsWith('rate_basis_points:') ? `rate_basis_points: ${t('gst.rate.invalid')}` : words,
          );
        },
      },
    );
  };

  if (settings.isError) return <Alert severity="error">{t('gst.unavailable')}</Alert>;

  const typedState = GST_STATES[gstin.trim().slice(0, 2)];
  const gstinHint = typedState ? t('gst.gstin.state', { state: typedState }) : t('gst.gstin.hint');

  return (
    <Stack component="form" spacing={2} onSubmit={save} noValidate aria-label={t('gst.title')}>
      <Box>
        <Typography variant="subtitle2" component="h3" gutterBottom>
          {t('gst.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('gst.intro')}
        </Typography>
      </Box>
      <Box>
        <FormControlLabel
          control={
            <Switch
              checked={registered}
              disabled={!data}
              onChange={(_event, next) => {
                setRegistered(next);
                edited('registered');
              }}
            />
          }
          label={t('gst.registered')}
        />
        {errors.fields.registered && (
          <Typography variant="caption" color="error" component="p">
            {errors.fields.registered}
          </Typography>
        )}
      </Box>
      <TextField
        label={t('gst.gstin.label')}
        {...textField('gstin', gstin, (value) => setGstin(value.toUpperCase()), gstinHint)}
        disabled={!data}
        required={registered}
        autoComplete="off"
        slotProps={{ htmlInput: { maxLength: 20, dir: 'ltr', spellCheck: false } }}
        sx={{ maxWidth: 420 }}
      />
      <TextField
        label={t('gst.address.label')}
        {...textField('address', address, setAddress, t('gst.address.hint'))}
        disabled={!data}
        required={registered}
        multiline
        minRows={2}
        slotProps={{ htmlInput: { maxLength: 300 } }}
        sx={{ maxWidth: 560 }}
      />
      {data?.registered && data.address === null && (
        <Alert severity="warning" data-testid="gst-address-missing">
          {t('gst.address.missing')}
        </Alert>
      )}
      <TextField
        label={t('gst.rate.label')}
        {...textField('rate_basis_points', rate, setRate, t('gst.rate.hint'))}
        disabled={!data}
        slotProps={{ htmlInput: { inputMode: 'decimal', dir: 'ltr' } }}
        sx={{ maxWidth: 200 }}
      />
      <Typography variant="body2">{t('gst.sac', { sac: GST_SAC })}</Typography>
      <Typography variant="body2" color="text.secondary">
        {t('gst.inclusive')}
      </Typography>
      {errors.form && <Alert severity="error">{errors.form}</Alert>}
      <Box>
        <Button type="submit" variant="contained" disabled={!data || update.isPending}>
          {update.isPending ? t('saving') : t('gst.save')}
        </Button>
      </Box>
    </Stack>
  );
}
