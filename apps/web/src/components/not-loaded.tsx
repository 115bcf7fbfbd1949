import { Box, Button, Typography } from '@mui/material';
import { useTranslation } from '../i18n';

/**
 * What a screen shows for data it never loaded (the server could not be reached, or failed): that it
 * could not be loaded, with Retry, never an empty state that would read as "there is none". Data
 * shown before stays on screen when a refetch fails; this is only for data never had.
 */
export function NotLoaded({
  text,
  onRetry,
  centred = false,
}: {
  text: string;
  onRetry: () => void;
  centred?: boolean;
}) {
  const { t } = useTranslation('common');
  return (
    <Box
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        gap: 1,
        alignItems: 'center',
        justifyContent: centred ? 'center' : 'flex-start',
      }}
    >
      <Typography color="text.secondary">{text}</Typography>
      <Button size="small" onClick={onRetry}>
        {t('retry')}
      </Button>
    </Box>
  );
}
