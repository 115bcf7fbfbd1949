import PeopleIcon from '@mui/icons-material/People';
import { Box, Chip, Typography } from '@mui/material';
import type { Teacher } from '@tuitiondesk/contract';
import { LtrText } from '../../components/data-text';
import { type EntityColumn, type EntityListSpec, NameCell } from '../../components/entity-list';
import type { TFunction } from '../../i18n';
import { EmailAddress } from './email-address';

/** `B.Ed. · 3 years`: what the teacher brings, under their name. */
function experienceText(t: TFunction<'teachers'>, teacher: Teacher): string {
  const years = teacher.experience_years;
  const experience = years > 0 ? t('list.years', { count: years }) : '';
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
const columns = (t: TFunction<'teachers'>): EntityColumn<Teacher>[] => [
  {
    id: 'teacher',
    header: t('list.teacher'),
    minWidth: 200,
    cell: (teacher) => (
      <NameCell name={teacher.full_name} detail={experienceText(t, teacher)} colour="secondary.main" />
    ),
  },
  {
    id: 'teacher-id',
    header: t('list.teacherId'),
    nowrap: true,
    cell: (teacher) => <LtrText>{teacher.unique_id}</LtrText>,
  },
  {
    id: 'contact',
    header: t('list.contact'),
    minWidth: 180,
    cell: (teacher) => (
      <>
        <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
          <LtrText>{teacher.phone_number}</LtrText>
        </Typography>
        {teacher.email && <EmailAddress email={teacher.email} />}
      </>
    ),
  },
  {
    id: 'subjects',
    header: t('list.subjects'),
    minWidth: 200,
    cell: (teacher) => (
      <Chips
        // Stored in English (the contract's list), named in the language in use.
        labels={teacher.subjects.map((subject) => t(`subject.${subject}`, { defaultValue: subject }))}
        variant="outlined"
      />
    ),
  },
  {
    id: 'classes-assigned',
    header: t('list.classesAssigned'),
    minWidth: 140,
    cell: (teacher) => <Chips labels={teacher.classes_assigned.map((name) => t('list.className', { name }))} />,
  },
];

/** The teachers list in the language in use: its columns and what it says when empty (it has no search). */
export function teachersList(t: TFunction<'teachers'>): EntityListSpec<Teacher> {
  return {
    namespace: 'teachers',
    columns: columns(t),
    nameOf: (teacher) => teacher.full_name,
    tableMinWidth: 960,
    empty: { icon: <PeopleIcon />, title: t('list.emptyTitle'), text: t('list.emptyText') },
  };
}
