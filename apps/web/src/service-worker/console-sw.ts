/// <reference lib="webworker" />
/**
 * The staff console's service worker (scope /; the parent app keeps its own under /parent/). Built
 * by vite-plugin-pwa from this file with Workbox (ADR 029):
 *   - the app shell and every page's code are precached, so the console opens with no network;
 *     pages come from the network (a new version shows at once), and when it does not answer, the
 *     precached index.html: the one page whose scripts are surely here. A page is never kept from the
 *     network: one kept from another version names scripts this worker does not hold (ADR 030);
 *   - the reads a teacher needs to mark offline (their scope, the rosters, who they are) are
 *     network-first and kept per account: the key carries a digest of the caller's token, so one
 *     account never reads another's kept answers, and the console deletes them at sign-out;
 *   - the font of the language in use (ADR 035) is kept the first time the page draws it (cache
 *     first: its name carries its hash), so a language chosen online reads the same offline;
 *   - marks are never queued here: the page keeps them in IndexedDB and sends them itself, where it
 *     can show them and knows who is signed in;
 *   - staff pushes (marking reminders, ADR 028) are shown here, and a tap opens the page they name.
 */
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst, NetworkOnly } from 'workbox-strategies';
import { FONT_CACHE, FONT_CACHE_ENTRIES, isBuiltFont } from '../lib/offline/font-cache';
import { KEPT_ANSWER_HEADER, OFFLINE_READS, OFFLINE_READS_CACHE } from '../lib/offline/offline-reads';
import { handleStaffPushes } from '../lib/staff-push-worker';

declare let self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

self.skipWaiting();
clientsClaim();

// Marking reminders pushed to this staff member: shown, and a tap opens the class's register.
handleStaffPushes(self);

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Pages were once kept as they came (network-first, 'console-pages'): an earlier version's kept page
// started scripts the precache had dropped. The old cache goes; no page is kept from the network.
const RETIRED_PAGES_CACHE = 'console-pages';
self.addEventListener('activate', (event) => {
  event.waitUntil(caches.delete(RETIRED_PAGES_CACHE).then(() => undefined));
});

const pages = new NetworkOnly({ networkTimeoutSeconds: 4 });
registerRoute(
  new NavigationRoute(
    async (options) => {
      try {
        return await pages.handle(options);
      } catch {
        return (await matchPrecache('index.html')) ?? Response.error();
      }
    },
    { denylist: [/^\/api\//, /^\/parent(\/|$)/] },
  ),
);

registerRoute(
  ({ url, request }) => request.method === 'GET' && isBuiltFont(url, self.location.origin),
  new CacheFirst({ cacheName: FONT_CACHE, plugins: [new ExpirationPlugin({ maxEntries: FONT_CACHE_ENTRIES })] }),
);

async function accountDigest(request: Request): Promise<string> {
  const token = request.headers.get('authorization') ?? '';
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  return [...new Uint8Array(digest).slice(0, 12)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

registerRoute(
  ({ url, request }) =>
    request.method === 'GET' &&
    url.origin === self.location.origin &&
    OFFLINE_READS.some((path) => path.test(url.pathname)),
  new NetworkFirst({
    cacheName: OFFLINE_READS_CACHE,
    // A slow classroom network: after 5 s the kept answer is shown and the network's still updates it.
    networkTimeoutSeconds: 5,
    plugins: [
      {
        cacheKeyWillBeUsed: async ({ request }) => {
          const url = new URL(request.url);
          url.searchParams.set('__account', await accountDigest(request));
          return url.href;
        },
        // The page tells a kept answer from the server's own, so it still says the server is out of reach.
        cachedResponseWillBeUsed: async ({ cachedResponse }) => {
          if (!cachedResponse) return cachedResponse;
          const headers = new Headers(cachedResponse.headers);
          headers.set(KEPT_ANSWER_HEADER, '1');
          return new Response(cachedResponse.body, {
            status: cachedResponse.status,
            statusText: cachedResponse.statusText,
            headers,
          });
        },
      },
      new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 7 * 24 * 60 * 60 }),
    ],
  }),
);
