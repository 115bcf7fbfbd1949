import { Grid, TextField, useMediaQuery, useTheme } from '@mui/material';
import { CLASS_NAMES, type ClassOption, type Teacher } from '@tuitiondesk/contract';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { EntityFormDialog } from '../../components/entity-list';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useSubjectChoices } from '../../lib/centre-classes';
import { useFieldErrors } from '../../lib/field-errors';
import { usePhoneFieldHint } from '../../lib/phone-settings';
import { useToast } from '../../lib/toast';
import { useClassOptions } from './api';
import { MultiSelectField } from './multi-select-field';
import { canSaveTeacher, emptyTeacherForm, formFromTeacher, type TeacherForm } from './teacher-form';

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
  const { t } = useTranslation('teachers');
  const classes = useClassOptions();
  const { showToast } = useToast();
  const failedText = t('dialog.classesFailed');
  useEffect(() => {
    if (classes.isError) showToast(errorText(classes.error, failedText), 'error');
  }, [classes.isError, classes.error, showToast, failedText]);
  // The server's classes, a numbered one named in the language in use (the server says `Class 9`); a
  // centre's own label ("Morning batch") as the centre wrote it.
  const serverLabels = useMemo(
    () => new Map((classes.data ?? []).map((option) => [option.value, option.label])),
    [classes.data],
  );
  const labelOf = useCallback(
    (value: string) => {
      const label = serverLabels.get(value);
      return label === undefined || label === `Class ${value}` ? t('dialog.className', { name: value }) : label;
    },
    [t, serverLabels],
  );
  const options = useMemo<ClassOption[]>(
    () =>
      (classes.data?.map((option) => option.value) ?? (classes.isError ? CLASS_NAMES : [])).map((value) => ({
        value,
        label: labelOf(value),
      })),
    [classes.data, classes.isError, labelOf],
  );
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
  const { t } = useTranslation('teachers');
  const isEdit = teacher !== undefined;
  // A long form: on a phone it takes the whole screen rather than a scrolling box inside margins.
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'));
  const [form, setForm] = useState<TeacherForm>(() => (teacher ? formFromTeacher(teacher) : emptyTeacherForm));
  const classes = useClassChoices();
  const phoneHint = usePhoneFieldHint();
  // The centre's subjects (ADR 043): the spec's are named in the language in use, the centre's own as
  // written; one archived since stays on the teacher who has it.
  const subjects = useSubjectChoices();
  const subjectOf = useCallback(
    (subject: string) =>
      t(`subject.${subject}`, { defaultValue: subjects.all.find((s) => s.value === subject)?.label ?? subject }),
    [t, subjects.all],
  );
  const subjectOptions = useMemo(
    () =>
      [
        ...subjects.active.map((s) => s.value),
        ...(teacher?.subjects ?? []).filter((value) => !subjects.active.some((s) => s.value === value)),
      ].map((subject) => ({ value: subject, label: subjectOf(subject) })),
    [subjectOf, subjects.active, teacher?.subjects],
  );
  // A refusal shows on its field until that field is edited; each new failed save shows again.
  const { errors, textField } = useFieldErrors(error, TEXT_FIELDS);

  const set = <K extends keyof TeacherForm>(name: K, value: TeacherForm[K]) =>
    setForm((current) => ({ ...current, [name]: value }));
  const text = (name: TextFieldName, hint?: string) => textField(name, form[name], (value) => set(name, value), hint);

  return (
    <EntityFormDialog
      title={isEdit ? t('dialog.editTitle') : t('dialog.addTitle')}
      saving={saving}
      error={errors.form}
      canSave={canSaveTeacher(form)}
      submitLabel={t('dialog.save')}
      onCancel={onCancel}
      onSave={() => onSave(form)}
      maxWidth="md"
      fullScreen={isPhone}
    >
      <Grid container spacing={2} sx={{ pt: 1 }}>
        {isEdit && (
          <Half>
            <TextField label={t('dialog.teacherId')} value={teacher.unique_id} disabled fullWidth />
          </Half>
        )}
        {isEdit && (
          <Half>
            <TextField
              label={t('dialog.username')}
              value={teacher.username ?? teacher.unique_id.toLowerCase()}
              disabled
              fullWidth
            />
          </Half>
        )}
        <Half>
          <TextField
            label={t('dialog.firstName')}
            required
            autoFocus
            autoComplete="off"
            fullWidth
            {...text('first_name')}
          />
        </Half>
        <Half>
          <TextField label={t('dialog.lastName')} required autoComplete="off" fullWidth {...text('last_name')} />
        </Half>
        <Half>
          <TextField
            label={t('dialog.email')}
            type="email"
            autoComplete="off"
            fullWidth
            {...text('email', t('dialog.emailHint'))}
          />
        </Half>
        <Half>
          <TextField
            label={t('dialog.phone')}
            type="tel"
            required
            autoComplete="off"
            fullWidth
            {...text('phone_number', phoneHint)}
          />
        </Half>
        <Half>
          <MultiSelectField
            label={t('dialog.subjects')}
            options={subjectOptions}
            value={form.subjects}
            onChange={(chosen) => set('subjects', chosen)}
            chipLabel={subjectOf}
            helperText={t('dialog.chooseOne')}
          />
        </Half>
        <Half>
          <MultiSelectField
            label={t('dialog.classesAssigned')}
            options={classes.options}
            value={form.classes_assigned}
            onChange={(assigned) => set('classes_assigned', assigned)}
            chipLabel={classes.labelOf}
            helperText={classes.isLoading ? t('dialog.classesLoading') : t('dialog.chooseOne')}
            disabled={classes.isLoading}
          />
        </Half>
        <Half>
          <TextField label={t('dialog.qualification')} autoComplete="off" fullWidth {...text('qualification')} />
        </Half>
        <Half>
          <TextField
            label={t('dialog.experience')}
            type="number"
            fullWidth
            slotProps={{ htmlInput: { min: 0, max: 80, step: 1, inputMode: 'numeric' } }}
            {...text('experience_years')}
          />
        </Half>
        <Grid size={12}>
          <TextField label={t('dialog.address')} multiline minRows={2} fullWidth {...text('address')} />
        </Grid>
        <Half>
          <TextField label={t('dialog.emergencyContact')} autoComplete="off" fullWidth {...text('emergency_contact')} />
        </Half>
      </Grid>
    </EntityFormDialog>
  );
}
