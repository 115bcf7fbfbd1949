import { Alert, AlertTitle, Box, Button } from '@mui/material';
import type { ErrorInfo, ReactNode } from 'react';
import { useTranslation } from '../i18n';
import { ErrorBoundary } from '../lib/error-boundary';
import { browserVersionCheck, isChunkLoadError, reloadOnceIfNewVersion } from './new-version';
import { renewFailedLazies } from './retryable-lazy';

function reloadIfNewVersion(): void {
  void reloadOnceIfNewVersion(browserVersionCheck());
}

function reportFailure(error: unknown, info: ErrorInfo, onChunkError: () => void): void {
  if (isChunkLoadError(error)) onChunkError();
  else console.error('The console failed while showing a page', error, info.componentStack);
}

export function FailureMessage({
  error,
  retry,
  scope,
}: {
  error: unknown;
  retry: () => void;
  scope: 'page' | 'console';
}) {
  const { t } = useTranslation(['app', 'common']);
  const notLoaded = isChunkLoadError(error);
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={retry}>
          {t('common:retry')}
        </Button>
      }
      sx={{ maxWidth: 640 }}
    >
      <AlertTitle>{notLoaded ? t(`${scope}.notLoaded`) : t(`${scope}.failed`)}</AlertTitle>
      {notLoaded ? t('checkConnection') : t(`${scope}.failedAdvice`)}
    </Alert>
  );
}

interface BoundaryProps {
  children: ReactNode;
  /** Tests pass their own; the console checks for a new version and reloads once. */
  onChunkError?: () => void;
}

/**
 * Around the current page, inside the shell: a page whose code could not be fetched (a network blip,
 * a restart, a new version) or that failed while showing says so with Retry, and the menu stays.
 * Retry fetches the code again; choosing another menu item (`resetKey`, the address) clears it too.
 */
export function PageBoundary({
  children,
  resetKey,
  onChunkError = reloadIfNewVersion,
}: BoundaryProps & { resetKey: string }) {
  return (
    <ErrorBoundary
      resetKey={resetKey}
      onReset={renewFailedLazies}
      onError={(error, info) => reportFailure(error, info, onChunkError)}
      fallback={({ error, retry }) => <FailureMessage error={error} retry={retry} scope="page" />}
    >
      {children}
    </ErrorBoundary>
  );
}

/** Around the whole console (the sign-in screen, the shell's own code): the same, on a screen of its own. */
export function ConsoleBoundary({ children, onChunkError = reloadIfNewVersion }: BoundaryProps) {
  return (
    <ErrorBoundary
      onReset={renewFailedLazies}
      onError={(error, info) => reportFailure(error, info, onChunkError)}
      fallback={({ error, retry }) => (
        <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2 }}>
          <FailureMessage error={error} retry={retry} scope="console" />
        </Box>
      )}
    >
      {children}
    </ErrorBoundary>
  );
}
