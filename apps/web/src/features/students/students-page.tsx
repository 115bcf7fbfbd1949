import { Stack } from '@mui/material';
import type { Student } from '@tuitiondesk/contract';
import { type ReactNode, useMemo, useState } from 'react';
import { EntityList, type RowAction, useEditor } from '../../components/entity-list';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useAuth } from '../../lib/auth/auth-provider';
import { useToast } from '../../lib/toast';
import {
  useCreateStudent,
  useDeleteStudent,
  useDeleteStudents,
  useLeftStudents,
  useStudents,
  useUpdateStudent,
} from './api';
import { LeftStudentsToggle, type StudentsView, useLeavingActions } from './leaving-actions';
import { ScrubSetting } from './scrub-setting';
import { StudentDialog } from './student-dialog';
import { editedStudent, type StudentForm } from './student-form';
import { leftStudentsList, studentsList } from './students-list';

/**
 * The Students screen: everyone adds, searches and edits; only admins delete (the server refuses
 * teachers, so they see no checkboxes and no delete buttons). Admins also mark a student as left and
 * switch to the students who left, to restore them (ADR 027). `rowActions` are the row's other
 * actions, which the app places beside Edit; `settings` are the admins' settings for the students'
 * records (how phones without a country code are read), beside the list of current students.
 */
export default function StudentsPage({
  rowActions,
  settings,
}: {
  rowActions?: readonly RowAction<Student>[];
  settings?: ReactNode;
}) {
  const { t } = useTranslation('students');
  const { user } = useAuth();
  const canDelete = user?.role === 'admin';
  const { showToast } = useToast();
  const [view, setView] = useState<StudentsView>('current');
  const current = useStudents();
  const left = useLeftStudents(view === 'left');
  const query = view === 'left' ? left : current;
  const leaving = useLeavingActions(canDelete, view);
  const actions = useMemo(() => [...(rowActions ?? []), ...leaving.actions], [rowActions, leaving.actions]);
  const createStudent = useCreateStudent();
  const updateStudent = useUpdateStudent();
  const deleteStudent = useDeleteStudent();
  const deleteStudents = useDeleteStudents();
  const editor = useEditor<Student>();
  const list = useMemo(() => (view === 'left' ? leftStudentsList(t) : studentsList(t)), [view, t]);

  const save = (form: StudentForm) => {
    editor.setError(null);
    const saved = (text: string) => () => {
      editor.close();
      showToast(text, 'success');
    };
    if (editor.editing) {
      updateStudent.mutate(editedStudent(editor.editing, form), {
        onSuccess: saved(t('page.updated')),
        onError: (error) => editor.setError(errorText(error, t('page.updateFailed'))),
      });
    } else {
      createStudent.mutate(form, {
        onSuccess: saved(t('page.added')),
        onError: (error) => editor.setError(errorText(error, t('page.createFailed'))),
      });
    }
  };

  return (
    <Stack spacing={2}>
      {canDelete && (
        <Stack
          direction={{ xs: 'column', md: 'row' }}
          spacing={2}
          sx={{ justifyContent: 'space-between', alignItems: { md: 'flex-start' } }}
        >
          <LeftStudentsToggle view={view} onChange={setView} />
          {view === 'current' && settings}
        </Stack>
      )}
      {canDelete && view === 'left' && <ScrubSetting />}
      <EntityList
        key={view}
        list={list}
        query={query}
        onAdd={editor.openAdd}
        onEdit={editor.openEdit}
        rowActions={actions}
        deleting={canDelete ? { one: deleteStudent, many: deleteStudents } : undefined}
      />
      {leaving.dialog}
      {editor.isOpen && (
        <StudentDialog
          student={editor.editing}
          saving={createStudent.isPending || updateStudent.isPending}
          error={editor.error}
          onCancel={editor.close}
          onSave={save}
        />
      )}
    </Stack>
  );
}
