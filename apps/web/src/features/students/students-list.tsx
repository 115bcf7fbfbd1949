import PersonSearchIcon from '@mui/icons-material/PersonSearch';
import SchoolIcon from '@mui/icons-material/School';
import { Typography } from '@mui/material';
import type { Student } from '@tuitiondesk/contract';
import { type EntityColumn, type EntityListSpec, NameCell } from '../../components/entity-list';
import { formatDay } from '../../lib/dates';
import { filterStudents } from './student-search';

/** The students table: Student, Student ID, Class, Parent Contact (the Actions column follows). */
const COLUMNS: readonly EntityColumn<Student>[] = [
  { id: 'student', header: 'Student', cell: (student) => <NameCell name={student.full_name} colour="primary.main" /> },
  { id: 'student-id', header: 'Student ID', nowrap: true, cell: (student) => student.unique_id },
  { id: 'class', header: 'Class', nowrap: true, cell: (student) => `Class ${student.class_name}` },
  {
    id: 'parent-contact',
    header: 'Parent Contact',
    cell: (student) => (
      <>
        <Typography variant="body2">{student.parent_name || '-'}</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
          {student.parent_phone}
        </Typography>
      </>
    ),
  },
];

/** The students list: its columns, its search, and what it says when empty. */
export const STUDENTS_LIST: EntityListSpec<Student> = {
  noun: { one: 'student', many: 'students' },
  columns: COLUMNS,
  nameOf: (student) => student.full_name,
  tableMinWidth: 720,
  search: { placeholder: 'Name, student ID, class, parent name or phone', filter: filterStudents },
  empty: {
    icon: <SchoolIcon />,
    title: 'No students yet',
    text: 'Click Add Student to add the first one; they will be listed here.',
  },
  noMatch: {
    icon: <PersonSearchIcon />,
    title: 'No students found',
    text: 'No student matches your search. Try a name, student ID, class, parent name or phone.',
  },
};

/** Students who left: the same columns with the day each left, after the class. */
const LEFT_COLUMNS: readonly EntityColumn<Student>[] = [
  ...COLUMNS.slice(0, 3),
  { id: 'left-on', header: 'Left on', nowrap: true, cell: (student) => formatDay(student.left_on) },
  ...COLUMNS.slice(3),
];

export const LEFT_STUDENTS_LIST: EntityListSpec<Student> = {
  ...STUDENTS_LIST,
  columns: LEFT_COLUMNS,
  tableMinWidth: 840,
  empty: {
    icon: <SchoolIcon />,
    title: 'No students have left',
    text: 'Students marked as left are listed here, with the day they left, until they are restored.',
  },
};
