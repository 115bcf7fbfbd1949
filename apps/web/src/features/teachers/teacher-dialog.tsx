import { Grid, TextField, useMediaQuery, useTheme } from '@mui/material';
import { CLASS_NAMES, type ClassOption, SUBJECTS, type Subject, type Teacher } from '@tuitiondesk/contract';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { EntityFormDialog } from '../../components/entity-list';
import { errorText } from '../../lib/api-client';
import { splitFieldError } from '../../lib/field-errors';
import { phoneFieldHint, useDefaultCountryCode } from '../../lib/phone-settings';
import { useToast } from '../../lib/toast';
import { useClassOptions } from './api';
import { MultiSelectField } from './multi-select-field';
import { canSaveTeacher, emptyTeacherForm, formFromTeacher, type TeacherForm } from './teacher-form';

const FALLBACK_CLASSES: ClassOption[] = CLASS_NAMES.map((name) => ({ value: name, label: `Class ${name}` }));
const SUBJECT_OPTIONS = SUBJECTS.map((subject) => ({ value: subject, label: subject }));
const asIs = (value: string) => value;

type TextFieldName = Exclude<keyof TeacherForm, 'subjects' | 'classes_assigned'>;
const TEXT_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'phone_number',
  'qualification',
  'experience_years',
  'address',
  'emergency_contact',
] as const satisfies TextFieldName[];

/** A field taking half the row from tablet width up, the whole row on phones. */
function Half({ children }: { children: ReactNode }) {
  return <Grid size={{ xs: 12, sm: 6 }}>{children}</Grid>;
}

/**
 * The classes a teacher can be assigned, as the server lists them. Without the server's list (the
 * failure is toasted) the four classes of the centre are still offered, so the form stays usable.
 */
function useClassChoices() {
  const classes = useClassOptions();
  const { showToast } = useToast();
  useEffect(() => {
    if (classes.isError) showToast(errorText(classes.error, 'Failed to load classes'), 'error');
  }, [classes.isError, classes.error, showToast]);
  const options = classes.data ?? (classes.isError ? FALLBACK_CLASSES : []);
  const labelOf = useMemo(() => {
    const labels = new Map(options.map((option) => [option.value, option.label]));
    return (value: string) => labels.get(value) ?? `Class ${value}`;
  }, [options]);
  return { options, labelOf, isLoading: classes.isPending };
}

/** Add Teacher (no `teacher`) or Edit Teacher, where the Teacher ID and username show but cannot change. */
export function TeacherDialog({
  teacher,
  saving,
  error,
  onCancel,
  onSave,
}: {
  teacher?: Teacher;
  saving: boolean;
  /**
   * The failed save's text (the server's detail, or Failed to save teacher): on the field it names
   * (`phone_number: …`), else above the fields.
   */
  error: string | null;
  onCancel: () => void;
  onSave: (form: TeacherForm) => void;
}) {
  const isEdit = teacher !== undefined;
  // A long form: on a phone it takes the whole screen rather than a scrolling box inside margins.
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'));
  const [form, setForm] = useState<TeacherForm>(() => (teacher ? formFromTeacher(teacher) : emptyTeacherForm));
  const classes = useClassChoices();
  const countryCode = useDefaultCountryCode();
  // A refusal shows on its field until that field is edited; each new failed save shows again.
  const [errors, setErrors] = useState(() => splitFieldError(error, TEXT_FIELDS));
  useEffect(() => setErrors(splitFieldError(error, TEXT_FIELDS)), [error]);

  const set = <K extends keyof TeacherForm>(name: K, value: TeacherForm[K]) =>
    setForm((current) => ({ ...current, [name]: value }));
  const text = (name: TextFieldName, hint?: string) => ({
    name,
    value: form[name],
    onChange: (event: { target: { value: string } }) => {
      set(name, event.target.value);
      setErrors(({ fields: { [name]: _, ...others }, form }) => ({ fields: others, form }));
    },
    error: errors.fields[name] !== undefined,
    helperText: errors.fields[name] ?? hint,
  });

  return (
    <EntityFormDialog
      title={isEdit ? 'Edit Teacher' : 'Add Teacher'}
      saving={saving}
      error={errors.form}
      canSave={canSaveTeacher(form)}
      submitLabel="Save"
      onCancel={onCancel}
      onSave={() => onSave(form)}
      maxWidth="md"
      fullScreen={isPhone}
    >
      <Grid container spacing={2} sx={{ pt: 1 }}>
        {isEdit && (
          <Half>
            <TextField label="Teacher ID" value={teacher.unique_id} disabled fullWidth />
          </Half>
        )}
        {isEdit && (
          <Half>
            <TextField
              label="Username"
              value={teacher.username ?? teacher.unique_id.toLowerCase()}
              disabled
              fullWidth
            />
          </Half>
        )}
        <Half>
          <TextField label="First Name" required autoFocus autoComplete="off" fullWidth {...text('first_name')} />
        </Half>
        <Half>
          <TextField label="Last Name" required autoComplete="off" fullWidth {...text('last_name')} />
        </Half>
        <Half>
          <TextField
            label="Email"
            type="email"
            autoComplete="off"
            fullWidth
            {...text('email', 'Optional. Must be unique; the teacher may sign in with it.')}
          />
        </Half>
        <Half>
          <TextField
            label="Phone Number"
            type="tel"
            required
            autoComplete="off"
            fullWidth
            {...text('phone_number', phoneFieldHint(countryCode))}
          />
        </Half>
        <Half>
          <MultiSelectField
            label="Subjects"
            options={SUBJECT_OPTIONS}
            value={form.subjects}
            onChange={(subjects) => set('subjects', subjects as Subject[])}
            chipLabel={asIs}
            helperText="Choose at least one"
          />
        </Half>
        <Half>
          <MultiSelectField
            label="Classes Assigned"
            options={classes.options}
            value={form.classes_assigned}
            onChange={(assigned) => set('classes_assigned', assigned)}
            chipLabel={classes.labelOf}
            helperText={classes.isLoading ? 'Loading classes...' : 'Choose at least one'}
            disabled={classes.isLoading}
          />
        </Half>
        <Half>
          <TextField label="Qualification" autoComplete="off" fullWidth {...text('qualification')} />
        </Half>
        <Half>
          <TextField
            label="Experience (years)"
            type="number"
            fullWidth
            slotProps={{ htmlInput: { min: 0, max: 80, step: 1, inputMode: 'numeric' } }}
            {...text('experience_years')}
          />
        </Half>
        <Grid size={12}>
          <TextField label="Address" multiline minRows={2} fullWidth {...text('address')} />
        </Grid>
        <Half>
          <TextField label="Emergency Contact" autoComplete="off" fullWidth {...text('emergency_contact')} />
        </Half>
      </Grid>
    </EntityFormDialog>
  );
}
