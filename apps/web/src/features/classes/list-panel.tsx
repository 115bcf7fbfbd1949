import ArchiveIcon from '@mui/icons-material/ArchiveOutlined';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import UnarchiveIcon from '@mui/icons-material/UnarchiveOutlined';
import { Box, Chip, IconButton, Paper, Skeleton, Tooltip, Typography } from '@mui/material';
import { useState } from 'react';
import { ColumnTable } from '../../components/data-table';
import type { DataColumn } from '../../components/row-cards';
import { type TFunction, useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { AddItemForm } from './add-item-form';
import {
  type ListItem,
  type ListKind,
  shownName,
  useArchiveItem,
  useCentreList,
  useDeleteItem,
  useEditItem,
  useReorder,
} from './api';
import { EditItemDialog } from './edit-item-dialog';

const inUse = (item: ListItem) =>
  'students' in item.in_use
    ? item.in_use.students + item.in_use.teachers + item.in_use.attendance_records > 0
    : item.in_use.teachers > 0;

function usageText(t: TFunction<'classes'>, item: ListItem): string {
  if (!inUse(item)) return t('row.unused');
  const parts = [];
  if ('students' in item.in_use && item.in_use.students > 0)
    parts.push(t('row.students', { count: item.in_use.students }));
  if (item.in_use.teachers > 0) parts.push(t('row.teachers', { count: item.in_use.teachers }));
  if ('attendance_records' in item.in_use && item.in_use.attendance_records > 0) {
    parts.push(t('row.records', { count: item.in_use.attendance_records }));
  }
  return parts.join(' · ');
}

const columns = (t: TFunction<'classes'>): readonly DataColumn<ListItem>[] => [
  {
    id: 'name',
    header: t('columns.name'),
    cell: (item) => (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', minWidth: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {shownName(item)}
        </Typography>
        {item.archived && <Chip size="small" label={t('row.archived')} />}
      </Box>
    ),
  },
  {
    id: 'value',
    header: t('columns.value'),
    cell: (item) => (
      <Typography variant="body2" component="span" dir="auto">
        {item.value}
      </Typography>
    ),
  },
  { id: 'usage', header: t('columns.usage'), cell: (item) => usageText(t, item) },
];

/**
 * One list (the classes or the subjects) with what an admin does to it: add at the end, move up or
 * down, relabel, archive or unarchive, and delete one nothing uses. A refusal (409, 422) is toasted
 * in the language in use.
 */
export function ListPanel({ kind }: { kind: ListKind }) {
  const { t } = useTranslation('classes');
  const list = useCentreList(kind);
  const edit = useEditItem(kind);
  const archive = useArchiveItem(kind);
  const remove = useDeleteItem(kind);
  const reorder = useReorder(kind);
  const { showToast } = useToast();
  const [editing, setEditing] = useState<ListItem | null>(null);
  const items: ListItem[] = list.data ?? [];
  const failed = (failure: unknown) => showToast(errorText(failure, t('failed')), 'error');
  const busy = archive.isPending || remove.isPending || reorder.isPending;

  const move = (index: number, by: -1 | 1) => {
    const ids = items.map((item) => item.id);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + by, 0, moved as number);
    reorder.mutate(ids, { onSuccess: () => showToast(t('done.reordered'), 'success'), onError: failed });
  };
  const setArchived = (item: ListItem, archived: boolean) =>
    archive.mutate(
      { id: item.id, archived },
      {
        onSuccess: () =>
          showToast(t(archived ? 'done.archived' : 'done.unarchived', { name: shownName(item) }), 'success'),
        onError: failed,
      },
    );
  const confirmDelete = (item: ListItem) => {
    if (!window.confirm(t('confirmDelete', { name: shownName(item) }))) return;
    remove.mutate(item.id, {
      onSuccess: () => showToast(t('done.deleted', { name: shownName(item) }), 'success'),
      onError: failed,
    });
  };

  const heading = t(kind === 'classes' ? 'classes.heading' : 'subjects.heading');
  return (
    <Paper variant="outlined" component="section" aria-labelledby={`${kind}-heading`} sx={{ minWidth: 0 }}>
      <Box sx={{ p: 2 }}>
        <Typography id={`${kind}-heading`} variant="h6" component="h3">
          {heading}
        </Typography>
        <Typography color="text.secondary" variant="body2" sx={{ mb: 2 }}>
          {t(kind === 'classes' ? 'classes.intro' : 'subjects.intro')}
        </Typography>
        <AddItemForm kind={kind} />
      </Box>
      {list.isPending ? (
        <Box aria-label={t('loading')} sx={{ p: 2 }}>
          {[0, 1, 2].map((row) => (
            <Skeleton key={row} height={48} />
          ))}
        </Box>
      ) : list.isError ? (
        <Typography role="alert" color="error" sx={{ p: 2 }}>
          {errorText(list.error, t('loadFailed'))}
        </Typography>
      ) : (
        <ColumnTable
          label={heading}
          region={heading}
          columns={columns(t)}
          rows={items}
          rowKey={(item) => item.id}
          nameOf={shownName}
          busy={busy}
          actions={{
            header: t('columns.actions'),
            cell: (item) => {
              const index = items.indexOf(item);
              const name = shownName(item);
              return (
                <Box sx={{ display: 'flex', flexWrap: 'wrap' }}>
                  <IconButton
                    aria-label={t('actions.moveUp', { name })}
                    disabled={index === 0 || busy}
                    onClick={() => move(index, -1)}
                  >
                    <ArrowUpwardIcon fontSize="small" />
                  </IconButton>
                  <IconButton
                    aria-label={t('actions.moveDown', { name })}
                    disabled={index === items.length - 1 || busy}
                    onClick={() => move(index, 1)}
                  >
                    <ArrowDownwardIcon fontSize="small" />
                  </IconButton>
                  <Tooltip title={t('actions.edit')}>
                    <IconButton aria-label={t('actions.editName', { name })} onClick={() => setEditing(item)}>
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t(item.archived ? 'actions.unarchive' : 'actions.archive')}>
                    <IconButton
                      aria-label={t(item.archived ? 'actions.unarchiveName' : 'actions.archiveName', { name })}
                      disabled={busy}
                      onClick={() => setArchived(item, !item.archived)}
                    >
                      {item.archived ? <UnarchiveIcon fontSize="small" /> : <ArchiveIcon fontSize="small" />}
                    </IconButton>
                  </Tooltip>
                  {!inUse(item) && (
                    <Tooltip title={t('actions.delete')}>
                      <IconButton
                        aria-label={t('actions.deleteName', { name })}
                        color="error"
                        disabled={busy}
                        onClick={() => confirmDelete(item)}
                      >
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                </Box>
              );
            },
          }}
          sx={{ minWidth: 560 }}
        />
      )}
      {editing && (
        <EditItemDialog
          kind={kind}
          item={editing}
          saving={edit.isPending}
          onCancel={() => setEditing(null)}
          onSave={(body) =>
            edit.mutate(
              { id: editing.id, body },
              {
                onSuccess: (saved) => {
                  setEditing(null);
                  showToast(t('done.saved', { name: shownName(saved) }), 'success');
                },
                onError: failed,
              },
            )
          }
        />
      )}
    </Paper>
  );
}
