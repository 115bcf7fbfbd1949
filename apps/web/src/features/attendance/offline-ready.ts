import { useQueryClient } from '@tanstack/react-query';
import type { ClassName, MarkingScope } from '@tuitiondesk/contract';
import { useEffect, useState } from 'react';
import { apiRequest } from '../../lib/api-client';
import { OFFLINE_API_BASE, OFFLINE_READS_CACHE } from '../../lib/offline/offline-reads';
import { markingScopeQuery, rosterQuery } from './api';
import { daysFrom } from './offline-rosters';

/**
 * Offline from the first sign-in (issue 28, item 9; ADR 048). A teacher who has never opened Mark
 * Attendance can still mark with no network: as soon as the console's service worker controls the
 * page (it installs on the first visit, with every page's code precached), the teacher's registers
 * for every day they may mark, their marking scope and who they are are read again THROUGH the
 * worker, which keeps them. The console is "Ready to work offline" only once the worker's cache
 * holds every one of those registers, and says when they were kept; until then "Not ready yet".
 */
export type OfflineReadiness =
  | { state: 'not-applicable' }
  | { state: 'not-ready' }
  | { state: 'ready'; keptAt: string };

const KEPT_AT_PREFIX = 'tuitiondesk.offline-ready';
/** A try that found the registers not kept yet (the worker still installing) is made again this often. */
const RETRY_MS = 10_000;
const RETRIES = 12;

function keptAtKey(userId: number): string {
  return `${KEPT_AT_PREFIX}.${userId}`;
}

function storedKeptAt(userId: number): string | null {
  try {
    return localStorage.getItem(keptAtKey(userId));
  } catch {
    return null;
  }
}

/** The registers a teacher may mark: each of their classes on each day of their window. */
export function registersOf(scope: MarkingScope): { className: ClassName; date: string }[] {
  if (!scope.restricted || scope.any_class) return [];
  const days = daysFrom(scope.earliest_date ?? scope.today, scope.today);
  return scope.classes.flatMap((className) => days.map((date) => ({ className, date })));
}

/**
 * Whether the worker's cache holds every register (one sign-in's reads: the cache is emptied at every
 * sign-in and sign-out, so what it holds is the signed-in account's).
 */
export async function registersKept(registers: readonly { className: string; date: string }[]): Promise<boolean> {
  if (typeof caches === 'undefined' || registers.length === 0) return false;
  if (!(await caches.has(OFFLINE_READS_CACHE))) return false;
  const cache = await caches.open(OFFLINE_READS_CACHE);
  const kept = new Set(
    (await cache.keys())
      .map((request) => new URL(request.url))
      .filter((url) => url.pathname === `${OFFLINE_API_BASE}/attendance/roster`)
      .map((url) => `${url.searchParams.get('class_name')}|${url.searchParams.get('date')}`),
  );
  return registers.every((register) => kept.has(`${register.className}|${register.date}`));
}

/** Resolves once a service worker controls this page (it claims the page as it activates). */
async function controlled(): Promise<boolean> {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return false;
  await navigator.serviceWorker.ready;
  if (navigator.serviceWorker.controller) return true;
  return new Promise((resolve) => {
    const done = () => resolve(navigator.serviceWorker.controller !== null);
    navigator.serviceWorker.addEventListener('controllerchange', done, { once: true });
    setTimeout(done, 10_000);
  });
}

/**
 * Reads and keeps a teacher's registers for offline marking, from sign-in and whenever the network
 * returns, and says whether the console is ready to work offline.
 */
export function useOfflineReadiness(userId: number | undefined, isTeacher: boolean): OfflineReadiness {
  const client = useQueryClient();
  const [readiness, setReadiness] = useState<OfflineReadiness>({ state: 'not-ready' });

  useEffect(() => {
    if (!isTeacher || userId === undefined) {
      setReadiness({ state: 'not-applicable' });
      return;
    }
    let stopped = false;
    let retries = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const settle = async (registers: { className: ClassName; date: string }[], keptAt: string | null) => {
      if (stopped) return false;
      if (registers.length > 0 && keptAt !== null && (await registersKept(registers))) {
        if (!stopped) setReadiness({ state: 'ready', keptAt });
        return true;
      }
      return false;
    };

    const keep = async () => {
      if (stopped || !navigator.onLine) return;
      if (!(await controlled())) return;
      const scope = await client.fetchQuery({ ...markingScopeQuery(), staleTime: 0 });
      const registers = registersOf(scope);
      if (registers.length === 0) {
        if (!stopped) setReadiness({ state: 'not-applicable' });
        return;
      }
      // Through the worker now: it keeps each answer for this account.
      await Promise.all([
        apiRequest('/auth/me'),
        ...registers.map((register) =>
          client.fetchQuery({ ...rosterQuery(register.className, register.date), staleTime: 0 }),
        ),
      ]);
      const keptAt = new Date().toISOString();
      if (await settle(registers, keptAt)) {
        try {
          localStorage.setItem(keptAtKey(userId), keptAt);
        } catch {
          // Storage refused: the time is shown until the page closes.
        }
        return;
      }
      if (!stopped) setReadiness({ state: 'not-ready' });
      if (retries < RETRIES) {
        retries += 1;
        timer = setTimeout(() => void keep().catch(() => undefined), RETRY_MS);
      }
    };

    // What an earlier visit kept still counts, offline too (the scope comes from the worker then).
    void (async () => {
      const scope = client.getQueryData(markingScopeQuery().queryKey);
      if (scope && (await settle(registersOf(scope), storedKeptAt(userId)))) return;
      if (!navigator.onLine) {
        const kept = await client
          .fetchQuery({ ...markingScopeQuery(), staleTime: Number.POSITIVE_INFINITY })
          .catch(() => undefined);
        if (kept) await settle(registersOf(kept), storedKeptAt(userId));
      }
    })().catch(() => undefined);
    void keep().catch(() => undefined);
    const online = () => {
      retries = 0;
      void keep().catch(() => undefined);
    };
    window.addEventListener('online', online);
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      window.removeEventListener('online', online);
    };
  }, [client, userId, isTeacher]);

  return readiness;
}
