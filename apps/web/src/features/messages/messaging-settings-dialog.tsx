import { Alert, Stack, TextField } from '@mui/material';
import type { MessagingSettings } from '@tuitiondesk/contract';
import { useState } from 'react';
import { EntityFormDialog } from '../../components/entity-list';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useSaveMessagingSettings } from './api';

/** Where WhatsApp stands, in one sentence. */
export function whatsappStatusText(settings: MessagingSettings): string {
  return settings.whatsapp.configured
    ? `WhatsApp is on: ${settings.whatsapp.used_today} of ${settings.whatsapp.daily_limit} new conversations used in the last 24 hours.`
    : 'WhatsApp is off: set the WHATSAPP_ settings on the server to reach families without the parent app (docs/whatsapp.md).';
}

/** Message settings (admins): the centre's name in messages, the WhatsApp fallback and call-list times. */
export function MessagingSettingsDialog({ settings, onClose }: { settings: MessagingSettings; onClose: () => void }) {
  const save = useSaveMessagingSettings();
  const { showToast } = useToast();
  const [form, setForm] = useState({
    centre_name: settings.centre_name,
    whatsapp_fallback_minutes: String(settings.whatsapp_fallback_minutes),
    not_reached_minutes: String(settings.not_reached_minutes),
    whatsapp_notice_template: settings.whatsapp_notice_template,
  });
  const [error, setError] = useState<string | null>(null);
  const field = (name: keyof typeof form) => ({
    value: form[name],
    onChange: (event: { target: { value: string } }) =>
      setForm((current) => ({ ...current, [name]: event.target.value })),
  });

  const submit = () => {
    setError(null);
    save.mutate(
      {
        centre_name: form.centre_name,
        whatsapp_fallback_minutes: Number(form.whatsapp_fallback_minutes),
        not_reached_minutes: Number(form.not_reached_minutes),
        whatsapp_notice_template: form.whatsapp_notice_template,
      },
      {
        onSuccess: () => {
          showToast('Message settings saved.', 'success');
          onClose();
        },
        onError: (failure) => setError(errorText(failure, 'Failed to save the message settings')),
      },
    );
  };

  return (
    <EntityFormDialog
      title="Message settings"
      saving={save.isPending}
      error={error}
      canSave={form.centre_name.trim() !== ''}
      submitLabel="Save"
      onCancel={onClose}
      onSave={submit}
      maxWidth="sm"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <Alert severity={settings.whatsapp.configured ? 'success' : 'info'}>{whatsappStatusText(settings)}</Alert>
        <TextField
          label="Centre name"
          required
          helperText="Parents see it in messages ({centre_name})."
          {...field('centre_name')}
        />
        <TextField
          label="Send on WhatsApp when the app has not confirmed within (minutes)"
          type="number"
          helperText="0 sends on WhatsApp at once as well. Only families who agreed to WhatsApp."
          slotProps={{ htmlInput: { min: 0, max: 1440, step: 1 } }}
          {...field('whatsapp_fallback_minutes')}
        />
        <TextField
          label="Put on the call list when not reached within (minutes)"
          type="number"
          slotProps={{ htmlInput: { min: 1, max: 1440, step: 1 } }}
          {...field('not_reached_minutes')}
        />
        <TextField
          label="WhatsApp notice template"
          helperText="The approved template that carries messages staff type (docs/whatsapp.md)."
          {...field('whatsapp_notice_template')}
        />
      </Stack>
    </EntityFormDialog>
  );
}
