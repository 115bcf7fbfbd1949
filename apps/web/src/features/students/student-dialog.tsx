import { MenuItem, Stack, TextField } from '@mui/material';
import { CLASS_NAMES, type Student } from '@tuitiondesk/contract';
import { useState } from 'react';
import { EntityFormDialog } from '../../components/entity-list';
import { emptyStudentForm, formFromStudent, isStudentFormComplete, type StudentForm } from './student-form';

export const CLASS_HINT = '7, 8, 9 or 10';

/** Add Student (no `student`) or Edit Student, where the Student ID shows but cannot change. */
export function StudentDialog({
  student,
  saving,
  error = null,
  onCancel,
  onSave,
}: {
  student?: Student;
  saving: boolean;
  /** A failed save's text, shown above the fields. */
  error?: string | null;
  onCancel: () => void;
  onSave: (form: StudentForm) => void;
}) {
  const isEdit = student !== undefined;
  const [form, setForm] = useState<StudentForm>(() => (student ? formFromStudent(student) : emptyStudentForm));

  const field = (name: keyof StudentForm) => ({
    name,
    value: form[name],
    onChange: (event: { target: { value: string } }) =>
      setForm((current) => ({ ...current, [name]: event.target.value })),
  });

  return (
    <EntityFormDialog
      title={isEdit ? 'Edit Student' : 'Add Student'}
      saving={saving}
      error={error}
      canSave={isEdit || isStudentFormComplete(form)}
      submitLabel={isEdit ? 'Save' : 'Add'}
      onCancel={onCancel}
      onSave={() => onSave(form)}
      maxWidth="sm"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        {isEdit && <TextField label="Student ID" value={student.unique_id} disabled />}
        <TextField label="Full Name" required={!isEdit} autoFocus autoComplete="off" {...field('full_name')} />
        <TextField select label="Class" required={!isEdit} helperText={CLASS_HINT} {...field('class_name')}>
          {CLASS_NAMES.map((name) => (
            <MenuItem key={name} value={name}>
              {name}
            </MenuItem>
          ))}
        </TextField>
        <TextField label="Parent Name" required={!isEdit} autoComplete="off" {...field('parent_name')} />
        <TextField
          label="Parent Phone"
          type="tel"
          required={!isEdit}
          autoComplete="off"
          helperText="Include the country code, e.g. +919876543210"
          {...field('parent_phone')}
        />
      </Stack>
    </EntityFormDialog>
  );
}
