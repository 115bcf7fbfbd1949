import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** What a list shows when it has nothing: a title, and a line saying why or what to do. */
export function EmptyState({ title, text, icon }: { title: string; text?: string; icon?: ReactNode }) {
  return (
    <Box sx={{ py: 6, px: 2, textAlign: 'center', color: 'text.secondary' }}>
      {icon && <Box sx={{ mb: 1, '& svg': { fontSize: 48 } }}>{icon}</Box>}
      <Typography variant="h6" component="p" color="text.primary">
        {title}
      </Typography>
      {text && <Typography sx={{ mt: 0.5 }}>{text}</Typography>}
    </Box>
  );
}
