import type { Student } from '@tuitiondesk/contract';
import { EntityList, type RowAction, useEditor } from '../../components/entity-list';
import { errorText } from '../../lib/api-client';
import { useAuth } from '../../lib/auth/auth-provider';
import { useToast } from '../../lib/toast';
import { useCreateStudent, useDeleteStudent, useDeleteStudents, useStudents, useUpdateStudent } from './api';
import { StudentDialog } from './student-dialog';
import { editedStudent, type StudentForm } from './student-form';
import { STUDENTS_LIST } from './students-list';

/**
 * The Students screen: everyone adds, searches and edits; only admins delete (the server refuses
 * teachers, so they see no checkboxes and no delete buttons). `rowActions` are the row's other
 * actions, which the app places beside Edit.
 */
export default function StudentsPage({ rowActions }: { rowActions?: readonly RowAction<Student>[] }) {
  const { user } = useAuth();
  const canDelete = user?.role === 'admin';
  const { showToast } = useToast();
  const query = useStudents();
  const createStudent = useCreateStudent();
  const updateStudent = useUpdateStudent();
  const deleteStudent = useDeleteStudent();
  const deleteStudents = useDeleteStudents();
  const editor = useEditor<Student>();

  const save = (form: StudentForm) => {
    editor.setError(null);
    const saved = (text: string) => () => {
      editor.close();
      showToast(text, 'success');
    };
    if (editor.editing) {
      updateStudent.mutate(editedStudent(editor.editing, form), {
        onSuccess: saved('Student updated successfully.'),
        onError: (error) => editor.setError(errorText(error, 'Failed to update student')),
      });
    } else {
      createStudent.mutate(form, {
        onSuccess: saved('Student added successfully.'),
        onError: (error) => editor.setError(errorText(error, 'Failed to create student')),
      });
    }
  };

  return (
    <>
      <EntityList
        list={STUDENTS_LIST}
        query={query}
        onAdd={editor.openAdd}
        onEdit={editor.openEdit}
        rowActions={rowActions}
        deleting={canDelete ? { one: deleteStudent, many: deleteStudents } : undefined}
      />
      {editor.isOpen && (
        <StudentDialog
          student={editor.editing}
          saving={createStudent.isPending || updateStudent.isPending}
          error={editor.error}
          onCancel={editor.close}
          onSave={save}
        />
      )}
    </>
  );
}
