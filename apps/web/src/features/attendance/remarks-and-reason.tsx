import { Typography } from '@mui/material';
import { useTranslation } from '../../i18n';

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
