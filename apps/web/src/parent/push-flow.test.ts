import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, json } from '../testing';
import { saveSession } from './api';
import { pushState, turnOffNotifications, turnOnNotifications } from './push';

const KEY = 'BIYFudQr2s-x3WO7ikjXcvayyT5O-Ut7ZD0ZtBhPvEWHTe5xq2f3iriln9ugYBJ33BcuJFCeH5zLcOls7uKVj-w';
const subscriptionJson = {
  endpoint: 'https://push.example/send/abc',
  expirationTime: null,
  keys: { p256dh: 'p'.repeat(87), auth: 'a'.repeat(22) },
};

/** A browser with service workers and push, as far as the parent app uses them. */
function fakeBrowser(permission: NotificationPermission, existing: boolean) {
  let current: PushSubscription | null = null;
  const makeSubscription = (key: ArrayBuffer | null) =>
    ({
      endpoint: subscriptionJson.endpoint,
      options: { applicationServerKey: key },
      toJSON: () => subscriptionJson,
      unsubscribe: vi.fn(async () => {
        current = null;
        return true;
      }),
    }) as unknown as PushSubscription;
  const subscribe = vi.fn(async (options: PushSubscriptionOptionsInit) => {
    current = makeSubscription((options.applicationServerKey as Uint8Array).buffer as ArrayBuffer);
    return current;
  });
  if (existing) current = makeSubscription(null);
  const registration = {
    pushManager: { getSubscription: async () => current, subscribe },
  } as unknown as ServiceWorkerRegistration;
  const requestPermission = vi.fn(async () => 'granted' as NotificationPermission);
  vi.stubGlobal('Notification', { permission, requestPermission });
  vi.stubGlobal('PushManager', class {});
  Object.defineProperty(window, 'isSecureContext', { value: true, configurable: true });
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: {
      getRegistration: async () => registration,
      register: async () => registration,
      ready: Promise.resolve(registration),
    },
  });
  return { subscribe, requestPermission, current: () => current };
}

beforeEach(() => saveSession({ token: 'parent-token', profile: { phone: '+91', parent_name: 'P', children: [] } }));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  Reflect.deleteProperty(navigator, 'serviceWorker');
  Reflect.deleteProperty(window, 'isSecureContext');
});

describe('notification state', () => {
  it('is blocked when the browser denied, on when subscribed, off otherwise', async () => {
    fakeBrowser('denied', false);
    expect(await pushState()).toBe('blocked');
    fakeBrowser('granted', true);
    expect(await pushState()).toBe('on');
    fakeBrowser('default', false);
    expect(await pushState()).toBe('off');
  });
});

describe('turning notifications on and off', () => {
  it('asks, subscribes with the centre’s key as bytes, and registers the subscription', async () => {
    const browser = fakeBrowser('default', false);
    const api = fakeApi({
      'GET /parent/push/public-key': () => [200, { public_key: KEY }],
      'POST /parent/push/subscriptions': () => [201, { ok: true }],
    });
    expect(await turnOnNotifications()).toBe('on');
    expect(browser.requestPermission).toHaveBeenCalledOnce();
    const options = browser.subscribe.mock.calls[0]?.[0];
    expect(options?.userVisibleOnly).toBe(true);
    expect(options?.applicationServerKey).toBeInstanceOf(Uint8Array);
    expect((options?.applicationServerKey as Uint8Array | undefined)?.length).toBe(65);
    const post = api.spy.mock.calls.find(([url]) => url === '/api/v1/parent/push/subscriptions');
    expect(post?.[1]?.method).toBe('POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual(subscriptionJson);
    expect((post?.[1]?.headers as Record<string, string> | undefined)?.authorization).toBe('Bearer parent-token');
  });

  it('stays off and subscribes nothing when the parent refuses', async () => {
    const browser = fakeBrowser('default', false);
    browser.requestPermission.mockResolvedValue('denied');
    const fetchMock = vi.spyOn(globalThis, 'fetch');
    expect(await turnOnNotifications()).toBe('blocked');
    expect(browser.subscribe).not.toHaveBeenCalled();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('unsubscribes this device on the server and in the browser', async () => {
    const browser = fakeBrowser('granted', true);
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValue(json({ ok: true }));
    await turnOffNotifications();
    const call = fetchMock.mock.calls[0];
    expect(call?.[0]).toBe('/api/v1/parent/push/subscriptions');
    expect(call?.[1]?.method).toBe('DELETE');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ endpoint: subscriptionJson.endpoint });
    expect(browser.current()).toBeNull();
  });
});
