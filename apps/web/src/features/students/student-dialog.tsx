import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import { CLASS_NAMES, type Student } from '@tuitiondesk/contract';
import { type FormEvent, useState } from 'react';
import { emptyStudentForm, formFromStudent, isStudentFormComplete, type StudentForm } from './student-form';

export const CLASS_HINT = '7, 8, 9 or 10';

// The form sits between the dialog and its parts: it must pass on the column layout, so that the
// fields scroll while the title and the buttons stay in view.
const FORM_LAYOUT = { display: 'flex', flexDirection: 'column', minHeight: 0, flex: '1 1 auto' } as const;

/** Add Student (no `student`) or Edit Student. */
export function StudentDialog({
  open,
  student,
  saving,
  error = null,
  onCancel,
  onSave,
}: {
  open: boolean;
  student?: Student;
  saving: boolean;
  /** A failed save's text, shown beside the form (a toast would be hidden behind the modal for screen readers). */
  error?: string | null;
  onCancel: () => void;
  onSave: (form: StudentForm) => void;
}) {
  const isEdit = student !== undefined;
  const [form, setForm] = useState<StudentForm>(() => (student ? formFromStudent(student) : emptyStudentForm));
  const canSave = !saving && (isEdit || isStudentFormComplete(form));

  const field = (name: keyof StudentForm) => ({
    name,
    value: form[name],
    onChange: (event: { target: { value: string } }) =>
      setForm((current) => ({ ...current, [name]: event.target.value })),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (canSave) onSave(form);
  };

  return (
    <Dialog
      open={open}
      onClose={() => {
        if (!saving) onCancel();
      }}
      fullWidth
      maxWidth="sm"
      aria-labelledby="student-dialog-title"
    >
      <Box component="form" noValidate onSubmit={submit} sx={FORM_LAYOUT}>
        <DialogTitle id="student-dialog-title">{isEdit ? 'Edit Student' : 'Add Student'}</DialogTitle>
        <DialogContent>
          {error && (
            <Alert severity="error" sx={{ mb: 1 }}>
              {error}
            </Alert>
          )}
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
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onCancel} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={!canSave}>
            {saving ? 'Saving...' : isEdit ? 'Save' : 'Add'}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
