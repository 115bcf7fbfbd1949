import AddIcon from '@mui/icons-material/Add';
import DeleteSweepIcon from '@mui/icons-material/DeleteSweep';
import PeopleIcon from '@mui/icons-material/People';
import { Alert, Box, Button, Paper, Stack, TablePagination, Typography } from '@mui/material';
import type { CreatedTeacher, Teacher } from '@tuitiondesk/contract';
import { type ReactNode, useCallback, useMemo, useState } from 'react';
import { EmptyState } from '../../components/empty-state';
import { PageSpinner } from '../../components/page-spinner';
import { errorText } from '../../lib/api-client';
import { useRowSelection } from '../../lib/row-selection';
import { useToast } from '../../lib/toast';
import {
  useCreateTeacher,
  useDeleteTeacher,
  useDeleteTeachers,
  useResetTeacherTwoFactor,
  useTeachers,
  useUpdateTeacher,
} from './api';
import { InitialPasswordDialog } from './initial-password-dialog';
import { TeacherDialog } from './teacher-dialog';
import { type TeacherForm, teacherRequest } from './teacher-form';
import { TeachersTable } from './teachers-table';

export const ROWS_PER_PAGE_OPTIONS = [25, 50, 100];
const NO_TEACHERS: Teacher[] = [];
const count = new Intl.NumberFormat();

function teachers(n: number): string {
  return `${count.format(n)} teacher${n === 1 ? '' : 's'}`;
}

type DialogState = { mode: 'add' } | { mode: 'edit'; teacher: Teacher } | null;

export default function TeachersPage() {
  const { showToast } = useToast();
  const query = useTeachers();
  const createTeacher = useCreateTeacher();
  const updateTeacher = useUpdateTeacher();
  const deleteTeacher = useDeleteTeacher();
  const deleteTeachers = useDeleteTeachers();
  const resetTwoFactor = useResetTeacherTwoFactor();

  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState(ROWS_PER_PAGE_OPTIONS[0] ?? 25);
  const [dialog, setDialog] = useState<DialogState>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedTeacher | null>(null);

  const all = query.data ?? NO_TEACHERS;
  const allIds = useMemo(() => all.map((teacher) => teacher.id), [all]);
  const selection = useRowSelection(allIds);
  const header = selection.headerState(allIds);

  const lastPage = Math.max(0, Math.ceil(all.length / rowsPerPage) - 1);
  const currentPage = Math.min(page, lastPage);
  const pageRows = useMemo(
    () => all.slice(currentPage * rowsPerPage, (currentPage + 1) * rowsPerPage),
    [all, currentPage, rowsPerPage],
  );

  const { mutate: removeOne } = deleteTeacher;
  const onDelete = useCallback(
    (teacher: Teacher) => {
      if (!window.confirm(`Are you sure you want to delete ${teacher.full_name}?`)) return;
      removeOne(teacher.id, {
        onSuccess: () => showToast('Teacher deleted successfully.', 'success'),
        onError: (error) => showToast(errorText(error, 'Failed to delete teacher'), 'error'),
      });
    },
    [removeOne, showToast],
  );
  const { mutate: reset } = resetTwoFactor;
  const onResetTwoFactor = useCallback(
    (teacher: Teacher) => {
      if (teacher.user_id === null) return;
      if (
        !window.confirm(
          `Reset two-factor sign-in for ${teacher.full_name}? Until they set it up again, their password alone signs them in.`,
        )
      )
        return;
      reset(teacher.user_id, {
        onSuccess: () => showToast(`Two-factor sign-in reset for ${teacher.full_name}.`, 'success'),
        onError: (error) => showToast(errorText(error, 'Failed to reset two-factor sign-in'), 'error'),
      });
    },
    [reset, showToast],
  );
  const onEdit = useCallback((teacher: Teacher) => {
    setSaveError(null);
    setDialog({ mode: 'edit', teacher });
  }, []);
  const { toggle, toggleAll, clear: clearSelection } = selection;
  const onToggleAll = useCallback(() => toggleAll(allIds), [toggleAll, allIds]);

  const deleteSelected = () => {
    const ids = [...selection.selectedIds];
    if (ids.length === 0) return;
    if (!window.confirm(`Are you sure you want to delete ${ids.length} teacher(s)?`)) return;
    deleteTeachers.mutate(ids, {
      onSuccess: (answer) => {
        clearSelection();
        showToast(`Successfully deleted ${answer?.deleted_count ?? ids.length} teacher(s).`, 'success');
      },
      onError: (error) => showToast(errorText(error, 'Failed to delete teachers'), 'error'),
    });
  };

  const save = (form: TeacherForm) => {
    setSaveError(null);
    const request = teacherRequest(form);
    const failed = (error: unknown) => setSaveError(errorText(error, 'Failed to save teacher'));
    if (dialog?.mode === 'edit') {
      updateTeacher.mutate(
        { id: dialog.teacher.id, request: { ...dialog.teacher, ...request } },
        { onSuccess: () => setDialog(null), onError: failed },
      );
    } else {
      createTeacher.mutate(request, {
        onSuccess: (answer) => {
          setDialog(null);
          setCreated(answer);
        },
        onError: failed,
      });
    }
  };

  const selectedCount = selection.selectedIds.length;

  let body: ReactNode;
  if (query.isPending) {
    body = <PageSpinner />;
  } else if (query.isError) {
    body = (
      <Box sx={{ p: 2 }}>
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void query.refetch()}>
              Retry
            </Button>
          }
        >
          {errorText(query.error, 'Failed to fetch teachers')}
        </Alert>
      </Box>
    );
  } else if (all.length === 0) {
    body = (
      <EmptyState
        icon={<PeopleIcon />}
        title="No teachers yet"
        text="Click Add Teacher to add the first one, or import them on the Import Data screen."
      />
    );
  } else {
    body = (
      <>
        <TeachersTable
          rows={pageRows}
          header={header}
          isSelected={selection.isSelected}
          onToggle={toggle}
          onToggleAll={onToggleAll}
          onEdit={onEdit}
          onDelete={onDelete}
          onResetTwoFactor={onResetTwoFactor}
        />
        <TablePagination
          component="div"
          count={all.length}
          page={currentPage}
          rowsPerPage={rowsPerPage}
          rowsPerPageOptions={ROWS_PER_PAGE_OPTIONS}
          onPageChange={(_event, next) => setPage(next)}
          onRowsPerPageChange={(event) => {
            setRowsPerPage(Number(event.target.value));
            setPage(0);
          }}
          labelRowsPerPage="Rows:"
          showFirstButton
          showLastButton
        />
      </>
    );
  }

  return (
    <Stack spacing={2}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1.5}
        sx={{ alignItems: { xs: 'stretch', sm: 'center' }, justifyContent: 'space-between' }}
      >
        <Typography color="text.secondary">{query.isSuccess && teachers(all.length)}</Typography>
        <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={1} sx={{ justifyContent: 'flex-end' }}>
          {selectedCount > 0 && (
            <Button
              variant="outlined"
              color="error"
              startIcon={<DeleteSweepIcon />}
              onClick={deleteSelected}
              disabled={deleteTeachers.isPending}
            >
              Delete Selected ({selectedCount})
            </Button>
          )}
          <Button
            variant="contained"
            startIcon={<AddIcon />}
            onClick={() => {
              setSaveError(null);
              setDialog({ mode: 'add' });
            }}
          >
            Add Teacher
          </Button>
        </Stack>
      </Stack>

      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        {selectedCount > 0 && (
          <Stack
            direction="row"
            spacing={1}
            role="status"
            sx={{ px: 2, py: 1, alignItems: 'center', bgcolor: 'action.selected', flexWrap: 'wrap' }}
          >
            <Typography variant="body2" sx={{ fontWeight: 500, flexGrow: 1 }}>
              {header.checked && all.length > 1
                ? `All ${teachers(all.length)} selected`
                : `${teachers(selectedCount)} selected`}
            </Typography>
            <Button size="small" onClick={clearSelection}>
              Clear selection
            </Button>
          </Stack>
        )}
        {body}
      </Paper>

      {dialog && (
        <TeacherDialog
          open
          teacher={dialog.mode === 'edit' ? dialog.teacher : undefined}
          saving={createTeacher.isPending || updateTeacher.isPending}
          error={saveError}
          onCancel={() => setDialog(null)}
          onSave={save}
        />
      )}
      {created && <InitialPasswordDialog teacher={created} onClose={() => setCreated(null)} />}
    </Stack>
  );
}
