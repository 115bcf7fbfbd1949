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
 * The students a plan charges by name (beside its classes): searched by name, id, class or phone on
 * the device; students who have left are not offered.
 */
export function PlanStudentPicker({
  value,
  onChange,
  problem,
  className,
}: {
  value: number[];
  onChange: (ids: number[]) => void;
  /** The field's refusal, if any (the form's own or the server's). */
  problem: string | undefined;
  /** A class in words, as the dialog names classes. */
  className: (value: string) => string;
}) {
  const { t } = useTranslation('feePlans');
  const students = usePlanStudents();
  const studentsById = useMemo(
    () => new Map((students.data ?? []).map((student) => [student.id, student])),
    [students.data],
  );
  const options = useMemo(
    () => (students.data ?? []).filter((student) => !student.left_on).map((student) => student.id),
    [students.data],
  );
  const label = (id: number) => {
    const student = studentsById.get(id);
    return student
      ? t('dialog.studentOption', {
          name: student.full_name,
          id: student.unique_id,
          class: className(student.class_name),
        })
      : t('dialog.unknownStudent', { id });
  };
  return (
    <Autocomplete
      multiple
      options={options}
      value={value}
      loading={students.isPending}
      onChange={(_, ids) => onChange(ids)}
      getOptionLabel={label}
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
        <TextField
          {...params}
          label={t('dialog.students')}
          error={problem !== undefined}
          helperText={problem ?? t('dialog.studentsHint')}
        />
      )}
    />
  );
}
