import { Box, CircularProgress } from '@mui/material';
import { useTranslation } from '../i18n';

/** A spinner in the middle of a dialog while what it shows loads; `label` names what is loading. */
export function DialogSpinner({ label }: { label?: string }) {
  const { t } = useTranslation('app');
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', py: 4 }}>
      <CircularProgress aria-label={label ?? t('loading')} />
    </Box>
  );
}
