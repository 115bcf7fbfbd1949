import PeopleIcon from '@mui/icons-material/People';
import { Box, Chip, Typography } from '@mui/material';
import type { Teacher } from '@tuitiondesk/contract';
import { type EntityColumn, type EntityListSpec, NameCell } from '../../components/entity-list';
import { EmailAddress } from './email-address';

/** `B.Ed. · 3 years`: what the teacher brings, under their name. */
function experienceText(teacher: Teacher): string {
  const years = teacher.experience_years;
  const experience = years > 0 ? `${years} year${years === 1 ? '' : 's'}` : '';
  return [teacher.qualification, experience].filter(Boolean).join(' · ');
}

/** Chips that wrap onto more lines as needed; a dash when there are none. */
function Chips({ labels, variant }: { labels: readonly string[]; variant?: 'outlined' }) {
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
      {labels.length === 0
        ? '-'
        : labels.map((label) => <Chip key={label} label={label} size="small" variant={variant} />)}
    </Box>
  );
}

/** The teachers table: Teacher, Teacher ID, Contact, Subjects, Classes Assigned (the Actions column follows). */
const COLUMNS: readonly EntityColumn<Teacher>[] = [
  {
    id: 'teacher',
    header: 'Teacher',
    minWidth: 200,
    cell: (teacher) => <NameCell name={teacher.full_name} detail={experienceText(teacher)} colour="secondary.main" />,
  },
  { id: 'teacher-id', header: 'Teacher ID', nowrap: true, cell: (teacher) => teacher.unique_id },
  {
    id: 'contact',
    header: 'Contact',
    minWidth: 180,
    cell: (teacher) => (
      <>
        <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
          {teacher.phone_number}
        </Typography>
        {teacher.email && <EmailAddress email={teacher.email} />}
      </>
    ),
  },
  {
    id: 'subjects',
    header: 'Subjects',
    minWidth: 200,
    cell: (teacher) => <Chips labels={teacher.subjects} variant="outlined" />,
  },
  {
    id: 'classes-assigned',
    header: 'Classes Assigned',
    minWidth: 140,
    cell: (teacher) => <Chips labels={teacher.classes_assigned.map((name) => `Class ${name}`)} />,
  },
];

/** The teachers list: its columns and what it says when empty (it has no search). */
export const TEACHERS_LIST: EntityListSpec<Teacher> = {
  noun: { one: 'teacher', many: 'teachers' },
  columns: COLUMNS,
  nameOf: (teacher) => teacher.full_name,
  tableMinWidth: 960,
  empty: {
    icon: <PeopleIcon />,
    title: 'No teachers yet',
    text: 'Click Add Teacher to add the first one, or import them on the Import Data screen.',
  },
};
