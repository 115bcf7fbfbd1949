import { Box, CircularProgress } from '@mui/material';

/** Centred spinner: the whole screen while the session loads, the page area while a page loads. */
export function PageSpinner({ fullScreen = false }: { fullScreen?: boolean }) {
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', minHeight: fullScreen ? '100vh' : 240 }}>
      <CircularProgress aria-label="Loading" />
    </Box>
  );
}
