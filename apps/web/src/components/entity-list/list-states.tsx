import { Alert, Box, Button } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n';
import { errorText } from '../../lib/api-client';
import { EmptyState } from '../empty-state';
import { PageSpinner } from '../page-spinner';

/** An empty state's icon, title and line of advice. */
export interface EmptyText {
  icon: ReactNode;
  title: string;
  text: string;
}

/** The list's failed fetch: the server's reason (or the fallback) and a Retry that fetches again. */
export function FetchError({ error, fallback, onRetry }: { error: unknown; fallback: string; onRetry: () => void }) {
  const { t } = useTranslation('lists');
  return (
    <Box sx={{ p: 2 }}>
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={onRetry}>
            {t('retry')}
          </Button>
        }
      >
        {errorText(error, fallback)}
      </Alert>
    </Box>
  );
}

export type ListState = 'loading' | 'failed' | 'empty' | 'no-match' | 'rows';

/**
 * Which of its states a list is in: rows only once it has loaded some and the search matches some. A
 * failed refetch keeps the rows it had (the shell says the server cannot be reached): only a list that
 * never loaded shows the failure.
 */
export function listState(
  query: { isPending: boolean; isError: boolean; data?: unknown },
  total: number,
  matching: number,
): ListState {
  if (query.isPending) return 'loading';
  if (query.isError && query.data === undefined) return 'failed';
  if (total === 0) return 'empty';
  if (matching === 0) return 'no-match';
  return 'rows';
}

/** What a list shows instead of rows: the spinner, the failure with Retry, or an empty state. */
export function ListStateView({
  state,
  error,
  fetchFailed,
  onRetry,
  empty,
  noMatch,
}: {
  state: Exclude<ListState, 'rows'>;
  error: unknown;
  fetchFailed: string;
  onRetry: () => void;
  empty: EmptyText;
  /** Only a list with a search can match nothing. */
  noMatch?: EmptyText;
}) {
  if (state === 'loading') return <PageSpinner />;
  if (state === 'failed') return <FetchError error={error} fallback={fetchFailed} onRetry={onRetry} />;
  const shown = state === 'no-match' && noMatch ? noMatch : empty;
  return <EmptyState icon={shown.icon} title={shown.title} text={shown.text} />;
}
