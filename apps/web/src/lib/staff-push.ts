import { API_BASE_PATH, CLIENT_HEADER, CLIENT_HEADER_VALUES } from '@tuitiondesk/contract';
import { apiRequest } from './api-client';
import {
  askPermission,
  base64UrlToBytes,
  permittedState,
  subscribeWithKey,
  unsubscribeAfter,
  type WebPushState,
  webPushSupported,
} from './web-push';

/**
 * Notifications on a staff member's device (marking reminders), through the console's own service
 * worker (scope /, registered by lib/offline/service-worker.ts): the page asks, subscribes with the
 * centre's VAPID key and hands the subscription to the server, which pushes through the same outbox
 * as the parents' (ADR 028). The service worker shows the push (lib/staff-push-worker.ts).
 */

/** What the "Allow notifications" control shows. */
export type StaffPushState = WebPushState;

const CONSOLE_SCOPE = '/';
const SUBSCRIPTIONS = '/staff/push/subscriptions';

export const staffPushSupported = webPushSupported;

/** The console's service worker registration; none in development or before it is installed. */
async function consoleRegistration(): Promise<ServiceWorkerRegistration | undefined> {
  if (!staffPushSupported()) return undefined;
  const found = await navigator.serviceWorker.getRegistration(CONSOLE_SCOPE);
  // The parent app's worker (scope /parent/) never serves the console's pages.
  return found && new URL(found.scope).pathname === CONSOLE_SCOPE ? found : undefined;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  return (await (await consoleRegistration())?.pushManager.getSubscription()) ?? null;
}

export async function staffPushState(): Promise<StaffPushState> {
  if (!(await consoleRegistration())) return 'unsupported';
  return permittedState(currentSubscription);
}

/** Asks (on a tap only), subscribes with the centre's VAPID key and registers this device for the account. */
export async function allowNotifications(): Promise<StaffPushState> {
  const registration = await consoleRegistration();
  if (!registration) return 'unsupported';
  const permission = await askPermission();
  if (permission !== 'granted') return permission;
  const { public_key } = await apiRequest<{ public_key: string }>('/staff/push/public-key');
  const key = base64UrlToBytes(public_key);
  const subscription = await subscribeWithKey(registration.pushManager, key);
  await apiRequest(SUBSCRIPTIONS, { method: 'POST', json: subscription.toJSON() });
  return 'on';
}

/** Stops pushes to this device: tells the server, then drops the browser's subscription. */
export async function stopNotifications(): Promise<void> {
  await unsubscribeAfter(await currentSubscription(), (endpoint) =>
    apiRequest(SUBSCRIPTIONS, { method: 'DELETE', json: { endpoint } }),
  );
}

/**
 * Hands this device's subscription to the server again for the signed-in account: a password change
 * ends the account's devices on the server, and another account may have used this device since.
 * Quiet: the control shows the state.
 */
export async function resubscribeQuietly(): Promise<void> {
  try {
    if (!staffPushSupported() || Notification.permission !== 'granted') return;
    const subscription = await currentSubscription();
    if (subscription) await apiRequest(SUBSCRIPTIONS, { method: 'POST', json: subscription.toJSON() });
  } catch {
    // the control offers to allow them again
  }
}

/**
 * At sign-out, while `token` still holds: this device stops getting the account's reminders. Sent
 * without the console's 401 handling (the session is ending anyway); offline, the subscription stays
 * until the next account signs in here and takes the device over.
 */
export async function forgetThisDevice(token: string): Promise<void> {
  try {
    const subscription = await currentSubscription();
    if (!subscription) return;
    await fetch(`${API_BASE_PATH}${SUBSCRIPTIONS}`, {
      method: 'DELETE',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        [CLIENT_HEADER]: CLIENT_HEADER_VALUES.console,
      },
      body: JSON.stringify({ endpoint: subscription.endpoint }),
    });
  } catch {
    // nothing to do: see above
  }
}
