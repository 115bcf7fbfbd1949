import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import NotesIcon from '@mui/icons-material/NotesOutlined';
import { Box, Button, IconButton, Paper, Skeleton, Tooltip, Typography } from '@mui/material';
import type { MessageTemplate, ParentLanguage } from '@tuitiondesk/contract';
import { useState } from 'react';
import { ColumnTable } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import type { DataColumn } from '../../components/row-cards';
import { type TFunction, useTranslation } from '../../i18n';
import { useLanguageLabel } from '../../i18n/language-label';
import { errorText } from '../../lib/api-client';
import { serverMessage } from '../../lib/server-words';
import { useToast } from '../../lib/toast';
import { useDeleteTemplate, useTemplates } from './api';
import { TemplateDialog } from './template-dialog';

/** Name, Used for, Languages, WhatsApp templates, then the buttons: on a phone, a card a template. */
const columns = (
  t: TFunction<'messages'>,
  languageLabel: (language: ParentLanguage) => string,
): readonly DataColumn<MessageTemplate>[] => [
  {
    id: 'name',
    header: t('templates.columns.name'),
    cell: (template) => (
      <>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {template.name}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {template.subject}
        </Typography>
      </>
    ),
  },
  { id: 'used-for', header: t('templates.columns.usedFor'), cell: (template) => t(`purpose.${template.purpose}`) },
  {
    id: 'languages',
    header: t('templates.columns.languages'),
    cell: (template) => template.texts.map((text) => languageLabel(text.language)).join(', '),
  },
  {
    id: 'whatsapp',
    header: t('templates.columns.whatsapp'),
    cell: (template) =>
      [...new Set(template.texts.map((text) => text.whatsapp_template).filter(Boolean))].join(', ') || (
        <Typography component="span" variant="body2" color="text.secondary">
          {t('templates.notOnWhatsapp')}
        </Typography>
      ),
  },
];
const templateId = (template: MessageTemplate) => template.id;
const templateName = (template: MessageTemplate) => template.name;

/**
 * The centre's message templates: the absence and late alerts (sent on approval), and notices staff
 * can start a message from. Admins add, change and delete them; teachers read them.
 */
export function TemplatesTab({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation('messages');
  const languageLabel = useLanguageLabel();
  const templates = useTemplates();
  const remove = useDeleteTemplate();
  const { showToast } = useToast();
  const [editing, setEditing] = useState<MessageTemplate | 'new' | null>(null);

  const confirmDelete = (template: MessageTemplate) => {
    if (!window.confirm(t('templates.confirmDelete', { name: template.name }))) return;
    remove.mutate(template.id, {
      onSuccess: (result) =>
        showToast(
          serverMessage(result.message, () => t('templates.deleted', { name: template.name })),
          'success',
        ),
      onError: (failure) => showToast(errorText(failure, t('templates.deleteFailed')), 'error'),
    });
  };

  if (templates.isPending) {
    return (
      <Box aria-label={t('templates.loading')} sx={{ p: 2 }}>
        {[0, 1, 2].map((row) => (
          <Skeleton key={row} height={48} />
        ))}
      </Box>
    );
  }
  const items = templates.data ?? [];
  return (
    <Paper variant="outlined">
      <Box
        sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', p: 2, gap: 2, flexWrap: 'wrap' }}
      >
        <Typography color="text.secondary" sx={{ maxWidth: 640, minWidth: 0, overflowWrap: 'anywhere' }}>
          {t('templates.intro', { first: '{class}', second: '{date}' })}
        </Typography>
        {canEdit && (
          <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setEditing('new')}>
            {t('templates.add')}
          </Button>
        )}
      </Box>
      {items.length === 0 ? (
        <EmptyState icon={<NotesIcon />} title={t('templates.empty')} />
      ) : (
        <ColumnTable
          label={t('templates.label')}
          region={t('templates.label')}
          columns={columns(t, languageLabel)}
          rows={items}
          rowKey={templateId}
          nameOf={templateName}
          actions={{
            header: '',
            cell: (template) =>
              canEdit && (
                <>
                  <Tooltip title={t('templates.edit')}>
                    <IconButton
                      aria-label={t('templates.editName', { name: template.name })}
                      onClick={() => setEditing(template)}
                    >
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  {template.purpose === 'notice' && (
                    <Tooltip title={t('templates.delete')}>
                      <IconButton
                        aria-label={t('templates.deleteName', { name: template.name })}
                        color="error"
                        onClick={() => confirmDelete(template)}
                      >
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                </>
              ),
          }}
          sx={{ minWidth: 640 }}
        />
      )}
      {editing && (
        <TemplateDialog template={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      )}
    </Paper>
  );
}
