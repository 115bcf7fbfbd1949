import PersonOffIcon from '@mui/icons-material/PersonOff';
import RestoreIcon from '@mui/icons-material/Restore';
import { ToggleButton, ToggleButtonGroup } from '@mui/material';
import type { Student } from '@tuitiondesk/contract';
import { type ReactNode, useMemo, useState } from 'react';
import type { RowAction } from '../../components/entity-list';
import { englishText, useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useMarkStudentLeft, useRestoreStudent } from './api';
import { LeaveDialog } from './leave-dialog';

/** Which students the screen lists: those attending, or those who left. */
export type StudentsView = 'current' | 'left';

/** Switches the list between the students attending and those who left. */
export function LeftStudentsToggle({ view, onChange }: { view: StudentsView; onChange: (view: StudentsView) => void }) {
  const { t } = useTranslation('students');
  return (
    <ToggleButtonGroup
      exclusive
      size="small"
      color="primary"
      value={view}
      onChange={(_event, next: StudentsView | null) => next && onChange(next)}
      aria-label={t('leaving.which')}
    >
      <ToggleButton value="current">{t('leaving.current')}</ToggleButton>
      <ToggleButton value="left">{t('leaving.left')}</ToggleButton>
    </ToggleButtonGroup>
  );
}

/** The confirmation before Restore, in English (the words tests compare). */
export const restoreQuestion = (name: string) => englishText('students:leaving.restoreQuestion', { name });

/**
 * The admin's row actions for leaving: Mark as left on a current student (a dialog with the day), and
 * Restore on one who left (after the browser's confirmation), except once their data was removed.
 * Teachers get none: the server refuses them.
 */
export function useLeavingActions(
  isAdmin: boolean,
  view: StudentsView,
): { actions: readonly RowAction<Student>[]; dialog: ReactNode } {
  const { t } = useTranslation('students');
  const { showToast } = useToast();
  const markLeft = useMarkStudentLeft();
  const restore = useRestoreStudent();
  const [leaving, setLeaving] = useState<Student | null>(null);
  const [error, setError] = useState<string | null>(null);
  const restoreStudent = restore.mutate;

  const actions = useMemo<readonly RowAction<Student>[]>(() => {
    if (!isAdmin) return [];
    if (view === 'current') {
      return [
        {
          id: 'leave',
          tooltip: t('leaving.markLeft'),
          label: (student) => t('leaving.markLeftFor', { name: student.full_name }),
          icon: <PersonOffIcon fontSize="small" />,
          onClick: (student) => {
            setError(null);
            setLeaving(student);
          },
        },
      ];
    }
    return [
      {
        id: 'restore',
        tooltip: t('leaving.restore'),
        label: (student) => t('leaving.restoreFor', { name: student.full_name }),
        icon: <RestoreIcon fontSize="small" />,
        appliesTo: (student) => student.scrubbed_at === null,
        onClick: (student) => {
          if (!window.confirm(t('leaving.restoreQuestion', { name: student.full_name }))) return;
          restoreStudent(student.id, {
            onSuccess: () => showToast(t('leaving.restored', { name: student.full_name }), 'success'),
            onError: (failure) => showToast(errorText(failure, t('leaving.restoreFailed')), 'error'),
          });
        },
      },
    ];
  }, [t, isAdmin, view, restoreStudent, showToast]);

  const dialog = leaving && (
    <LeaveDialog
      key={leaving.id}
      student={leaving}
      busy={markLeft.isPending}
      error={error}
      onCancel={() => setLeaving(null)}
      onConfirm={(leftOn) => {
        setError(null);
        markLeft.mutate(
          { id: leaving.id, left_on: leftOn },
          {
            onSuccess: () => {
              setLeaving(null);
              showToast(t('leaving.markedLeft', { name: leaving.full_name }), 'success');
            },
            onError: (failure) => setError(errorText(failure, t('leaving.markLeftFailed'))),
          },
        );
      }}
    />
  );
  return { actions, dialog };
}
