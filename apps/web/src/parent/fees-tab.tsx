import { lazy, Suspense, useMemo, useState } from 'react';
import { ErrorBoundary } from '../lib/error-boundary';
import { useParentTranslation } from './i18n';

/**
 * The Fees tab's code is fetched when the tab is first opened (ADR 059): the parent page has a size
 * budget for what a parent downloads to read the inbox. If it cannot be fetched (offline before it
 * ever was), the tab says so with Retry, which fetches it again; the rest of the app stays.
 */
export function FeesTab() {
  const { t } = useParentTranslation();
  const [attempt, setAttempt] = useState(0);
  // A new lazy component per attempt: React keeps a failed import's promise for good.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is what asks for a fresh import
  const Fees = useMemo(() => lazy(() => import('./fees').then((module) => ({ default: module.Fees }))), [attempt]);
  return (
    <ErrorBoundary
      onError={(error) => console.error('The fees screen failed', error)}
      onReset={() => setAttempt((count) => count + 1)}
      fallback={({ retry }) => (
        <section aria-labelledby="fees-failed-title">
          <h1 id="fees-failed-title">{t('fees.title')}</h1>
          <p className="error" role="alert">
            {t('fees.loadFailed')}
          </p>
          <button type="button" className="secondary" onClick={retry}>
            {t('app.retry')}
          </button>
        </section>
      )}
    >
      <Suspense fallback={<p className="muted">{t('fees.loading')}</p>}>
        <Fees />
      </Suspense>
    </ErrorBoundary>
  );
}
