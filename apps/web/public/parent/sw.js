// The parent app's service worker (scope /parent/). Plain JavaScript, served as is: no build step.
//   - offline start: the app shell (/parent/, its hashed /assets/ files, manifest, icons) is cached;
//     pages are network-first (a new deploy shows at once), hashed assets cache-first;
//   - the parent API: network-first, the last good GET answers kept for offline reading
//     (the app deletes that cache when the parent signs out), each stamped with when it was kept
//     (x-tuitiondesk-kept-at), so the app can say the inbox shown is the one it had at that time;
//   - push: shows the message as a notification (tag = message id, so a repeat replaces it), confirms
//     delivery with the payload's receipt, and tells open windows to refresh their inbox;
//   - a notification tap focuses the app (or opens it) on that message;
//   - a language's files (its typeface: font files and @font-face CSS; its texts: the app's catalogue
//     and the error texts, `hi-<hash>.js`; all fetched when the language is first shown, ADR 035) are
//     kept apart, cache-first, and not dropped with an earlier build's assets (the shell names none of
//     them), so a language chosen online reads the same offline;
//   - its own two texts (a malformed push's notice, the page when offline with nothing kept) in the
//     language the app last showed (it posts it here; kept in a cache, as a worker is stopped when
//     idle), else the browser's, else English.

const SHELL_CACHE = 'parent-shell-v1';
const API_CACHE = 'parent-api-v1';
// A language's files (typeface and texts); named for its first use, kept so installed workers keep theirs.
const FONT_CACHE = 'parent-fonts-v1';
const SETTINGS_CACHE = 'parent-settings-v1';
const LANGUAGE_URL = '/parent/__language';
const SHELL_URL = '/parent/';
const STATIC_FILES = [
  '/parent/manifest.webmanifest',
  '/parent/icons/icon-192.png',
  '/parent/icons/icon-512.png',
  '/parent/icons/badge-96.png',
];
const NOTIFICATION_ICON = '/parent/icons/icon-192.png';
const NOTIFICATION_BADGE = '/parent/icons/badge-96.png';

/** The worker's own texts, in each language the app speaks (src/parent/locales has the app's). */
const TEXTS = {
  en: { offline: 'You are offline.', newMessage: 'You have a new message from the centre.' },
  hi: { offline: 'आप ऑफ़लाइन हैं।', newMessage: 'केंद्र से आपके लिए एक नया संदेश है।' },
  mr: { offline: 'आपण ऑफलाइन आहात.', newMessage: 'केंद्राकडून आपल्यासाठी एक नवीन संदेश आहे.' },
  ta: { offline: 'நீங்கள் இணைப்பில் இல்லை.', newMessage: 'மையத்திடமிருந்து உங்களுக்கு ஒரு புதிய செய்தி வந்துள்ளது.' },
  bn: { offline: 'আপনি অফলাইনে আছেন।', newMessage: 'কেন্দ্র থেকে আপনার জন্য একটি নতুন বার্তা এসেছে।' },
  ur: { offline: 'آپ آف لائن ہیں۔', newMessage: 'مرکز کی طرف سے آپ کے لیے ایک نیا پیغام ہے۔' },
};

/** The language the app last showed, else the browser's first that the app speaks, else English. */
async function language() {
  try {
    const kept = await (await caches.match(LANGUAGE_URL))?.text();
    if (kept && Object.hasOwn(TEXTS, kept)) return kept;
  } catch {
    // no cache storage
  }
  for (const tag of self.navigator.languages ?? []) {
    const main = tag.toLowerCase().split('-')[0];
    if (Object.hasOwn(TEXTS, main)) return main;
  }
  return 'en';
}

async function text(key) {
  return TEXTS[await language()][key];
}

self.addEventListener('message', (event) => {
  const shown = event.data?.type === 'language' ? event.data.language : undefined;
  if (typeof shown === 'string' && Object.hasOwn(TEXTS, shown)) {
    event.waitUntil(
      caches
        .open(SETTINGS_CACHE)
        .then((cache) => cache.put(LANGUAGE_URL, new Response(shown)))
        .catch(() => undefined),
    );
  }
});

/**
 * A language's file, as the build names them: a script's font file, the @font-face CSS of one
 * (`devanagari-400-<hash>.css`), or a language's texts (`hi-<hash>.js`: the app's catalogue, the error
 * texts).
 */
function isLanguageFile(url) {
  return (
    /^\/assets\/[^/]+\.woff2?$/.test(url.pathname) ||
    /^\/assets\/(?:devanagari|tamil|bengali|arabic)-\d{3}-[\w-]+\.css$/.test(url.pathname) ||
    /^\/assets\/(?:hi|mr|ta|bn|ur)-[\w-]+\.js$/.test(url.pathname)
  );
}

/** The hashed files an index page loads (`/assets/...`). */
function assetsOf(html) {
  return [...new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]))];
}

/**
 * Caches the page and the files it names, then drops assets of earlier builds. The files come first:
 * if one cannot be fetched (a flaky network, a deploy under way), nothing changes and the page kept
 * before, with its files, still starts offline; a page is never kept without every file it names.
 */
async function cacheShell(response) {
  const cache = await caches.open(SHELL_CACHE);
  const html = await response.clone().text();
  const assets = assetsOf(html);
  const missing = [];
  for (const asset of assets) if (!(await cache.match(asset))) missing.push(asset);
  await cache.addAll(missing);
  await cache.put(SHELL_URL, response);
  const cached = await cache.keys();
  await Promise.all(
    cached
      .filter((request) => new URL(request.url).pathname.startsWith('/assets/'))
      .filter((request) => !assets.includes(new URL(request.url).pathname))
      .map((request) => cache.delete(request)),
  );
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const response = await fetch(SHELL_URL, { cache: 'no-cache' });
      if (response.ok) await cacheShell(response);
      const cache = await caches.open(SHELL_CACHE);
      await cache.addAll(STATIC_FILES).catch(() => undefined);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const keep = [SHELL_CACHE, API_CACHE, FONT_CACHE, SETTINGS_CACHE];
      for (const name of await caches.keys()) if (!keep.includes(name)) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;

  if (request.mode === 'navigate' && url.pathname.startsWith('/parent')) {
    event.respondWith(page(request));
  } else if (url.pathname.startsWith('/api/v1/parent/')) {
    event.respondWith(api(request));
  } else if (isLanguageFile(url)) {
    event.respondWith(cacheFirst(request, FONT_CACHE));
  } else if (url.pathname.startsWith('/assets/') || STATIC_FILES.includes(url.pathname)) {
    event.respondWith(cacheFirst(request));
  }
});

async function page(request) {
  try {
    const response = await fetch(request);
    if (response.ok) {
      const copy = response.clone();
      // Keep the newest shell for the next offline start (ignore failures: it is only a cache).
      cacheShell(copy).catch(() => undefined);
    }
    return response;
  } catch {
    const cached = await caches.match(SHELL_URL);
    return (
      cached ??
      new Response(await text('offline'), { status: 503, headers: { 'content-type': 'text/plain; charset=utf-8' } })
    );
  }
}

const KEPT_AT_HEADER = 'x-tuitiondesk-kept-at';

async function api(request) {
  try {
    const response = await fetch(request);
    keepStamped(request, response);
    return response;
  } catch (error) {
    const cached = await caches.match(request, { cacheName: API_CACHE });
    if (cached) return cached;
    throw error;
  }
}

async function cacheFirst(request, cacheName = SHELL_CACHE) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  keepCopy(cacheName, request, response);
  return response;
}

/** Keeps a copy of a good API answer with the time it was kept; only a kept copy carries the stamp. */
function keepStamped(request, response) {
  if (!response.ok) return;
  const copy = response.clone();
  (async () => {
    const headers = new Headers(copy.headers);
    headers.set(KEPT_AT_HEADER, new Date().toISOString());
    const stamped = new Response(await copy.blob(), { status: copy.status, statusText: copy.statusText, headers });
    await (await caches.open(API_CACHE)).put(request, stamped);
  })().catch(() => undefined);
}

/** Keeps a copy of a good answer in the cache, without holding the answer back while it is written. */
function keepCopy(cacheName, request, response) {
  if (!response.ok) return;
  const copy = response.clone();
  caches
    .open(cacheName)
    .then((cache) => cache.put(request, copy))
    .catch(() => undefined);
}

/** The push payload (contract: PushPayload), or undefined when it is not one. */
function payloadOf(data) {
  try {
    const value = data?.json();
    if (value && Number.isInteger(value.message_id) && typeof value.title === 'string') return value;
  } catch {
    // not JSON
  }
  return undefined;
}

self.addEventListener('push', (event) => {
  const payload = payloadOf(event.data);
  event.waitUntil(
    (async () => {
      if (!payload) {
        // A push must show something; a malformed one shows a generic notice.
        await self.registration.showNotification('TuitionDesk', {
          body: await text('newMessage'),
          icon: NOTIFICATION_ICON,
          badge: NOTIFICATION_BADGE,
        });
        return;
      }
      await Promise.all([
        self.registration.showNotification(payload.title, {
          body: payload.body,
          tag: String(payload.message_id),
          icon: NOTIFICATION_ICON,
          badge: NOTIFICATION_BADGE,
          timestamp: Date.parse(payload.sent_at) || Date.now(),
          data: { message_id: payload.message_id },
        }),
        confirmDelivery(payload.receipt),
        tellWindows({ type: 'push-received', message_id: payload.message_id }),
      ]);
    })(),
  );
});

async function confirmDelivery(receipt) {
  if (typeof receipt !== 'string' || !receipt) return;
  try {
    await fetch('/api/v1/parent/receipts', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ receipt }),
    });
  } catch {
    // Offline: opening the message in the app reports it delivered as well.
  }
}

async function tellWindows(message) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const client of windows) client.postMessage(message);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const id = event.notification.data?.message_id;
  const target = id ? `${SHELL_URL}#message=${id}` : SHELL_URL;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).pathname.startsWith(SHELL_URL));
      if (open) {
        await open.focus();
        if (id) open.postMessage({ type: 'open-message', message_id: id });
        return;
      }
      await self.clients.openWindow(target);
    })(),
  );
});
