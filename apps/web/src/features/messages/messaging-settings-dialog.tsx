import { Alert, Stack, TextField } from '@mui/material';
import type { MessagingSettings } from '@tuitiondesk/contract';
import { useState } from 'react';
import { EntityFormDialog } from '../../components/entity-list';
import { type TFunction, useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useSaveMessagingSettings } from './api';

/** Where WhatsApp stands, in one sentence. */
export function whatsappStatusText(t: TFunction<'messages'>, settings: MessagingSettings): string {
  return settings.whatsapp.configured
    ? t('settings.on', { used: settings.whatsapp.used_today, limit: settings.whatsapp.daily_limit })
    : t('settings.off');
}

/** Message settings (admins): the centre's name in messages, the WhatsApp fallback and call-list times. */
export function MessagingSettingsDialog({ settings, onClose }: { settings: MessagingSettings; onClose: () => void }) {
  const { t } = useTranslation('messages');
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
          showToast(t('settings.saved'), 'success');
          onClose();
        },
        onError: (failure) => setError(errorText(failure, t('settings.saveFailed'))),
      },
    );
  };

  return (
    <EntityFormDialog
      title={t('settings.title')}
      saving={save.isPending}
      error={error}
      canSave={form.centre_name.trim() !== ''}
      submitLabel={t('settings.save')}
      onCancel={onClose}
      onSave={submit}
      maxWidth="sm"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <Alert severity={settings.whatsapp.configured ? 'success' : 'info'}>{whatsappStatusText(t, settings)}</Alert>
        <TextField
          label={t('settings.centreName')}
          required
          helperText={t('settings.centreNameHelp')}
          {...field('centre_name')}
        />
        <TextField
          label={t('settings.fallback')}
          type="number"
          helperText={t('settings.fallbackHelp')}
          slotProps={{ htmlInput: { min: 0, max: 1440, step: 1 } }}
          {...field('whatsapp_fallback_minutes')}
        />
        <TextField
          label={t('settings.notReached')}
          type="number"
          slotProps={{ htmlInput: { min: 1, max: 1440, step: 1 } }}
          {...field('not_reached_minutes')}
        />
        <TextField
          label={t('settings.noticeTemplate')}
          helperText={t('settings.noticeTemplateHelp')}
          {...field('whatsapp_notice_template')}
        />
      </Stack>
    </EntityFormDialog>
  );
}
