import DeleteSweepIcon from '@mui/icons-material/DeleteSweep';
import { Button, Stack, Typography } from '@mui/material';
import type { UseMutationResult } from '@tanstack/react-query';
import type { DeletedCount } from '@tuitiondesk/contract';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import type { EntityTexts } from './entity-texts';

/** The server's all-or-nothing delete of many rows, answering how many it deleted. */
export type DeleteMany = Pick<UseMutationResult<DeletedCount, Error, number[]>, 'mutate' | 'isPending'>;

/**
 * Delete Selected (n): asks first, then deletes every selected row. The selection is cleared only when
 * the delete succeeds, so after a failure the same rows can be tried again.
 */
export function DeleteSelectedButton({
  texts,
  selectedIds,
  deleteMany,
  onDeleted,
}: {
  texts: EntityTexts;
  selectedIds: readonly number[];
  deleteMany: DeleteMany;
  onDeleted: () => void;
}) {
  const { showToast } = useToast();
  const deleteSelected = () => {
    const ids = [...selectedIds];
    if (ids.length === 0) return;
    if (!window.confirm(texts.confirmDeleteSelected(ids.length))) return;
    deleteMany.mutate(ids, {
      onSuccess: (answer) => {
        onDeleted();
        showToast(texts.deletedSelected(answer?.deleted_count ?? ids.length), 'success');
      },
      onError: (error) => showToast(errorText(error, texts.deleteSelectedFailed), 'error'),
    });
  };
  return (
    <Button
      variant="outlined"
      color="error"
      startIcon={<DeleteSweepIcon />}
      onClick={deleteSelected}
      disabled={deleteMany.isPending}
    >
      {texts.deleteSelected(selectedIds.length)}
    </Button>
  );
}

/** The bar over the rows while some are selected: what is selected, and a way to clear it. */
export function SelectionBar({ summary, onClear }: { summary: string; onClear: () => void }) {
  const { t } = useTranslation('lists');
  return (
    <Stack
      direction="row"
      spacing={1}
      role="status"
      sx={{ px: 2, py: 1, alignItems: 'center', bgcolor: 'action.selected', flexWrap: 'wrap' }}
    >
      <Typography variant="body2" sx={{ fontWeight: 500, flexGrow: 1 }}>
        {summary}
      </Typography>
      <Button size="small" onClick={onClear}>
        {t('clearSelection')}
      </Button>
    </Stack>
  );
}
