import type { ParentInbox } from '@tuitiondesk/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorText, ParentApiError, parentRead, parentRequest } from './api';
import { i18n } from './i18n';

export const POLL_MS = 30_000;

/**
 * Tells the centre which messages the inbox showed on screen: each counts as delivered, whatever its
 * notification did (ADR 044). Only a fresh answer, on a visible page, and each message once per page
 * load (`reported`); a failure is forgotten, so the next poll tries those again.
 */
export function reportShown(inbox: ParentInbox, reported: Set<number>): Promise<void> | undefined {
  if (document.visibilityState !== 'visible') return undefined;
  const ids = inbox.messages.map((message) => message.id).filter((id) => !reported.has(id));
  if (ids.length === 0) return undefined;
  for (const id of ids) reported.add(id);
  return parentRequest('/parent/messages/shown', { json: { ids: ids.slice(0, 200) } }).then(
    () => undefined,
    () => {
      for (const id of ids) reported.delete(id);
    },
  );
}

/**
 * The inbox, fetched now, every 30 s while the page is visible, on return to it, back online and on a
 * push. Besides the messages: `keptAt`, set while the messages shown are not the centre's answer now
 * (the service worker's kept copy, or the last answer before the connection went), with when that
 * answer was given; and whether the phone is online.
 */
export function useInbox() {
  const [inbox, setInbox] = useState<ParentInbox>();
  const [error, setError] = useState<string>();
  const [keptAt, setKeptAt] = useState<string>();
  const [online, setOnline] = useState(() => navigator.onLine !== false);
  // When the server last answered, and whether there are messages on screen (read inside callbacks).
  const answeredAt = useRef<string>(undefined);
  const showing = useRef(false);
  const reported = useRef(new Set<number>());

  const refresh = useCallback(async (): Promise<ParentInbox | undefined> => {
    try {
      const { body, keptAt: kept } = await parentRead<ParentInbox>('/parent/messages?limit=100');
      if (kept === undefined) answeredAt.current = new Date().toISOString();
      showing.current = true;
      setInbox(body);
      if (kept === undefined) void reportShown(body, reported.current);
      setKeptAt(kept);
      setError(undefined);
      return body;
    } catch (caught) {
      const unreachable = caught instanceof ParentApiError && caught.status === 0;
      if (unreachable && showing.current) {
        // The messages stay, and say from when they are; no error on top of them.
        setKeptAt((kept) => kept ?? answeredAt.current);
        setError(undefined);
      } else {
        setError(errorText(caught, i18n.t('inbox.loadFailed')));
      }
      return undefined;
    }
  }, []);

  useEffect(() => {
    void refresh();
    const poll = window.setInterval(() => {
      if (document.visibilityState === 'visible') void refresh();
    }, POLL_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void refresh();
    };
    const onOnline = () => {
      setOnline(true);
      void refresh();
    };
    // Told at once, not at the next poll: what is shown is now what the phone had.
    const onOffline = () => {
      setOnline(false);
      if (showing.current) setKeptAt((kept) => kept ?? answeredAt.current);
    };
    const onWorkerMessage = (event: MessageEvent<{ type?: string }>) => {
      if (event.data?.type === 'push-received') void refresh();
    };
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('online', onOnline);
    window.addEventListener('offline', onOffline);
    navigator.serviceWorker?.addEventListener('message', onWorkerMessage);
    return () => {
      window.clearInterval(poll);
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('online', onOnline);
      window.removeEventListener('offline', onOffline);
      navigator.serviceWorker?.removeEventListener('message', onWorkerMessage);
    };
  }, [refresh]);

  return { inbox, error, keptAt, online, refresh, setInbox };
}
