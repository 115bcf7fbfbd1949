import PersonSearchIcon from '@mui/icons-material/PersonSearch';
import SchoolIcon from '@mui/icons-material/School';
import { Typography } from '@mui/material';
import type { Student } from '@tuitiondesk/contract';
import { LtrText } from '../../components/data-text';
import { type EntityColumn, type EntityListSpec, NameCell } from '../../components/entity-list';
import { type TFunction, useTranslation } from '../../i18n';
import { useClassChoices } from '../../lib/centre-classes';
import { formatDay } from '../../lib/dates';
import { filterStudents } from './student-search';

/** "Class 7" in the language in use; a class the centre labelled itself ("Morning batch") as written (ADR 043). */
function ClassCell({ value }: { value: string }) {
  const { t } = useTranslation('students');
  const label = useClassChoices().all.find((choice) => choice.value === value)?.label;
  return <>{label === undefined || label === `Class ${value}` ? t('list.className', { name: value }) : label}</>;
}

/** The students table: Student, Student ID, Class, Parent Contact (the Actions column follows). */
function columns(t: TFunction<'students'>): EntityColumn<Student>[] {
  return [
    {
      id: 'student',
      header: t('list.student'),
      cell: (student) => <NameCell name={student.full_name} colour="primary.main" />,
    },
    {
      id: 'student-id',
      header: t('list.studentId'),
      nowrap: true,
      cell: (student) => <LtrText>{student.unique_id}</LtrText>,
    },
    {
      id: 'class',
      header: t('list.class'),
      nowrap: true,
      cell: (student) => <ClassCell value={student.class_name} />,
    },
    {
      id: 'parent-contact',
      header: t('list.parentContact'),
      cell: (student) => (
        <>
          <Typography variant="body2">{student.parent_name || '-'}</Typography>
          <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
            <LtrText>{student.parent_phone}</LtrText>
          </Typography>
        </>
      ),
    },
  ];
}

/** The students list in the language in use: its columns, its search, and what it says when empty. */
export function studentsList(t: TFunction<'students'>): EntityListSpec<Student> {
  return {
    namespace: 'students',
    columns: columns(t),
    nameOf: (student) => student.full_name,
    tableMinWidth: 720,
    search: { placeholder: t('list.searchPlaceholder'), filter: filterStudents },
    empty: { icon: <SchoolIcon />, title: t('list.emptyTitle'), text: t('list.emptyText') },
    noMatch: { icon: <PersonSearchIcon />, title: t('list.noMatchTitle'), text: t('list.noMatchText') },
  };
}

/** Students who left: the same columns with the day each left, after the class. */
export function leftStudentsList(t: TFunction<'students'>): EntityListSpec<Student> {
  const current = studentsList(t);
  return {
    ...current,
    columns: [
      ...current.columns.slice(0, 3),
      { id: 'left-on', header: t('list.leftOn'), nowrap: true, cell: (student) => formatDay(student.left_on) },
      ...current.columns.slice(3),
    ],
    tableMinWidth: 840,
    empty: { icon: <SchoolIcon />, title: t('list.leftEmptyTitle'), text: t('list.leftEmptyText') },
  };
}
