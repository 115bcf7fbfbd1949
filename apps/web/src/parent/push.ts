import { parentRequest } from './api';

/** What the Notifications section shows. */
export type PushState = 'unsupported' | 'blocked' | 'off' | 'on';

export const SW_URL = '/parent/sw.js';
export const SW_SCOPE = '/parent/';

export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window &&
    window.isSecureContext
  );
}

/** iPhones and iPads offer Web Push only to an app added to the Home Screen. */
export function needsHomeScreen(): boolean {
  const standalone = (navigator as Navigator & { standalone?: boolean }).standalone;
  return /iPhone|iPad|iPod/.test(navigator.userAgent) && standalone !== true;
}

/** Browsers whose way to allow notifications again differs; told apart roughly, by the user agent. */
export type BrowserFamily =
  | 'ios'
  | 'samsung'
  | 'firefox'
  | 'android-app'
  | 'android-chrome'
  | 'chrome'
  | 'safari'
  | 'other';

/**
 * Which browser the parent is in, as far as it changes the steps to allow notifications. Samsung
 * Internet and Edge say "Chrome" too, so the narrower names are looked for first; on an iPhone every
 * browser is Safari underneath, and only the Home Screen app can have notifications at all.
 */
export function browserFamily(userAgent: string, standalone: boolean): BrowserFamily {
  if (/iPhone|iPad|iPod/.test(userAgent)) return 'ios';
  if (/SamsungBrowser\//.test(userAgent)) return 'samsung';
  if (/Firefox\/|FxiOS\//.test(userAgent)) return 'firefox';
  if (/Android/.test(userAgent)) return standalone ? 'android-app' : 'android-chrome';
  if (/Chrome\/|Chromium\/|Edg\//.test(userAgent)) return 'chrome';
  if (/Safari\//.test(userAgent) && /Macintosh/.test(userAgent)) return 'safari';
  return 'other';
}

/** This browser's family, and whether the app runs installed (from the home screen) rather than in a tab. */
export function currentBrowserFamily(): BrowserFamily {
  const standalone =
    (navigator as Navigator & { standalone?: boolean }).standalone === true ||
    (typeof window.matchMedia === 'function' && window.matchMedia('(display-mode: standalone)').matches);
  return browserFamily(navigator.userAgent, standalone);
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

async function registration(): Promise<ServiceWorkerRegistration> {
  return (
    (await navigator.serviceWorker.getRegistration(SW_SCOPE)) ??
    navigator.serviceWorker.register(SW_URL, { scope: SW_SCOPE })
  );
}

export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const found = await navigator.serviceWorker.getRegistration(SW_SCOPE);
  return (await found?.pushManager.getSubscription()) ?? null;
}

export async function pushState(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'blocked';
  if (Notification.permission === 'granted' && (await currentSubscription())) return 'on';
  return 'off';
}

/** Asks (on a tap only), subscribes with the centre's VAPID key and registers this device. */
export async function turnOnNotifications(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (permission === 'denied') return 'blocked';
  if (permission !== 'granted') return 'off';
  const { public_key } = await parentRequest<{ public_key: string }>('/parent/push/public-key');
  const key = base64UrlToBytes(public_key);
  await registration();
  const ready = await navigator.serviceWorker.ready;
  let subscription = await ready.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
    // The centre's key changed: the old subscription cannot receive its pushes.
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await ready.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  await parentRequest('/parent/push/subscriptions', { json: subscription.toJSON() });
  return 'on';
}

/** Stops pushes to this device: tells the server, then drops the browser's subscription. */
export async function turnOffNotifications(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  try {
    await parentRequest('/parent/push/subscriptions', { method: 'DELETE', json: { endpoint: subscription.endpoint } });
  } finally {
    await subscription.unsubscribe().catch(() => false);
  }
}

/**
 * After signing in (a new code deletes the phone's subscriptions on the server), hands an existing
 * subscription of this device to the server again. Quiet: the Notifications section shows the state.
 */
export async function resubscribeQuietly(): Promise<void> {
  try {
    if (!pushSupported() || Notification.permission !== 'granted') return;
    const subscription = await currentSubscription();
    if (subscription) await parentRequest('/parent/push/subscriptions', { json: subscription.toJSON() });
  } catch {
    // the Notifications section offers to turn them on again
  }
}

function sameKey(current: ArrayBuffer | null, wanted: Uint8Array): boolean {
  if (!current) return false;
  const bytes = new Uint8Array(current);
  return bytes.length === wanted.length && bytes.every((byte, index) => byte === wanted[index]);
}
