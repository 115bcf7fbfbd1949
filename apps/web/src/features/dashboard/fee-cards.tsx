import PaymentsIcon from '@mui/icons-material/Payments';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import { Card, CardContent, Grid, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { Ageing, Collections } from '@tuitiondesk/contract';
import type { ReactNode } from 'react';
import { NotLoaded } from '../../components/not-loaded';
import { StatCard } from '../../components/stat-card';
import { useTranslation } from '../../i18n';
import { apiRequest } from '../../lib/api-client';
import { formatMoney } from '../../lib/money';
import { DASHBOARD_REFRESH_MS } from './api';

/** Where both cards lead: the Fees page opens on its dues tab. */
const FEES_PAGE = '/fees';

// Under ['fees', …]: a payment or a charge run anywhere in the console refreshes the cards.
const collectedTodayQuery = {
  queryKey: ['fees', 'collections', 'today'] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    apiRequest<Collections>('/fees/collections', { query: { period: 'today' }, signal }),
  refetchInterval: DASHBOARD_REFRESH_MS,
};

// The ageing's overdue figures: what is owed past its due date, never charges not yet due.
const ageingQuery = {
  queryKey: ['fees', 'ageing', 'dashboard'] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => apiRequest<Ageing>('/fees/ageing', { signal }),
  refetchInterval: DASHBOARD_REFRESH_MS,
};

/** A card whose figure was never loaded: its label and "could not be loaded", with Retry; never a 0. */
function NotLoadedCard({ label, text, onRetry }: { label: string; text: string; onRetry: () => void }) {
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {label}
        </Typography>
        <NotLoaded text={text} onRetry={onRetry} />
      </CardContent>
    </Card>
  );
}

function FeeCard<T>({
  query,
  label,
  icon,
  value,
  caption,
}: {
  query: { data: T | undefined; isPending: boolean; refetch: () => unknown };
  label: string;
  icon: ReactNode;
  value: (data: T) => string;
  caption: (data: T) => string;
}) {
  const { t } = useTranslation('dashboard');
  const { data } = query;
  if (!data && !query.isPending)
    return <NotLoadedCard label={label} text={t('fees.notLoaded')} onRetry={() => void query.refetch()} />;
  return (
    <StatCard
      label={label}
      icon={icon}
      loading={query.isPending}
      value={data ? value(data) : ''}
      caption={data ? caption(data) : undefined}
      to={FEES_PAGE}
    />
  );
}

/**
 * The dashboard's two fee cards, for admins only (teachers see no fees, and the console never asks
 * /fees for them; the page renders this only for an admin): money collected today, from the ledger's
 * collections, and what families owe past its due date, from the ledger's ageing. Each opens Fees.
 */
export function FeeCards() {
  const { t } = useTranslation('dashboard');
  const collected = useQuery(collectedTodayQuery);
  const ageing = useQuery(ageingQuery);
  return (
    <Grid container spacing={2} sx={{ mt: 2 }}>
      <Grid size={{ xs: 12, sm: 6, md: 4 }}>
        <FeeCard
          query={collected}
          label={t('fees.collectedToday')}
          icon={<PaymentsIcon />}
          value={(today) => formatMoney(today.amount_paise)}
          caption={(today) => t('fees.payments', { count: today.payments })}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6, md: 4 }}>
        <FeeCard
          query={ageing}
          label={t('fees.overdue')}
          icon={<WarningAmberIcon />}
          value={(owed) => formatMoney(owed.overdue_paise)}
          caption={(owed) => t('fees.overdueFamilies', { count: owed.overdue_families })}
        />
      </Grid>
    </Grid>
  );
}
