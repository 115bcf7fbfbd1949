import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import type { DashboardSummary } from '@tuitiondesk/contract';
import { Link } from 'react-router';
import { useTranslation } from '../../i18n';
import { formatNumber } from '../../lib/dates';

/**
 * How many families each channel reaches now, each once on its best channel (ADR 044): the parent app,
 * WhatsApp, or none yet (their messages go on the send list, one tap away).
 */
export function ReachCard({ reach }: { reach: DashboardSummary['reach'] | undefined }) {
  const { t } = useTranslation('dashboard');
  if (!reach || reach.families === 0) return null;
  const figures = [
    { key: 'inApp', label: t('reach.inApp'), value: reach.in_app },
    { key: 'whatsapp', label: t('reach.whatsapp'), value: reach.whatsapp },
    { key: 'none', label: t('reach.none'), value: reach.no_channel },
  ];
  return (
    <Paper variant="outlined" component="section" aria-labelledby="reach-card-title" sx={{ p: 2, mt: 3 }}>
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
        <Typography id="reach-card-title" component="h2" variant="h6">
          {t('reach.title')}
        </Typography>
        {reach.no_channel > 0 && (
          <Button component={Link} to="/communications?tab=call-list" size="small">
            {t('reach.openList')}
          </Button>
        )}
      </Stack>
      <Box
        component="dl"
        sx={{ display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: 1, m: 0, mt: 1 }}
      >
        {figures.map((figure) => (
          <Box key={figure.key}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {figure.label}
            </Typography>
            <Typography component="dd" variant="h5" sx={{ m: 0, fontWeight: 600 }}>
              {formatNumber(figure.value)}
            </Typography>
          </Box>
        ))}
      </Box>
    </Paper>
  );
}
