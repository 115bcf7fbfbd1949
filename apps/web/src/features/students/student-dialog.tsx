import { FormControlLabel, FormHelperText, MenuItem, Stack, Switch, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import {
  CLASS_NAMES,
  PARENT_LANGUAGE_LABELS,
  PARENT_LANGUAGES,
  type ParentLanguage,
  type Student,
} from '@tuitiondesk/contract';
import { useEffect, useState } from 'react';
import { EntityFormDialog } from '../../components/entity-list';
import { formatDay } from '../../lib/dates';
import { splitFieldError } from '../../lib/field-errors';
import { phoneFieldHint, useDefaultCountryCode } from '../../lib/phone-settings';
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

export const WHATSAPP_CONSENT_LABEL = 'Parent agreed to WhatsApp messages';
export const FAMILY_HINT = 'Applies to every child with this parent phone.';

/** "Given by Asha Rao on 22 Nov 2026.", or withdrawn, from the family's last change of consent. */
export function consentHistory(family: FamilyChoices): string | null {
  const { parent_whatsapp_opt_in_changed_at: at, parent_whatsapp_opt_in_changed_by: by } = family;
  if (!at) return null;
  return `${family.parent_whatsapp_opt_in ? 'Given' : 'Withdrawn'} by ${by ?? 'someone'} on ${formatDay(at)}.`;
}

export const CLASS_HINT = '7, 8, 9 or 10';

const TEXT_FIELDS = ['full_name', 'class_name', 'parent_name', 'parent_phone'] as const satisfies StudentTextField[];

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
  const isEdit = student !== undefined;
  const [form, setForm] = useState<StudentForm>(() => (student ? formFromStudent(student) : emptyStudentForm));
  // The families the Students list already loaded (no request of its own): typing a phone that is already a
  // family's shows that family's consent and language, which the record will take unless changed here.
  const { data: known } = useQuery({ ...studentsQuery(), enabled: false });
  const countryCode = useDefaultCountryCode();
  const family = familyFor(form.parent_phone, student, known, countryCode);
  // A refusal shows on its field until that field is edited; each new failed save shows again.
  const [errors, setErrors] = useState(() => splitFieldError(error, TEXT_FIELDS));
  useEffect(() => setErrors(splitFieldError(error, TEXT_FIELDS)), [error]);
  const optedIn = form.parent_whatsapp_opt_in ?? family.choices.parent_whatsapp_opt_in;
  const language = form.parent_language ?? family.choices.parent_language;
  const history = consentHistory(family.choices);
  const sharedWith = family.children.length > 0 ? ` Also the parent of ${family.children.join(', ')}.` : '';

  const field = (name: StudentTextField, hint?: string) => ({
    name,
    value: form[name],
    onChange: (event: { target: { value: string } }) => {
      setForm((current) => ({ ...current, [name]: event.target.value }));
      setErrors(({ fields: { [name]: _, ...others }, form }) => ({ fields: others, form }));
    },
    error: errors.fields[name] !== undefined,
    helperText: errors.fields[name] ?? hint,
  });

  return (
    <EntityFormDialog
      title={isEdit ? 'Edit Student' : 'Add Student'}
      saving={saving}
      error={errors.form}
      canSave={isEdit || isStudentFormComplete(form)}
      submitLabel={isEdit ? 'Save' : 'Add'}
      onCancel={onCancel}
      onSave={() => onSave(form)}
      maxWidth="sm"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        {isEdit && <TextField label="Student ID" value={student.unique_id} disabled />}
        <TextField label="Full Name" required={!isEdit} autoFocus autoComplete="off" {...field('full_name')} />
        <TextField select label="Class" required={!isEdit} {...field('class_name', CLASS_HINT)}>
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
          {...field('parent_phone', phoneFieldHint(countryCode))}
        />
        <TextField
          select
          label="Parent's Language"
          name="parent_language"
          value={language}
          helperText={`Messages to the family are sent in this language where the centre has the text. ${FAMILY_HINT}`}
          onChange={(event) =>
            setForm((current) => ({ ...current, parent_language: event.target.value as ParentLanguage }))
          }
        >
          {PARENT_LANGUAGES.map((code) => (
            <MenuItem key={code} value={code}>
              {PARENT_LANGUAGE_LABELS[code]}
            </MenuItem>
          ))}
        </TextField>
        <div>
          <FormControlLabel
            control={
              <Switch
                name="parent_whatsapp_opt_in"
                checked={optedIn}
                onChange={(event) =>
                  setForm((current) => ({ ...current, parent_whatsapp_opt_in: event.target.checked }))
                }
                slotProps={{ input: { 'aria-describedby': 'whatsapp-consent-hint' } }}
              />
            }
            label={WHATSAPP_CONSENT_LABEL}
          />
          <FormHelperText id="whatsapp-consent-hint" sx={{ mx: 0 }}>
            {`Only with the parent's agreement: families without the parent app then get messages on WhatsApp. ${FAMILY_HINT}`}
            {sharedWith}
            {history ? ` ${history}` : ''}
          </FormHelperText>
        </div>
      </Stack>
    </EntityFormDialog>
  );
}
