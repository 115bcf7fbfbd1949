import KeyIcon from '@mui/icons-material/Key';
import ManageSearchIcon from '@mui/icons-material/ManageSearch';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import { Stack } from '@mui/material';
import type { Student } from '@tuitiondesk/contract';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import type { RowAction } from '../../components/entity-list';
import { WhatsappMessageDialog } from '../../features/messages/whatsapp-message-dialog';
import { BulkAccessButton } from '../../features/parents/bulk-access-dialog';
import { ParentAccessDialog } from '../../features/parents/parent-access-dialog';
import { PhoneCountryCodeSetting } from '../../features/settings/phone-country-code-setting';
import StudentsPage from '../../features/students/students-page';
import { useTranslation } from '../../i18n';
import { useAuth } from '../../lib/auth/auth-provider';

const attends = (student: Student) => student.left_on === null;

/**
 * Students, where staff (teachers and admins) also hand a family its parent access: each row's Parent
 * Access action opens that student's Parent Access dialog. Admins can also message a parent on WhatsApp,
 * and set the country code given to phone numbers written without one (students', teachers', imports'
 * and the parents' sign-in), where they type parents' phones.
 */
export default function StudentsRoute() {
  const { t } = useTranslation('students');
  const { user } = useAuth();
  const isAdmin = user?.role === 'admin';
  const navigate = useNavigate();
  const [parentAccessFor, setParentAccessFor] = useState<Student | null>(null);
  const [whatsappFor, setWhatsappFor] = useState<Student | null>(null);
  const rowActions = useMemo<readonly RowAction<Student>[]>(
    () => [
      {
        id: 'parent-access',
        tooltip: t('actions.parentAccess'),
        label: (student) => t('actions.parentAccessFor', { name: student.full_name }),
        icon: <KeyIcon fontSize="small" />,
        onClick: setParentAccessFor,
        // A family is given the app, or written to, through a child who attends.
        appliesTo: attends,
      },
      ...(isAdmin
        ? [
            {
              id: 'history',
              tooltip: t('actions.history'),
              label: (student: Student) => t('actions.historyOf', { name: student.full_name }),
              icon: <ManageSearchIcon fontSize="small" />,
              // Every change to the record, in the audit log (ADR 025).
              onClick: (student: Student) => navigate(`/audit?entity=students&record_id=${student.id}`),
            },
            {
              id: 'whatsapp',
              tooltip: t('actions.whatsapp'),
              label: (student: Student) => t('actions.whatsappFor', { name: student.full_name }),
              icon: <WhatsAppIcon fontSize="small" />,
              onClick: setWhatsappFor,
              appliesTo: attends,
            },
          ]
        : []),
    ],
    [t, isAdmin, navigate],
  );
  return (
    <>
      <StudentsPage
        rowActions={rowActions}
        settings={
          isAdmin && (
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
              <PhoneCountryCodeSetting />
              <BulkAccessButton />
            </Stack>
          )
        }
      />
      {whatsappFor && (
        <WhatsappMessageDialog key={whatsappFor.id} student={whatsappFor} onClose={() => setWhatsappFor(null)} />
      )}
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
