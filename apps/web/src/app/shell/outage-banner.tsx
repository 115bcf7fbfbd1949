import CloudOffIcon from '@mui/icons-material/CloudOff';
import { Alert, Button } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState, useSyncExternalStore } from 'react';
import { englishText, useTranslation } from '../../i18n';
import { useServerUnreachable } from '../../lib/server-reach';

/** The banner's words in English (the spec's), for code that compares with them. */
export const UNREACHABLE_TEXT = englishText('shell:outage.unreachable');
export const OFFLINE_TEXT = englishText('shell:outage.offline');

function subscribeOnline(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

const isOnline = () => navigator.onLine;

/**
 * The shell's word on an outage, above every page: while the server does not answer (or the browser
 * says it has no network) the screens keep what they last showed, and this says it may be out of
 * date. Retry fetches what the screen shows again; the banner goes by itself once the server answers.
 */
export function OutageBanner() {
  const { t } = useTranslation('shell');
  const client = useQueryClient();
  const unreachable = useServerUnreachable();
  const online = useSyncExternalStore(subscribeOnline, isOnline, () => true);
  const [retrying, setRetrying] = useState(false);
  if (!unreachable && online) return null;
  const retry = () => {
    setRetrying(true);
    void client.refetchQueries({ type: 'active' }).finally(() => setRetrying(false));
  };
  return (
    <Alert
      severity="warning"
      icon={<CloudOffIcon />}
      sx={{ mb: 2 }}
      action={
        <Button color="inherit" size="small" onClick={retry} disabled={retrying}>
          {t('outage.retry')}
        </Button>
      }
    >
      {online ? t('outage.unreachable') : t('outage.offline')}
    </Alert>
  );
}
