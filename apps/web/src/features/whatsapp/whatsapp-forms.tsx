import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import {
  Alert,
  Button,
  IconButton,
  InputAdornment,
  MenuItem,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import type { ConnectWhatsapp, WhatsappLive, WhatsappSetup } from '@tuitiondesk/contract';
import { useState } from 'react';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useFieldErrors } from '../../lib/field-errors';
import { useToast } from '../../lib/toast';
import { useConnectWhatsapp, useSendWhatsappTest } from './api';

/** A value to copy into Meta, read left to right whatever the language. */
function CopyField({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation('whatsapp');
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(value).then(() => setCopied(true));
  };
  return (
    <TextField
      label={label}
      value={value}
      fullWidth
      slotProps={{
        htmlInput: { readOnly: true, dir: 'ltr', style: { fontFamily: 'monospace' } },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <Tooltip title={copied ? t('webhook.copied') : t('webhook.copy')}>
                <IconButton aria-label={`${t('webhook.copy')}: ${label}`} onClick={copy} edge="end">
                  <ContentCopyIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

/** The webhook's address and verify token, to paste into Meta's app. */
export function WebhookValues({ setup }: { setup: WhatsappSetup }) {
  const { t } = useTranslation('whatsapp');
  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="text.secondary">
        {t('webhook.help')}
      </Typography>
      <CopyField label={t('webhook.url')} value={setup.webhook_url} />
      {setup.verify_token && <CopyField label={t('webhook.token')} value={setup.verify_token} />}
    </Stack>
  );
}

const FIELDS = ['access_token', 'phone_number_id', 'business_account_id', 'app_secret'] as const;
type Field = (typeof FIELDS)[number];
const EMPTY: ConnectWhatsapp = { access_token: '', phone_number_id: '', business_account_id: '', app_secret: '' };

/** The Meta values; checked by the server against the Cloud API before anything is kept. */
export function ConnectForm({ setup }: { setup: WhatsappSetup }) {
  const { t } = useTranslation('whatsapp');
  const connect = useConnectWhatsapp();
  const { showToast } = useToast();
  const [values, setValues] = useState<ConnectWhatsapp>({
    ...EMPTY,
    phone_number_id: setup.phone_number_id ?? '',
    business_account_id: setup.business_account_id ?? '',
  });
  const [error, setError] = useState<string | null>(null);
  const { errors, textField } = useFieldErrors<Field>(error, FIELDS);
  const field = (name: Field, secret = false) => ({
    ...textField(name, values[name], (value) => setValues((current) => ({ ...current, [name]: value }))),
    label: t(`form.${name}`),
    required: true,
    fullWidth: true,
    autoComplete: 'off',
    type: secret ? 'password' : 'text',
    slotProps: { htmlInput: { dir: 'ltr' } },
  });
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    connect.mutate(values, {
      onSuccess: () => {
        setValues((current) => ({ ...current, access_token: '', app_secret: '' }));
        showToast(t('form.connected'), 'success');
      },
      onError: (failure) => setError(errorText(failure, t('form.failed'))),
    });
  };
  const complete = FIELDS.every((name) => values[name].trim() !== '');
  return (
    <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-label={t('form.title')}>
      <Typography variant="body2" color="text.secondary">
        {t('form.help')}
      </Typography>
      {errors.form && <Alert severity="error">{errors.form}</Alert>}
      <TextField {...field('access_token', true)} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField {...field('phone_number_id')} slotProps={{ htmlInput: { dir: 'ltr', inputMode: 'numeric' } }} />
        <TextField {...field('business_account_id')} slotProps={{ htmlInput: { dir: 'ltr', inputMode: 'numeric' } }} />
      </Stack>
      <TextField {...field('app_secret', true)} />
      <div>
        <Button type="submit" variant="contained" disabled={!complete || connect.isPending}>
          {connect.isPending ? t('form.checking') : t('form.submit')}
        </Button>
      </div>
    </Stack>
  );
}

/** Fixed, so the field errors' effect does not run again on each render. */
const TEST_FIELDS = ['to', 'template'] as const;
type TestField = (typeof TEST_FIELDS)[number];

/** An approved template to the admin's own phone. */
export function TestSend({ live }: { live: WhatsappLive | null }) {
  const { t } = useTranslation('whatsapp');
  const send = useSendWhatsappTest();
  const { showToast } = useToast();
  const approved = [...new Set((live?.templates ?? []).filter((x) => x.status === 'APPROVED').map((x) => x.name))];
  const [to, setTo] = useState('');
  const [template, setTemplate] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { errors, textField } = useFieldErrors<TestField>(error, TEST_FIELDS);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    send.mutate(
      { to, ...(template ? { template } : {}) },
      {
        onSuccess: (result) => showToast(t('test.sent', { to: result.to, template: result.template }), 'success'),
        onError: (failure) => setError(errorText(failure, t('test.failed'))),
      },
    );
  };
  return (
    <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-label={t('test.title')}>
      <Typography variant="body2" color="text.secondary">
        {t('test.help')}
      </Typography>
      {errors.form && <Alert severity="error">{errors.form}</Alert>}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          {...textField('to', to, setTo)}
          label={t('test.to')}
          type="tel"
          required
          fullWidth
          slotProps={{ htmlInput: { dir: 'ltr' } }}
        />
        <TextField
          {...textField('template', template, setTemplate)}
          select
          label={t('test.template')}
          fullWidth
          disabled={approved.length === 0}
        >
          {approved.map((name) => (
            <MenuItem key={name} value={name} dir="ltr">
              {name}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <div>
        <Button type="submit" variant="outlined" disabled={to.trim() === '' || send.isPending}>
          {t('test.submit')}
        </Button>
      </div>
    </Stack>
  );
}
