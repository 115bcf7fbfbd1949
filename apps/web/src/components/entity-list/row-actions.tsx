import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { IconButton, Tooltip } from '@mui/material';
import type { UseMutationResult } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import type { EntityTexts } from './entity-texts';

/** A button in a row's Actions cell: an icon with a tooltip, named for the row it acts on. */
export interface RowAction<T> {
  id: string;
  tooltip: string;
  /** The accessible name, which says the row: `Edit Asha Rao`. */
  label: (row: T) => string;
  icon: ReactNode;
  onClick: (row: T) => void;
  color?: 'error';
  /** Rows this action does not apply to show no button. */
  appliesTo?: (row: T) => boolean;
}

/** The actions that apply to the row, in order, each an icon button with its tooltip. */
export function RowActionButtons<T>({ row, actions }: { row: T; actions: readonly RowAction<T>[] }) {
  return actions
    .filter((action) => action.appliesTo?.(row) ?? true)
    .map((action) => (
      <Tooltip key={action.id} title={action.tooltip}>
        <IconButton
          aria-label={action.label(row)}
          onClick={() => action.onClick(row)}
          size="small"
          color={action.color}
        >
          {action.icon}
        </IconButton>
      </Tooltip>
    ));
}

/** Edit opens the row in the page's dialog. */
export function useEditAction<T>(nameOf: (row: T) => string, onEdit: (row: T) => void): RowAction<T> {
  const { t } = useTranslation('lists');
  return useMemo<RowAction<T>>(
    () => ({
      id: 'edit',
      tooltip: t('edit'),
      label: (row) => t('editRow', { name: nameOf(row) }),
      icon: <EditIcon fontSize="small" />,
      onClick: onEdit,
    }),
    [t, nameOf, onEdit],
  );
}

/** The server's delete of one row by its id. */
export type DeleteOne = Pick<UseMutationResult<unknown, Error, number>, 'mutate'>;

/** Delete asks first, naming the row, then deletes it and says how that went; none without `remove`. */
export function useDeleteAction<T extends { id: number }>(
  texts: EntityTexts,
  nameOf: (row: T) => string,
  remove: DeleteOne | undefined,
): RowAction<T> | undefined {
  const { t } = useTranslation('lists');
  const { showToast } = useToast();
  const mutate = remove?.mutate;
  return useMemo<RowAction<T> | undefined>(
    () =>
      mutate && {
        id: 'delete',
        tooltip: t('delete'),
        label: (row) => t('deleteRow', { name: nameOf(row) }),
        icon: <DeleteIcon fontSize="small" />,
        color: 'error',
        onClick: (row) => {
          if (!window.confirm(texts.confirmDelete(nameOf(row)))) return;
          mutate(row.id, {
            onSuccess: () => showToast(texts.deleted, 'success'),
            onError: (error) => showToast(errorText(error, texts.deleteFailed), 'error'),
          });
        },
      },
    [t, texts, nameOf, mutate, showToast],
  );
}
