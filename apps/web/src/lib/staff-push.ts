import { API_BASE_PATH, CLIENT_HEADER, CLIENT_HEADER_VALUES } from '@tuitiondesk/contract';
import { apiRequest } from './api-client';

/**
 * Notifications on a staff member's device (marking reminders), through the console's own service
 * worker (scope /, registered by lib/offline/service-worker.ts): the page asks, subscribes with the
 * centre's VAPID key and hands the subscription to the server, which pushes through the same outbox
 * as the parents' (ADR 028). The service worker shows the push (lib/staff-push-worker.ts).
 */

/** What the "Allow notifications" control shows. */
export type StaffPushState = 'unsupported' | 'blocked' | 'off' | 'on';

const CONSOLE_SCOPE = '/';
const SUBSCRIPTIONS = '/staff/push/subscriptions';

export function staffPushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window &&
    window.isSecureContext
  );
}

/** The VAPID public key (base64url) as the bytes `pushManager.subscribe` wants. */
export function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(value.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

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
  if (Notification.permission === 'denied') return 'blocked';
  if (Notification.permission === 'granted' && (await currentSubscription())) return 'on';
  return 'off';
}

function sameKey(current: ArrayBuffer | null, wanted: Uint8Array): boolean {
  if (!current) return false;
  const bytes = new Uint8Array(current);
  return bytes.length === wanted.length && bytes.every((byte, index) => byte === wanted[index]);
}

/** Asks (on a tap only), subscribes with the centre's VAPID key and registers this device for the account. */
export async function allowNotifications(): Promise<StaffPushState> {
  const registration = await consoleRegistration();
  if (!registration) return 'unsupported';
  const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (permission === 'denied') return 'blocked';
  if (permission !== 'granted') return 'off';
  const { public_key } = await apiRequest<{ public_key: string }>('/staff/push/public-key');
  const key = base64UrlToBytes(public_key);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
    // The centre's key changed: the old subscription cannot receive its pushes.
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  await apiRequest(SUBSCRIPTIONS, { method: 'POST', json: subscription.toJSON() });
  return 'on';
}

/** Stops pushes to this device: tells the server, then drops the browser's subscription. */
export async function stopNotifications(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  try {
    await apiRequest(SUBSCRIPTIONS, { method: 'DELETE', json: { endpoint: subscription.endpoint } });
  } finally {
    await subscription.unsubscribe().catch(() => false);
  }
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
