import { Typography } from '@mui/material';

/** The marker's remarks, and under them the parent's one-tap reply to the alert (Sick, Coming late …). */
export function RemarksAndReason({ remarks, parentReason }: { remarks: string | null; parentReason: string | null }) {
  return (
    <>
      {remarks || '-'}
      {parentReason && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          Parent: {parentReason}
        </Typography>
      )}
    </>
  );
}
