import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Grid,
  ListItemText,
  MenuItem,
  TextField,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { CLASS_NAMES, type ClassOption, SUBJECTS, type Subject, type Teacher } from '@tuitiondesk/contract';
import { type FormEvent, type ReactNode, useEffect, useMemo, useState } from 'react';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useClassOptions } from './api';
import { canSaveTeacher, emptyTeacherForm, formFromTeacher, type TeacherForm } from './teacher-form';

const FALLBACK_CLASSES: ClassOption[] = CLASS_NAMES.map((name) => ({ value: name, label: `Class ${name}` }));

function chips(values: readonly string[], labelOf: (value: string) => string): ReactNode {
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
      {values.map((value) => (
        <Chip key={value} label={labelOf(value)} size="small" />
      ))}
    </Box>
  );
}

function asList(value: unknown): string[] {
  // Browser autofill hands a multiple select a comma-separated string.
  return typeof value === 'string' ? value.split(',').filter(Boolean) : (value as string[]);
}

// The form sits between the dialog and its parts: it must pass on the column layout, so that the
// fields scroll while the title and the buttons stay in view.
const FORM_LAYOUT = { display: 'flex', flexDirection: 'column', minHeight: 0, flex: '1 1 auto' } as const;

/** Add Teacher (no `teacher`) or Edit Teacher; a failed save shows its reason inside the dialog. */
export function TeacherDialog({
  open,
  teacher,
  saving,
  error,
  onCancel,
  onSave,
}: {
  open: boolean;
  teacher?: Teacher;
  saving: boolean;
  /** The failed save's text (the server's detail, or Failed to save teacher). */
  error: string | null;
  onCancel: () => void;
  onSave: (form: TeacherForm) => void;
}) {
  const isEdit = teacher !== undefined;
  // A long form: on a phone it takes the whole screen rather than a scrolling box inside margins.
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'));
  const [form, setForm] = useState<TeacherForm>(() => (teacher ? formFromTeacher(teacher) : emptyTeacherForm));
  const classes = useClassOptions(open);
  const { showToast } = useToast();

  useEffect(() => {
    if (classes.isError) showToast(errorText(classes.error, 'Failed to load classes'), 'error');
  }, [classes.isError, classes.error, showToast]);

  // Without the server's list the four classes of the centre are still offered, so the form stays usable.
  const classOptions = classes.data ?? (classes.isError ? FALLBACK_CLASSES : []);
  const classLabel = useMemo(() => {
    const labels = new Map(classOptions.map((option) => [option.value, option.label]));
    return (value: string) => labels.get(value) ?? `Class ${value}`;
  }, [classOptions]);

  const canSave = !saving && canSaveTeacher(form);
  const set = <K extends keyof TeacherForm>(name: K, value: TeacherForm[K]) =>
    setForm((current) => ({ ...current, [name]: value }));
  const text = (name: Exclude<keyof TeacherForm, 'subjects' | 'classes_assigned'>) => ({
    name,
    value: form[name],
    onChange: (event: { target: { value: string } }) => set(name, event.target.value),
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
      fullScreen={isPhone}
      maxWidth="md"
      aria-labelledby="teacher-dialog-title"
    >
      <Box component="form" noValidate onSubmit={submit} sx={FORM_LAYOUT}>
        <DialogTitle id="teacher-dialog-title">{isEdit ? 'Edit Teacher' : 'Add Teacher'}</DialogTitle>
        <DialogContent>
          {error && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {error}
            </Alert>
          )}
          <Grid container spacing={2} sx={{ pt: 1 }}>
            {isEdit && (
              <Grid size={{ xs: 12, sm: 6 }}>
                <TextField label="Teacher ID" value={teacher.unique_id} disabled fullWidth />
              </Grid>
            )}
            {isEdit && (
              <Grid size={{ xs: 12, sm: 6 }}>
                <TextField
                  label="Username"
                  value={teacher.username ?? teacher.unique_id.toLowerCase()}
                  disabled
                  fullWidth
                />
              </Grid>
            )}
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField label="First Name" required autoFocus autoComplete="off" fullWidth {...text('first_name')} />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField label="Last Name" required autoComplete="off" fullWidth {...text('last_name')} />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField
                label="Email"
                type="email"
                autoComplete="off"
                fullWidth
                helperText="Optional. Must be unique; the teacher may sign in with it."
                {...text('email')}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField
                label="Phone Number"
                type="tel"
                required
                autoComplete="off"
                fullWidth
                helperText="Include the country code, e.g. +919876543210"
                {...text('phone_number')}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField
                select
                label="Subjects"
                required
                fullWidth
                helperText="Choose at least one"
                value={form.subjects}
                onChange={(event) => set('subjects', asList(event.target.value) as Subject[])}
                slotProps={{
                  select: { multiple: true, renderValue: (value) => chips(value as string[], (subject) => subject) },
                }}
              >
                {SUBJECTS.map((subject) => (
                  <MenuItem key={subject} value={subject}>
                    <Checkbox checked={form.subjects.includes(subject)} size="small" sx={{ p: 0.5, mr: 1 }} />
                    <ListItemText primary={subject} />
                  </MenuItem>
                ))}
              </TextField>
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField
                select
                label="Classes Assigned"
                required
                fullWidth
                disabled={classes.isPending}
                helperText={classes.isPending ? 'Loading classes...' : 'Choose at least one'}
                value={form.classes_assigned}
                onChange={(event) => set('classes_assigned', asList(event.target.value))}
                slotProps={{ select: { multiple: true, renderValue: (value) => chips(value as string[], classLabel) } }}
              >
                {classOptions.map((option) => (
                  <MenuItem key={option.value} value={option.value}>
                    <Checkbox
                      checked={form.classes_assigned.includes(option.value)}
                      size="small"
                      sx={{ p: 0.5, mr: 1 }}
                    />
                    <ListItemText primary={option.label} />
                  </MenuItem>
                ))}
              </TextField>
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField label="Qualification" autoComplete="off" fullWidth {...text('qualification')} />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField
                label="Experience (years)"
                type="number"
                fullWidth
                slotProps={{ htmlInput: { min: 0, max: 80, step: 1, inputMode: 'numeric' } }}
                {...text('experience_years')}
              />
            </Grid>
            <Grid size={12}>
              <TextField label="Address" multiline minRows={2} fullWidth {...text('address')} />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField label="Emergency Contact" autoComplete="off" fullWidth {...text('emergency_contact')} />
            </Grid>
          </Grid>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onCancel} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={!canSave}>
            {saving ? 'Saving...' : 'Save'}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
