import KeyIcon from '@mui/icons-material/Key';
import type { Student } from '@tuitiondesk/contract';
import { useMemo, useState } from 'react';
import type { RowAction } from '../../components/entity-list';
import { ParentAccessDialog } from '../../features/parents/parent-access-dialog';
import StudentsPage from '../../features/students/students-page';

/**
 * Students, where staff (teachers and admins) also hand a family its parent access: each row's Parent
 * Access action opens that student's Parent Access dialog.
 */
export default function StudentsRoute() {
  const [parentAccessFor, setParentAccessFor] = useState<Student | null>(null);
  const rowActions = useMemo<readonly RowAction<Student>[]>(
    () => [
      {
        id: 'parent-access',
        tooltip: 'Parent Access',
        label: (student) => `Parent access for ${student.full_name}`,
        icon: <KeyIcon fontSize="small" />,
        onClick: setParentAccessFor,
      },
    ],
    [],
  );
  return (
    <>
      <StudentsPage rowActions={rowActions} />
      {parentAccessFor && (
        <ParentAccessDialog
          key={parentAccessFor.id}
          student={parentAccessFor}
          onClose={() => setParentAccessFor(null)}
        />
      )}
    </>
  );
}
