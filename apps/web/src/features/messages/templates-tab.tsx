import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import NotesIcon from '@mui/icons-material/NotesOutlined';
import { Box, Button, IconButton, Paper, Skeleton, Tooltip, Typography } from '@mui/material';
import { type MessageTemplate, PARENT_LANGUAGE_LABELS, TEMPLATE_PURPOSE_LABELS } from '@tuitiondesk/contract';
import { useState } from 'react';
import { ColumnTable } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import type { DataColumn } from '../../components/row-cards';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useDeleteTemplate, useTemplates } from './api';
import { TemplateDialog } from './template-dialog';

/** Name, Used for, Languages, WhatsApp templates, then the buttons: on a phone, a card a template. */
const COLUMNS: readonly DataColumn<MessageTemplate>[] = [
  {
    id: 'name',
    header: 'Name',
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
  { id: 'used-for', header: 'Used for', cell: (template) => TEMPLATE_PURPOSE_LABELS[template.purpose] },
  {
    id: 'languages',
    header: 'Languages',
    cell: (template) => template.texts.map((text) => PARENT_LANGUAGE_LABELS[text.language]).join(', '),
  },
  {
    id: 'whatsapp',
    header: 'WhatsApp templates',
    cell: (template) =>
      [...new Set(template.texts.map((text) => text.whatsapp_template).filter(Boolean))].join(', ') || (
        <Typography component="span" variant="body2" color="text.secondary">
          None: not sent on WhatsApp
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
  const templates = useTemplates();
  const remove = useDeleteTemplate();
  const { showToast } = useToast();
  const [editing, setEditing] = useState<MessageTemplate | 'new' | null>(null);

  const confirmDelete = (template: MessageTemplate) => {
    if (!window.confirm(`Delete the template "${template.name}"? Messages already sent stay as they are.`)) return;
    remove.mutate(template.id, {
      onSuccess: (result) => showToast(result.message, 'success'),
      onError: (failure) => showToast(errorText(failure, 'Failed to delete the template'), 'error'),
    });
  };

  if (templates.isPending) {
    return (
      <Box aria-label="Loading templates" sx={{ p: 2 }}>
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
        <Typography color="text.secondary" sx={{ maxWidth: 640 }}>
          Each family gets the text in its language (else English); on WhatsApp, the template Meta approved for it. Use
          placeholders such as {'{class}'} and {'{date}'}: they are filled for each message.
        </Typography>
        {canEdit && (
          <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setEditing('new')}>
            Add Template
          </Button>
        )}
      </Box>
      {items.length === 0 ? (
        <EmptyState icon={<NotesIcon />} title="No templates yet" />
      ) : (
        <ColumnTable
          label="Message templates"
          region="Message templates"
          columns={COLUMNS}
          rows={items}
          rowKey={templateId}
          nameOf={templateName}
          actions={{
            header: '',
            cell: (template) =>
              canEdit && (
                <>
                  <Tooltip title="Edit">
                    <IconButton aria-label={`Edit ${template.name}`} onClick={() => setEditing(template)}>
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  {template.purpose === 'notice' && (
                    <Tooltip title="Delete">
                      <IconButton
                        aria-label={`Delete ${template.name}`}
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
