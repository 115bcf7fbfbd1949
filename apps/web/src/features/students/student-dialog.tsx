import { FormControlLabel, FormHelperText, MenuItem, Stack, Switch, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { PARENT_LANGUAGES, type ParentLanguage, type Student } from '@tuitiondesk/contract';
import { useState } from 'react';
import { EntityFormDialog } from '../../components/entity-list';
import { englishText, type TFunction, useTranslation } from '../../i18n';
import { useLanguageLabel } from '../../i18n/language-label';
import { useClassChoices } from '../../lib/centre-classes';
import { formatDay } from '../../lib/dates';
import { useFieldErrors } from '../../lib/field-errors';
import { useDefaultCountryCode, usePhoneFieldHint } from '../../lib/phone-settings';
import { studentsQuery } from './api';
import {
  emptyStudentForm,
  type FamilyChoices,
  familyFor,
  formFromStudent,
  isStudentFormComplete,
  type StudentForm,
  type StudentTextField,
} from './student-form';

/** The consent switch's name in English (the words tests look for). */
export const WHATSAPP_CONSENT_LABEL = englishText('students:dialog.consent');

/** "Given by Asha Rao on 22 Nov 2026.", or withdrawn, from the family's last change of consent. */
export function consentHistory(t: TFunction<'students'>, family: FamilyChoices): string | null {
  const { parent_whatsapp_opt_in_changed_at: at, parent_whatsapp_opt_in_changed_by: by } = family;
  if (!at) return null;
  return t(family.parent_whatsapp_opt_in ? 'dialog.consentGiven' : 'dialog.consentWithdrawn', {
    by: by ?? t('dialog.someone'),
    date: formatDay(at),
  });
}

const TEXT_FIELDS = ['full_name', 'class_name', 'parent_name', 'parent_phone'] as const satisfies StudentTextField[];
/** The fields a refusal can name: the text fields, and the consent switch (a parent's STOP stands, 409). */
const DIALOG_FIELDS = [...TEXT_FIELDS, 'parent_whatsapp_opt_in'] as const;
type DialogField = (typeof DIALOG_FIELDS)[number];

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
  /** A failed save's text: on the field it names (`parent_phone: …`), else above the fields. */
  error?: string | null;
  onCancel: () => void;
  onSave: (form: StudentForm) => void;
}) {
  const { t } = useTranslation('students');
  const languageLabel = useLanguageLabel();
  const isEdit = student !== undefined;
  const [form, setForm] = useState<StudentForm>(() => (student ? formFromStudent(student) : emptyStudentForm));
  // The families the Students list already loaded (no request of its own): typing a phone that is already a
  // family's shows that family's consent and language, which the record will take unless changed here.
  const { data: known } = useQuery({ ...studentsQuery(), enabled: false });
  const countryCode = useDefaultCountryCode();
  // The centre's classes (ADR 043); a student keeps an archived class, which is offered to them alone.
  const classes = useClassChoices();
  const phoneHint = usePhoneFieldHint();
  const family = familyFor(form.parent_phone, student, known, countryCode);
  // A refusal shows on its field until that field is edited; each new failed save shows again.
  const { errors, edited, textField } = useFieldErrors<DialogField>(error, DIALOG_FIELDS);
  const consentError = errors.fields.parent_whatsapp_opt_in;
  const optedIn = form.parent_whatsapp_opt_in ?? family.choices.parent_whatsapp_opt_in;
  const language = form.parent_language ?? family.choices.parent_language;
  const history = consentHistory(t, family.choices);
  const sharedWith =
    family.children.length > 0 ? t('dialog.sharedWith', { children: family.children.join(', ') }) : null;

  const field = (name: StudentTextField, hint?: string) =>
    textField(name, form[name], (value) => setForm((current) => ({ ...current, [name]: value })), hint);

  return (
    <EntityFormDialog
      title={isEdit ? t('dialog.editTitle') : t('dialog.addTitle')}
      saving={saving}
      error={errors.form}
      canSave={isEdit || isStudentFormComplete(form)}
      submitLabel={isEdit ? t('dialog.save') : t('dialog.add')}
      onCancel={onCancel}
      onSave={() => onSave(form)}
      maxWidth="sm"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        {isEdit && <TextField label={t('dialog.studentId')} value={student.unique_id} disabled />}
        <TextField
          label={t('dialog.fullName')}
          required={!isEdit}
          autoFocus
          autoComplete="off"
          {...field('full_name')}
        />
        <TextField
          select
          label={t('dialog.class')}
          required={!isEdit}
          {...field('class_name', classes.isDefault ? t('dialog.classHint') : undefined)}
        >
          {classes.offered(student?.class_name).map((choice) => (
            <MenuItem key={choice.value} value={choice.value}>
              {choice.short}
            </MenuItem>
          ))}
        </TextField>
        <TextField label={t('dialog.parentName')} required={!isEdit} autoComplete="off" {...field('parent_name')} />
        <TextField
          label={t('dialog.parentPhone')}
          type="tel"
          required={!isEdit}
          autoComplete="off"
          {...field('parent_phone', phoneHint)}
        />
        <TextField
          select
          label={t('dialog.parentLanguage')}
          name="parent_language"
          value={language}
          helperText={t('dialog.languageHint')}
          onChange={(event) =>
            setForm((current) => ({ ...current, parent_language: event.target.value as ParentLanguage }))
          }
        >
          {PARENT_LANGUAGES.map((code) => (
            <MenuItem key={code} value={code}>
              {languageLabel(code)}
            </MenuItem>
          ))}
        </TextField>
        <div>
          <FormControlLabel
            control={
              <Switch
                name="parent_whatsapp_opt_in"
                checked={optedIn}
                onChange={(event) => {
                  setForm((current) => ({ ...current, parent_whatsapp_opt_in: event.target.checked }));
                  edited('parent_whatsapp_opt_in');
                }}
                slotProps={{
                  input: {
                    'aria-describedby': consentError
                      ? 'whatsapp-consent-error whatsapp-consent-hint'
                      : 'whatsapp-consent-hint',
                    'aria-invalid': consentError !== undefined,
                  },
                }}
              />
            }
            label={t('dialog.consent')}
          />
          {/* The server's refusal (the parent said STOP: only the parent turns it on again), on the switch. */}
          {consentError && (
            <FormHelperText id="whatsapp-consent-error" error sx={{ mx: 0 }}>
              {consentError}
            </FormHelperText>
          )}
          <FormHelperText id="whatsapp-consent-hint" sx={{ mx: 0 }}>
            {[t('dialog.consentHint'), sharedWith, history].filter(Boolean).join(' ')}
          </FormHelperText>
        </div>
      </Stack>
    </EntityFormDialog>
  );
}
