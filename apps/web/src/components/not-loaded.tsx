import { Box, Button, Typography } from '@mui/material';

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
        Retry
      </Button>
    </Box>
  );
}
