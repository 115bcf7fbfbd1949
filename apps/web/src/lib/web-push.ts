/**
 * Web Push on this device, as the console (lib/staff-push.ts: a staff member's reminders) and the
 * parent app (parent/push.ts: a family's messages) both use it: whether the browser can, the
 * permission, and a subscription with the centre's VAPID key. Each side keeps its own service worker,
 * its own server calls and its own words.
 */

/** What a notifications control shows. */
export type WebPushState = 'unsupported' | 'blocked' | 'off' | 'on';

export function webPushSupported(): boolean {
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

/** The state once the browser can: blocked, on (allowed and subscribed) or off. */
export async function permittedState(subscription: () => Promise<PushSubscription | null>): Promise<WebPushState> {
  if (Notification.permission === 'denied') return 'blocked';
  if (Notification.permission === 'granted' && (await subscription())) return 'on';
  return 'off';
}

/** Asks (on a tap only) unless already allowed: granted, or the state to show instead. */
export async function askPermission(): Promise<'granted' | 'blocked' | 'off'> {
  const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (permission === 'denied') return 'blocked';
  if (permission !== 'granted') return 'off';
  return 'granted';
}

function sameKey(current: ArrayBuffer | null, wanted: Uint8Array): boolean {
  if (!current) return false;
  const bytes = new Uint8Array(current);
  return bytes.length === wanted.length && bytes.every((byte, index) => byte === wanted[index]);
}

/** This device's subscription for the centre's key: the one it has when made with that key, else a new one. */
export async function subscribeWithKey(
  pushManager: PushManager,
  key: Uint8Array<ArrayBuffer>,
): Promise<PushSubscription> {
  let subscription = await pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
    // The centre's key changed: the old subscription cannot receive its pushes.
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  return subscription;
}

/** Stops pushes to this device: tells the server (`forget`), then drops the browser's subscription. */
export async function unsubscribeAfter(
  subscription: PushSubscription | null,
  forget: (endpoint: string) => Promise<unknown>,
): Promise<void> {
  if (!subscription) return;
  try {
    await forget(subscription.endpoint);
  } finally {
    await subscription.unsubscribe().catch(() => false);
  }
}
