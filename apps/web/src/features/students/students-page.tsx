import AddIcon from '@mui/icons-material/Add';
import DeleteSweepIcon from '@mui/icons-material/DeleteSweep';
import PersonSearchIcon from '@mui/icons-material/PersonSearch';
import SchoolIcon from '@mui/icons-material/School';
import SearchIcon from '@mui/icons-material/Search';
import {
  Alert,
  Box,
  Button,
  InputAdornment,
  Paper,
  Stack,
  TablePagination,
  TextField,
  Typography,
} from '@mui/material';
import type { Student } from '@tuitiondesk/contract';
import { type ReactNode, useCallback, useDeferredValue, useMemo, useState } from 'react';
import { EmptyState } from '../../components/empty-state';
import { PageSpinner } from '../../components/page-spinner';
import { errorText } from '../../lib/api-client';
import { type RowSelection, useRowSelection } from '../../lib/row-selection';
import { useToast } from '../../lib/toast';
import { useAuth } from '../auth/auth-provider';
import { ParentAccessDialog } from '../parents/parent-access-dialog';
import { useCreateStudent, useDeleteStudent, useDeleteStudents, useStudents, useUpdateStudent } from './api';
import { StudentDialog } from './student-dialog';
import type { StudentForm } from './student-form';
import { filterStudents } from './student-search';
import { StudentsTable } from './students-table';

export const ROWS_PER_PAGE_OPTIONS = [25, 50, 100];
const NO_STUDENTS: Student[] = [];
const count = new Intl.NumberFormat();

function students(n: number): string {
  return `${count.format(n)} student${n === 1 ? '' : 's'}`;
}

/** What the selection bar says: a select-all over many pages says it took every matching row. */
export function selectionSummary(
  selectedCount: number,
  matching: { total: number; selected: number; searching: boolean },
): string {
  const hidden = selectedCount - matching.selected;
  const allMatching = matching.total > 0 && matching.selected === matching.total;
  let text: string;
  if (allMatching && matching.total > 1) {
    text = `All ${students(matching.total)} selected`;
    if (matching.searching) text = `All ${count.format(matching.total)} matching students selected`;
  } else {
    text = `${students(selectedCount)} selected`;
  }
  if (hidden > 0) text += ` (${count.format(hidden)} not shown by the search)`;
  return text;
}

type DialogState = { mode: 'add' } | { mode: 'edit'; student: Student } | null;

export default function StudentsPage() {
  const { user } = useAuth();
  // Only admins may delete; the server refuses teachers, so they see no delete controls at all.
  const canDelete = user?.role === 'admin';
  const { showToast } = useToast();
  const query = useStudents();
  const createStudent = useCreateStudent();
  const updateStudent = useUpdateStudent();
  const deleteStudent = useDeleteStudent();
  const deleteStudents = useDeleteStudents();

  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState(ROWS_PER_PAGE_OPTIONS[0] ?? 25);
  const [dialog, setDialog] = useState<DialogState>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [parentAccessFor, setParentAccessFor] = useState<Student | null>(null);
  const openDialog = useCallback((next: DialogState) => {
    setSaveError(null);
    setDialog(next);
  }, []);

  const all = query.data ?? NO_STUDENTS;
  const allIds = useMemo(() => all.map((student) => student.id), [all]);
  const matches = useMemo(() => filterStudents(all, deferredSearch), [all, deferredSearch]);
  const matchingIds = useMemo(() => matches.map((student) => student.id), [matches]);
  const selection: RowSelection = useRowSelection(allIds);
  const header = selection.headerState(matchingIds);

  const lastPage = Math.max(0, Math.ceil(matches.length / rowsPerPage) - 1);
  const currentPage = Math.min(page, lastPage);
  const pageRows = useMemo(
    () => matches.slice(currentPage * rowsPerPage, (currentPage + 1) * rowsPerPage),
    [matches, currentPage, rowsPerPage],
  );

  const { mutate: removeOne } = deleteStudent;
  const onDelete = useCallback(
    (student: Student) => {
      if (!window.confirm(`Are you sure you want to delete ${student.full_name}?`)) return;
      removeOne(student.id, {
        onSuccess: () => showToast('Student deleted successfully.', 'success'),
        onError: (error) => showToast(errorText(error, 'Failed to delete student'), 'error'),
      });
    },
    [removeOne, showToast],
  );
  const onEdit = useCallback((student: Student) => openDialog({ mode: 'edit', student }), [openDialog]);
  const { toggle, toggleAll, clear: clearSelection } = selection;
  const onToggleAll = useCallback(() => toggleAll(matchingIds), [toggleAll, matchingIds]);

  const deleteSelected = () => {
    const ids = [...selection.selectedIds];
    if (ids.length === 0) return;
    if (!window.confirm(`Are you sure you want to delete ${ids.length} student(s)?`)) return;
    deleteStudents.mutate(ids, {
      onSuccess: (answer) => {
        clearSelection();
        showToast(`Successfully deleted ${answer?.deleted_count ?? ids.length} student(s).`, 'success');
      },
      onError: (error) => showToast(errorText(error, 'Failed to delete students'), 'error'),
    });
  };

  const save = (form: StudentForm) => {
    setSaveError(null);
    if (dialog?.mode === 'edit') {
      updateStudent.mutate(
        { ...dialog.student, ...form },
        {
          onSuccess: () => {
            setDialog(null);
            showToast('Student updated successfully.', 'success');
          },
          onError: (error) => setSaveError(errorText(error, 'Failed to update student')),
        },
      );
    } else {
      createStudent.mutate(form, {
        onSuccess: () => {
          setDialog(null);
          showToast('Student added successfully.', 'success');
        },
        onError: (error) => setSaveError(errorText(error, 'Failed to create student')),
      });
    }
  };

  const selectedCount = selection.selectedIds.length;
  const searching = deferredSearch.trim() !== '';

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
          {errorText(query.error, 'Failed to fetch students')}
        </Alert>
      </Box>
    );
  } else if (all.length === 0) {
    body = (
      <EmptyState
        icon={<SchoolIcon />}
        title="No students yet"
        text="Click Add Student to add the first one; they will be listed here."
      />
    );
  } else if (matches.length === 0) {
    body = (
      <EmptyState
        icon={<PersonSearchIcon />}
        title="No students found"
        text="No student matches your search. Try a name, student ID, class, parent name or phone."
      />
    );
  } else {
    body = (
      <>
        <StudentsTable
          rows={pageRows}
          canDelete={canDelete}
          header={header}
          isSelected={selection.isSelected}
          onToggle={toggle}
          onToggleAll={onToggleAll}
          onEdit={onEdit}
          onDelete={onDelete}
          onParentAccess={setParentAccessFor}
        />
        <TablePagination
          component="div"
          count={matches.length}
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
        <Typography color="text.secondary">
          {query.isSuccess &&
            (searching ? `${students(matches.length)} of ${count.format(all.length)}` : students(all.length))}
        </Typography>
        <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={1} sx={{ justifyContent: 'flex-end' }}>
          {canDelete && selectedCount > 0 && (
            <Button
              variant="outlined"
              color="error"
              startIcon={<DeleteSweepIcon />}
              onClick={deleteSelected}
              disabled={deleteStudents.isPending}
            >
              Delete Selected ({selectedCount})
            </Button>
          )}
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => openDialog({ mode: 'add' })}>
            Add Student
          </Button>
        </Stack>
      </Stack>

      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <Box sx={{ p: 2 }}>
          <TextField
            type="search"
            label="Search students"
            placeholder="Name, student ID, class, parent name or phone"
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              setPage(0);
            }}
            size="small"
            fullWidth
            sx={{ maxWidth: { sm: 480 } }}
            slotProps={{
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
        </Box>
        {canDelete && selectedCount > 0 && (
          <Stack
            direction="row"
            spacing={1}
            role="status"
            sx={{ px: 2, py: 1, alignItems: 'center', bgcolor: 'action.selected', flexWrap: 'wrap' }}
          >
            <Typography variant="body2" sx={{ fontWeight: 500, flexGrow: 1 }}>
              {selectionSummary(selectedCount, { total: matches.length, selected: header.selectedCount, searching })}
            </Typography>
            <Button size="small" onClick={clearSelection}>
              Clear selection
            </Button>
          </Stack>
        )}
        {body}
      </Paper>

      {parentAccessFor && (
        <ParentAccessDialog
          key={parentAccessFor.id}
          student={parentAccessFor}
          onClose={() => setParentAccessFor(null)}
        />
      )}
      {dialog && (
        <StudentDialog
          open
          student={dialog.mode === 'edit' ? dialog.student : undefined}
          saving={createStudent.isPending || updateStudent.isPending}
          error={saveError}
          onCancel={() => setDialog(null)}
          onSave={save}
        />
      )}
    </Stack>
  );
}
