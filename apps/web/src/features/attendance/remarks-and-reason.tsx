import { Typography } from '@mui/material';
import { addEnglish, useTranslation } from '../../i18n';
import enAttendance from '../../i18n/locales/en/attendance.json';

addEnglish('attendance', enAttendance);

/** The marker's remarks, and under them the parent's one-tap reply to the alert (Sick, Coming late …). */
export function RemarksAndReason({ remarks, parentReason }: { remarks: string | null; parentReason: string | null }) {
  const { t } = useTranslation('attendance');
  return (
    <>
      {remarks || '-'}
      {parentReason && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {t('parentReason', { reason: parentReason })}
        </Typography>
      )}
    </>
  );
}
