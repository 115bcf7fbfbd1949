import { Box, Card, CardContent, Skeleton, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** One figure with its label and a caption; a skeleton stands in until the figure is known. */
export function StatCard({
  label,
  value,
  caption,
  icon,
  loading = false,
}: {
  label: string;
  value: ReactNode;
  caption?: string;
  icon?: ReactNode;
  loading?: boolean;
}) {
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
        <Box sx={{ flexGrow: 1, minWidth: 0 }}>
          <Typography variant="body2" color="text.secondary">
            {label}
          </Typography>
          <Typography variant="h4" component="p" sx={{ fontWeight: 600, my: 0.5 }}>
            {loading ? <Skeleton width={64} aria-label={`Loading ${label}`} /> : value}
          </Typography>
          {caption && (
            <Typography variant="caption" color="text.secondary">
              {caption}
            </Typography>
          )}
        </Box>
        {icon && <Box sx={{ color: 'primary.main', '& svg': { fontSize: 36 } }}>{icon}</Box>}
      </CardContent>
    </Card>
  );
}
