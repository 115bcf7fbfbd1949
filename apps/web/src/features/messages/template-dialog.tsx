import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { Box, Chip, IconButton, MenuItem, Stack, TextField, Tooltip, Typography } from '@mui/material';
import {
  fillPlaceholders,
  type MessageTemplate,
  NOTICE_PLACEHOLDERS,
  PARENT_LANGUAGES,
  type ParentLanguage,
  TEMPLATE_PLACEHOLDERS,
  type TemplatePlaceholder,
} from '@tuitiondesk/contract';
import { useState } from 'react';
import { EntityFormDialog } from '../../components/entity-list';
import { type TFunction, useTranslation } from '../../i18n';
import { useLanguageLabel } from '../../i18n/language-label';
import { errorText } from '../../lib/api-client';
import { formatDay } from '../../lib/dates';
import { useToast } from '../../lib/toast';
import { useSaveTemplate } from './api';

/** What a preview fills the placeholders with: `Class 8`, `23 Nov 2026`, `absent` in the language in use. */
export function exampleValues(t: TFunction<'messages'>): Record<TemplatePlaceholder, string> {
  return {
    student_name: t('templateDialog.example.student'),
    class: t('templateDialog.example.class', { number: 8 }),
    date: formatDay('2026-11-23'),
    status: t('templateDialog.example.status'),
    centre_name: t('templateDialog.example.centre'),
  };
}

interface TextDraft {
  language: ParentLanguage;
  body: string;
  whatsapp_template: string;
}

/** Add a notice template (no `template`), or edit any template's name, subject and texts. */
export function TemplateDialog({ template, onClose }: { template?: MessageTemplate; onClose: () => void }) {
  const { t } = useTranslation('messages');
  const languageLabel = useLanguageLabel();
  const save = useSaveTemplate();
  const { showToast } = useToast();
  const [name, setName] = useState(template?.name ?? '');
  const [subject, setSubject] = useState(template?.subject ?? '');
  const [texts, setTexts] = useState<TextDraft[]>(
    template?.texts.map((text) => ({ ...text, whatsapp_template: text.whatsapp_template ?? '' })) ?? [
      { language: 'en', body: '', whatsapp_template: '' },
    ],
  );
  const [focused, setFocused] = useState<ParentLanguage>('en');
  const [error, setError] = useState<string | null>(null);
  const purpose = template?.purpose ?? 'notice';
  const placeholders = purpose === 'notice' ? NOTICE_PLACEHOLDERS : TEMPLATE_PLACEHOLDERS;
  const missing = PARENT_LANGUAGES.filter((language) => !texts.some((text) => text.language === language));

  const change = (language: ParentLanguage, field: 'body' | 'whatsapp_template', value: string) =>
    setTexts((current) => current.map((text) => (text.language === language ? { ...text, [field]: value } : text)));
  const insert = (placeholder: TemplatePlaceholder) =>
    setTexts((current) =>
      current.map((text) =>
        text.language === focused
          ? { ...text, body: `${text.body}${text.body.endsWith(' ') || text.body === '' ? '' : ' '}{${placeholder}}` }
          : text,
      ),
    );

  const submit = () => {
    setError(null);
    save.mutate(
      {
        id: template?.id,
        body: {
          name,
          purpose,
          subject,
          texts: texts.map((text) => ({ ...text, whatsapp_template: text.whatsapp_template.trim() || null })),
        },
      },
      {
        onSuccess: () => {
          showToast(template ? t('templateDialog.saved') : t('templateDialog.added'), 'success');
          onClose();
        },
        onError: (failure) => setError(errorText(failure, t('templateDialog.saveFailed'))),
      },
    );
  };

  return (
    <EntityFormDialog
      title={template ? t('templateDialog.editTitle', { name: template.name }) : t('templateDialog.addTitle')}
      saving={save.isPending}
      error={error}
      canSave={name.trim() !== '' && subject.trim() !== '' && texts.every((text) => text.body.trim() !== '')}
      submitLabel={template ? t('templateDialog.save') : t('templateDialog.add')}
      onCancel={onClose}
      onSave={submit}
      maxWidth="md"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextField
          label={t('templateDialog.name')}
          value={name}
          onChange={(event) => setName(event.target.value)}
          required
          autoFocus
        />
        <TextField
          label={t('templateDialog.subject')}
          value={subject}
          onChange={(event) => setSubject(event.target.value)}
          required
        />
        <Box>
          <Typography variant="body2" color="text.secondary" id="placeholders-label" sx={{ mb: 0.5 }}>
            {t('templateDialog.placeholders', { language: languageLabel(focused) })}
          </Typography>
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }} aria-labelledby="placeholders-label">
            {placeholders.map((placeholder) => (
              <Chip key={placeholder} label={`{${placeholder}}`} onClick={() => insert(placeholder)} size="small" />
            ))}
          </Stack>
        </Box>
        {texts.map((text) => (
          <Box key={text.language} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2 }}>
            <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
              <Typography variant="subtitle2" component="h3">
                {languageLabel(text.language)}
              </Typography>
              {text.language !== 'en' && (
                <Tooltip title={t('templateDialog.removeLanguage')}>
                  <IconButton
                    aria-label={t('templateDialog.removeText', { language: languageLabel(text.language) })}
                    onClick={() => setTexts((current) => current.filter((other) => other.language !== text.language))}
                  >
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              )}
            </Stack>
            <Stack spacing={1.5}>
              <TextField
                label={t('templateDialog.text', { language: languageLabel(text.language) })}
                value={text.body}
                onChange={(event) => change(text.language, 'body', event.target.value)}
                onFocus={() => setFocused(text.language)}
                multiline
                minRows={2}
                required
                slotProps={{ htmlInput: { dir: text.language === 'ur' ? 'rtl' : undefined, lang: text.language } }}
              />
              <TextField
                label={t('templateDialog.whatsappName')}
                value={text.whatsapp_template}
                onChange={(event) => change(text.language, 'whatsapp_template', event.target.value)}
                helperText={t('templateDialog.whatsappHelp')}
              />
              <Typography variant="body2" color="text.secondary" lang={text.language}>
                {t('templateDialog.preview', { text: fillPlaceholders(text.body, exampleValues(t)) || '-' })}
              </Typography>
            </Stack>
          </Box>
        ))}
        {missing.length > 0 && (
          <TextField
            select
            label={t('templateDialog.addLanguage')}
            value=""
            onChange={(event) =>
              setTexts((current) => [
                ...current,
                { language: event.target.value as ParentLanguage, body: '', whatsapp_template: '' },
              ])
            }
          >
            {missing.map((language) => (
              <MenuItem key={language} value={language}>
                {languageLabel(language)}
              </MenuItem>
            ))}
          </TextField>
        )}
        {purpose !== 'notice' && (
          <Typography variant="body2" color="text.secondary">
            {t('templateDialog.alertNote')}
          </Typography>
        )}
      </Stack>
    </EntityFormDialog>
  );
}
