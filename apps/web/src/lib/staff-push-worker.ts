import type { StaffPushPayload } from '@tuitiondesk/contract';

/**
 * The console service worker's side of staff pushes (marking reminders, ADR 028): show the push, and
 * on a tap open (or bring forward) the console at the page the push names. Written against the few
 * members of the service worker's global and events it uses, so the page's tests and type check reach
 * it too; the console's service worker calls `handleStaffPushes(self)`.
 *
 * Only a push of a kind this console knows is shown, and a tap only ever opens a page of the console's
 * own origin: a payload is the server's, but the worker trusts nothing it did not check.
 */

export interface NotificationOptionsShown {
  body: string;
  tag: string;
  icon: string;
  badge: string;
  data: { url: string };
}

export interface ClientLike {
  url: string;
  focus?: () => Promise<unknown>;
  navigate?: (url: string) => Promise<unknown>;
}

export interface ServiceWorkerLike {
  location: { origin: string };
  registration: { showNotification(title: string, options: NotificationOptionsShown): Promise<void> };
  clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly ClientLike[]>;
    openWindow(url: string): Promise<unknown>;
  };
  addEventListener(type: string, listener: (event: Event) => void): void;
}

export interface PushEventLike {
  data: { text(): string } | null;
  waitUntil(work: Promise<unknown>): void;
}

export interface NotificationClickEventLike {
  notification: { data: unknown; close(): void };
  waitUntil(work: Promise<unknown>): void;
}

const ICON = '/icons/icon-192.png';
const BADGE = '/icons/badge-96.png';

/** The payload of a staff push, or undefined for anything else (another kind, broken JSON, no data). */
export function readStaffPush(text: string | undefined): StaffPushPayload | undefined {
  if (!text) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { kind, title, body, url, tag } = value as Record<string, unknown>;
  if (kind !== 'marking_reminder') return undefined;
  if (typeof title !== 'string' || typeof body !== 'string' || typeof url !== 'string' || typeof tag !== 'string') {
    return undefined;
  }
  return { kind, title, body, url, tag };
}

/** `url` as a page of the console's origin, or the dashboard when it names anywhere else. */
export function consolePage(url: unknown, origin: string): string {
  const fallback = new URL('/dashboard', origin).href;
  if (typeof url !== 'string') return fallback;
  try {
    const page = new URL(url, origin);
    return page.origin === origin ? page.href : fallback;
  } catch {
    return fallback;
  }
}

/** Shows a staff push; answers false (and shows nothing) for a push that is not one. */
export function showStaffPush(worker: ServiceWorkerLike, event: PushEventLike): boolean {
  const payload = readStaffPush(event.data?.text());
  if (!payload) return false;
  event.waitUntil(
    worker.registration.showNotification(payload.title, {
      body: payload.body,
      // One notification per class and day: a second push for them replaces the first.
      tag: payload.tag,
      icon: ICON,
      badge: BADGE,
      data: { url: consolePage(payload.url, worker.location.origin) },
    }),
  );
  return true;
}

/** A tap: the console window already open goes to the page (one tap to the register), or a new one opens. */
export function openStaffPush(worker: ServiceWorkerLike, event: NotificationClickEventLike): void {
  event.notification.close();
  const data = event.notification.data as { url?: unknown } | null | undefined;
  const target = consolePage(data?.url, worker.location.origin);
  event.waitUntil(
    (async () => {
      const windows = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find(
        (client) =>
          new URL(client.url).origin === worker.location.origin && !new URL(client.url).pathname.startsWith('/parent'),
      );
      if (open?.navigate && open.focus) {
        await open.focus();
        await open.navigate(target);
        return;
      }
      await worker.clients.openWindow(target);
    })(),
  );
}

/** Wires both handlers into the console's service worker. */
export function handleStaffPushes(worker: ServiceWorkerLike): void {
  worker.addEventListener('push', (event) => {
    showStaffPush(worker, event as unknown as PushEventLike);
  });
  worker.addEventListener('notificationclick', (event) => {
    openStaffPush(worker, event as unknown as NotificationClickEventLike);
  });
}
