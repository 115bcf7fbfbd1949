import type { CreatedTeacher, Teacher } from '@tuitiondesk/contract';
import { useMemo, useState } from 'react';
import { EntityList, useEditor } from '../../components/entity-list';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useCreateTeacher, useDeleteTeacher, useDeleteTeachers, useTeachers, useUpdateTeacher } from './api';
import { InitialPasswordDialog } from './initial-password-dialog';
import { usePasswordReset } from './reset-password-action';
import { useResetTwoFactorAction } from './reset-two-factor-action';
import { TeacherDialog } from './teacher-dialog';
import { type TeacherForm, teacherRequest } from './teacher-form';
import { teachersList } from './teachers-list';

/**
 * The Teachers screen (admins only): add, edit and delete teachers. A new teacher's sign-in is shown
 * once, right after the add.
 */
export default function TeachersPage() {
  const { t } = useTranslation('teachers');
  const list = useMemo(() => teachersList(t), [t]);
  const query = useTeachers();
  const createTeacher = useCreateTeacher();
  const updateTeacher = useUpdateTeacher();
  const deleteTeacher = useDeleteTeacher();
  const deleteTeachers = useDeleteTeachers();
  const resetTwoFactor = useResetTwoFactorAction();
  const passwordReset = usePasswordReset<Teacher>();
  const rowActions = useMemo(() => [passwordReset.action, ...resetTwoFactor], [passwordReset.action, resetTwoFactor]);
  const editor = useEditor<Teacher>();
  const [created, setCreated] = useState<CreatedTeacher | null>(null);

  const save = (form: TeacherForm) => {
    editor.setError(null);
    const request = teacherRequest(form);
    const failed = (error: unknown) => editor.setError(errorText(error, t('page.saveFailed')));
    if (editor.editing) {
      updateTeacher.mutate(
        { id: editor.editing.id, request: { ...editor.editing, ...request } },
        { onSuccess: editor.close, onError: failed },
      );
    } else {
      createTeacher.mutate(request, {
        onSuccess: (answer) => {
          editor.close();
          setCreated(answer);
        },
        onError: failed,
      });
    }
  };

  return (
    <>
      <EntityList
        list={list}
        query={query}
        onAdd={editor.openAdd}
        onEdit={editor.openEdit}
        rowActions={rowActions}
        deleting={{ one: deleteTeacher, many: deleteTeachers }}
      />
      {editor.isOpen && (
        <TeacherDialog
          teacher={editor.editing}
          saving={createTeacher.isPending || updateTeacher.isPending}
          error={editor.error}
          onCancel={editor.close}
          onSave={save}
        />
      )}
      {passwordReset.dialogs}
      {created && <InitialPasswordDialog teacher={created} onClose={() => setCreated(null)} />}
    </>
  );
}
