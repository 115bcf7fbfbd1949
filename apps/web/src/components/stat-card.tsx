import { Box, Card, CardActionArea, CardContent, Skeleton, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../i18n';

/**
 * One figure with its label and a caption; a skeleton stands in until the figure is known. With `to`,
 * the whole card is a link to the page where the figure is acted on.
 */
export function StatCard({
  label,
  value,
  caption,
  icon,
  loading = false,
  to,
}: {
  label: string;
  value: ReactNode;
  caption?: string;
  icon?: ReactNode;
  loading?: boolean;
  to?: string;
}) {
  const { t } = useTranslation('common');
  const content = (
    <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
      <Box sx={{ flexGrow: 1, minWidth: 0 }}>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
        <Typography variant="h4" component="p" sx={{ fontWeight: 600, my: 0.5 }}>
          {loading ? <Skeleton width={64} aria-label={t('loading', { what: label })} /> : value}
        </Typography>
        {caption && (
          <Typography variant="caption" color="text.secondary">
            {caption}
          </Typography>
        )}
      </Box>
      {icon && <Box sx={{ color: 'primary.main', '& svg': { fontSize: 36 } }}>{icon}</Box>}
    </CardContent>
  );
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      {to ? (
        <CardActionArea component={Link} to={to} sx={{ height: '100%' }}>
          {content}
        </CardActionArea>
      ) : (
        content
      )}
    </Card>
  );
}
