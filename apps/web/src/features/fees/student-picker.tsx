import { Autocomplete, TextField } from '@mui/material';
import type { Student } from '@tuitiondesk/contract';
import { useMemo } from 'react';
import { useTranslation } from '../../i18n';
import { usePlanStudents } from './plans-api';

/** The most students the picker lists at once: typing narrows the rest. */
const SHOWN_STUDENTS = 50;

function matches(student: Student, needle: string): boolean {
  return [student.full_name, student.unique_id, student.class_name, student.parent_phone].some((value) =>
    value.toLowerCase().includes(needle),
  );
}

/**
 * Students picked by name from the whole list (a plan's students, the staff's children), searched on
 * the device by name, id, class or phone; students who have left are offered only when `offersLeft`.
 */
export function StudentPicker({
  value,
  onChange,
  label,
  hint,
  optionText,
  problem,
  offersLeft = false,
}: {
  value: number[];
  onChange: (ids: number[]) => void;
  label: string;
  hint: string;
  /** A student as an option and a chip says it ("Asha Verma (S-0012, Class 7)"). */
  optionText: (student: Student) => string;
  /** The field's refusal, if any (the form's own or the server's). */
  problem?: string | undefined;
  offersLeft?: boolean;
}) {
  const { t } = useTranslation('feePlans');
  const students = usePlanStudents();
  const studentsById = useMemo(
    () => new Map((students.data ?? []).map((student) => [student.id, student])),
    [students.data],
  );
  const options = useMemo(
    () => (students.data ?? []).filter((student) => offersLeft || !student.left_on).map((student) => student.id),
    [students.data, offersLeft],
  );
  const optionLabel = (id: number) => {
    const student = studentsById.get(id);
    return student ? optionText(student) : t('dialog.unknownStudent', { id });
  };
  return (
    <Autocomplete
      multiple
      options={options}
      value={value}
      loading={students.isPending}
      onChange={(_, ids) => onChange(ids)}
      getOptionLabel={optionLabel}
      filterOptions={(ids, { inputValue }) => {
        const needle = inputValue.trim().toLowerCase();
        const found = needle
          ? ids.filter((id) => {
              const student = studentsById.get(id);
              return student !== undefined && matches(student, needle);
            })
          : ids;
        return found.slice(0, SHOWN_STUDENTS);
      }}
      openText={t('picker.open')}
      closeText={t('picker.close')}
      clearText={t('picker.clear')}
      loadingText={t('picker.loading')}
      noOptionsText={t('picker.noStudents')}
      renderInput={(params) => (
        <TextField {...params} label={label} error={problem !== undefined} helperText={problem ?? hint} />
      )}
    />
  );
}
