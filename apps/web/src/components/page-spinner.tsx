import { Box, CircularProgress } from '@mui/material';
import { addEnglish, useTranslation } from '../i18n';
import enApp from '../i18n/locales/en/app.json';

// Shown while a screen's code loads, so its one text is in the console's first code.
addEnglish('app', enApp);

/** Centred spinner: the whole screen while the session loads, the page area while a page loads. */
export function PageSpinner({ fullScreen = false }: { fullScreen?: boolean }) {
  const { t } = useTranslation('app');
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', minHeight: fullScreen ? '100vh' : 240 }}>
      <CircularProgress aria-label={t('loading')} />
    </Box>
  );
}
