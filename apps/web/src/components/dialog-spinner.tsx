import { Box, CircularProgress } from '@mui/material';

/** A spinner in the middle of a dialog while what it shows loads; `label` names what is loading. */
export function DialogSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', py: 4 }}>
      <CircularProgress aria-label={label} />
    </Box>
  );
}
