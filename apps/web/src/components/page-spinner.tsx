import { Box, CircularProgress } from '@mui/material';
import { useTranslation } from '../i18n';

/** Centred spinner: the whole screen while the session loads, the page area while a page loads. */
export function PageSpinner({ fullScreen = false }: { fullScreen?: boolean }) {
  const { t } = useTranslation('app');
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', minHeight: fullScreen ? '100vh' : 240 }}>
      <CircularProgress aria-label={t('loading')} />
    </Box>
  );
}
