import { Box, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';

interface PageHeaderProps {
  title: ReactNode;
  /** A line under the title saying what the page is for. */
  subtitle?: ReactNode;
  /** The page's own control, on the right (under the title on phones). */
  action?: ReactNode;
  /** Space under the header, in theme spacing units. */
  mb?: number;
}

/** A page's title (an h2: the app bar holds the h1), with what the page is for and its action. */
export function PageHeader({ title, subtitle, action, mb = 2 }: PageHeaderProps) {
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={2}
      sx={{ mb, justifyContent: 'space-between', alignItems: { xs: 'stretch', sm: 'center' } }}
    >
      <Box>
        <Typography variant="h5" component="h2" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        {subtitle && <Typography color="text.secondary">{subtitle}</Typography>}
      </Box>
      {action}
    </Stack>
  );
}
