import * as webPush from '../lib/web-push';
import { parentRequest } from './api';

/** What the Notifications section shows. */
export type PushState = webPush.WebPushState;

export const SW_URL = '/parent/sw.js';
export const SW_SCOPE = '/parent/';

export const base64UrlToBytes = webPush.base64UrlToBytes;

export const pushSupported = webPush.webPushSupported;

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
  return webPush.permittedState(currentSubscription);
}

/** Asks (on a tap only), subscribes with the centre's VAPID key and registers this device. */
export async function turnOnNotifications(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  const permission = await webPush.askPermission();
  if (permission !== 'granted') return permission;
  const { public_key } = await parentRequest<{ public_key: string }>('/parent/push/public-key');
  const key = base64UrlToBytes(public_key);
  await registration();
  const ready = await navigator.serviceWorker.ready;
  const subscription = await webPush.subscribeWithKey(ready.pushManager, key);
  await parentRequest('/parent/push/subscriptions', { json: subscription.toJSON() });
  return 'on';
}

/** Stops pushes to this device: tells the server, then drops the browser's subscription. */
export async function turnOffNotifications(): Promise<void> {
  await webPush.unsubscribeAfter(await currentSubscription(), (endpoint) =>
    parentRequest('/parent/push/subscriptions', { method: 'DELETE', json: { endpoint } }),
  );
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
