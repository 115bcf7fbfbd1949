import { Box, Grid, Paper, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { AGEING_BUCKETS, type Collections } from '@tuitiondesk/contract';
import { NotLoaded } from '../../components/not-loaded';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { formatMoney } from '../../lib/money';
import { ageingQuery, collectionsQuery } from './api';
import { FeesExportMenu } from './export-menu';

type Bucket = (typeof AGEING_BUCKETS)[number];

function CollectionsCard({ period }: { period: 'today' | 'month' }) {
  const { t } = useTranslation('fees');
  const query = useQuery(collectionsQuery(period));
  const data: Collections | undefined = query.data;
  const label = t(`collections.${period}`);
  return (
    <Paper variant="outlined" sx={{ p: 2, height: '100%' }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
        {data && <FeesExportMenu report="collections" query={{ from: data.from, to: data.to }} label={label} />}
      </Stack>
      {query.isError ? (
        <NotLoaded text={errorText(query.error, t('collections.loadFailed'))} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <Typography variant="h5" component="p" sx={{ fontWeight: 600, my: 0.5 }}>
            {data ? formatMoney(data.amount_paise) : '…'}
          </Typography>
          {data && (
            <>
              <Typography variant="caption" color="text.secondary" component="p">
                {t('collections.payments', { count: data.payments })}
              </Typography>
              {data.by_mode.length > 0 && (
                <Typography variant="body2" component="p" sx={{ mt: 1 }}>
                  {data.by_mode.map((row) => `${t(`modes.${row.mode}`)} ${formatMoney(row.amount_paise)}`).join(' · ')}
                </Typography>
              )}
              {data.by_staff.length > 0 && (
                <Typography variant="body2" component="p" color="text.secondary">
                  {data.by_staff
                    .map((row) => `${row.name ?? t('collections.online')} ${formatMoney(row.amount_paise)}`)
                    .join(' · ')}
                </Typography>
              )}
            </>
          )}
        </>
      )}
    </Paper>
  );
}

/** What is owed by age (and past its due date), and what came in today and this month. */
export function DuesSummary() {
  const { t } = useTranslation('fees');
  const ageing = useQuery(ageingQuery());
  return (
    <Box component="section" aria-labelledby="fees-ageing-heading" sx={{ mb: 2 }}>
      <Typography id="fees-ageing-heading" component="h2" variant="h6" sx={{ mb: 1 }}>
        {t('ageing.heading')}
        {ageing.data && (
          <Typography component="span" color="text.secondary" sx={{ ml: 1 }}>
            {t('ageing.total', { amount: formatMoney(ageing.data.total_paise), count: ageing.data.families })}
            {ageing.data.overdue_paise > 0 &&
              ` · ${t('ageing.overdue', { amount: formatMoney(ageing.data.overdue_paise) })}`}
          </Typography>
        )}
      </Typography>
      {ageing.isError && (
        <NotLoaded text={errorText(ageing.error, t('ageing.loadFailed'))} onRetry={() => void ageing.refetch()} />
      )}
      <Grid container spacing={1.5}>
        {AGEING_BUCKETS.map((bucket) => {
          const row = ageing.data?.buckets.find((item) => item.bucket === bucket);
          return (
            <Grid key={bucket} size={{ xs: 6, md: 3 }}>
              <Paper variant="outlined" sx={{ p: 2, height: '100%' }}>
                <Typography variant="body2" color="text.secondary">
                  {t(`buckets.${bucketKey(bucket)}`)}
                </Typography>
                <Typography
                  variant="h6"
                  component="p"
                  // A phone's half-width card holds ₹1,73,145.18 on one line at this size.
                  sx={{ fontWeight: 600, fontSize: { xs: '1rem', sm: '1.25rem' }, overflowWrap: 'anywhere' }}
                >
                  {ageing.data ? formatMoney(row?.amount_paise ?? 0) : '…'}
                </Typography>
                {ageing.data && (
                  <Typography variant="caption" color="text.secondary">
                    {t('ageing.families', { count: row?.families ?? 0 })}
                  </Typography>
                )}
              </Paper>
            </Grid>
          );
        })}
        <Grid size={{ xs: 12, md: 6 }}>
          <CollectionsCard period="today" />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <CollectionsCard period="month" />
        </Grid>
      </Grid>
    </Box>
  );
}

/** `0-30` → `d0_30`: a catalogue key. */
export function bucketKey(bucket: Bucket) {
  return ({ '0-30': 'd0_30', '31-60': 'd31_60', '61-90': 'd61_90', '90+': 'd90' } as const)[bucket];
}
