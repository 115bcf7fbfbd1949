import { Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Stack, TextField } from '@mui/material';
import { ALL_PARENTS, type FamilyCount, fillPlaceholders, type SendToParentsResult } from '@tuitiondesk/contract';
import { type FormEvent, useEffect, useState } from 'react';
import { englishText, type TFunction, useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { formatDay, todayIso } from '../../lib/dates';
import { serverMessage } from '../../lib/server-words';
import { useToast } from '../../lib/toast';
import { useFamilyCount, useMessagingSettings, useRecipientClasses, useSendToParents, useTemplates } from './api';
import { previewText, sentReachText } from './reach-words';

/** A message is sent only when both texts hold something once trimmed. */
export function isMessageComplete(subject: string, message: string): boolean {
  return subject.trim() !== '' && message.trim() !== '';
}

/**
 * What a send answered, in the language in use: in English the server's message and notice as
 * written; otherwise worded from the counts (families reached, WhatsApp messages waiting for the
 * daily limit, families no channel reaches, who are on the call list).
 */
export function sentText(t: TFunction<'messages'>, result: SendToParentsResult | undefined): string {
  if (!result) return t('send.sent');
  // Worded from the counts in every language (ADR 044): who each channel reached, never "sent" of a
  // family none took. A server of the spec answers only its message: shown as it is.
  const reach = sentReachText(t, result);
  if (reach) {
    return [reach, result.whatsapp_waiting > 0 && t('send.waiting', { count: result.whatsapp_waiting })]
      .filter(Boolean)
      .join(' ');
  }
  const english = [result.message || t('send.sent'), result.notice].filter(Boolean).join(' ');
  return serverMessage(english, () => t('send.sentTo', { count: result.recipients_count }));
}

/**
 * Who a message goes to, said before it is sent, channel by channel: `Goes to 141 families: 12 in the
 * app, 0 on WhatsApp, 129 with no channel yet: they go on your send list`.
 */
export function familyCountText(t: TFunction<'messages'>, count: FamilyCount, recipients: string): string {
  if (count.families === 0) {
    return recipients === ALL_PARENTS ? t('send.noFamiliesAll') : t('send.noFamiliesClass', { class: recipients });
  }
  if (typeof count.no_channel !== 'number') return t('send.goesTo', { count: count.families });
  return previewText(t, count);
}

export function SendMessageDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('messages');
  const { showToast } = useToast();
  const classes = useRecipientClasses(open);
  const send = useSendToParents();
  const [recipients, setRecipients] = useState<string>(ALL_PARENTS);
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [templateId, setTemplateId] = useState<number | ''>('');
  const templates = useTemplates(open);
  const settings = useMessagingSettings(open);
  const reach = useFamilyCount(recipients, open);
  const notices = (templates.data ?? []).filter((template) => template.purpose === 'notice');

  /**
   * Starting from a template fills Subject and Message with its English text (placeholders filled for
   * the chosen recipients and today); families with another language get that language's own text.
   * Editing the text keeps the template: the edit is the English version.
   */
  const startFrom = (id: number | '') => {
    setTemplateId(id);
    const template = notices.find((item) => item.id === id);
    const english = template?.texts.find((text) => text.language === 'en');
    if (!template || !english) return;
    // The English text is filled in English, whatever the language of the console.
    const recipientLabel =
      recipients === ALL_PARENTS
        ? englishText('messages:fill.allClasses')
        : englishText('messages:fill.class', { class: recipients });
    setSubject(template.subject);
    setMessage(
      fillPlaceholders(english.body, {
        class: recipientLabel,
        date: formatDay(todayIso()),
        centre_name: settings.data?.centre_name ?? '',
      }),
    );
  };

  useEffect(() => {
    if (classes.isError) showToast(errorText(classes.error, t('send.classesFailed')), 'error');
  }, [classes.isError, classes.error, showToast, t]);

  const close = () => {
    if (send.isPending) return;
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!isMessageComplete(subject, message)) {
      window.alert(t('send.incomplete'));
      return;
    }
    send.mutate(
      {
        subject: subject.trim(),
        message: message.trim(),
        recipients,
        ...(templateId === '' ? {} : { template_id: templateId }),
      },
      {
        onSuccess: (result) => {
          const unreached = (result?.unreachable_count ?? 0) > 0;
          showToast(sentText(t, result), result?.notice || unreached ? 'warning' : 'success');
          setSubject('');
          setMessage('');
          setTemplateId('');
          setRecipients(ALL_PARENTS);
          onClose();
        },
        onError: (error) => window.alert(errorText(error, t('send.failed'))),
      },
    );
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="send-message-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="send-message-title">{t('send.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label={t('send.messageTypeLabel')}
              value={t('send.messageType')}
              helperText={settings.data?.whatsapp.configured ? t('send.deliveredBoth') : t('send.deliveredApp')}
              slotProps={{ htmlInput: { readOnly: true } }}
              fullWidth
            />
            {notices.length > 0 && (
              <TextField
                select
                label={t('send.startFrom')}
                value={templateId}
                onChange={(event) => startFrom(event.target.value === '' ? '' : Number(event.target.value))}
                fullWidth
              >
                <MenuItem value="">{t('send.noTemplate')}</MenuItem>
                {notices.map((template) => (
                  <MenuItem key={template.id} value={template.id}>
                    {template.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
            <TextField
              select
              label={t('send.recipients')}
              value={recipients}
              onChange={(event) => setRecipients(event.target.value)}
              // The first field to act on: the Message Type above it is fixed.
              autoFocus
              helperText={
                reach.data
                  ? familyCountText(t, reach.data, recipients)
                  : reach.isError
                    ? t('send.countFailed')
                    : t('send.counting')
              }
              slotProps={{ formHelperText: { 'aria-live': 'polite' } }}
              fullWidth
            >
              <MenuItem value={ALL_PARENTS}>{t('send.allParents')}</MenuItem>
              {(classes.data ?? []).map((option) => (
                <MenuItem key={option.value} value={option.value}>
                  {option.label}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label={t('send.subject')}
              value={subject}
              onChange={(event) => setSubject(event.target.value)}
              fullWidth
              slotProps={{ htmlInput: { maxLength: 200 } }}
            />
            <TextField
              label={t('send.message')}
              value={message}
              onChange={(event) => setMessage(event.target.value)}
              multiline
              rows={4}
              fullWidth
              slotProps={{ htmlInput: { maxLength: 5000 } }}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={send.isPending}>
            {t('send.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={send.isPending}>
            {send.isPending ? t('send.sending') : t('send.title')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
