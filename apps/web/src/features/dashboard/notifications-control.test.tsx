import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, renderPage } from '../../testing';
import { ALLOW_NOTIFICATIONS, NotificationsControl } from './notifications-control';

const KEY_BYTES = new Uint8Array(65).map((_, index) => (index * 11 + 4) % 256);
const PUBLIC_KEY = btoa(String.fromCharCode(...KEY_BYTES))
  .replace(/\+/g, '-')
  .replace(/\//g, '_')
  .replace(/=+$/, '');

interface FakeSubscription {
  endpoint: string;
  options: { applicationServerKey: ArrayBuffer | null };
  toJSON: () => object;
  unsubscribe: () => Promise<boolean>;
}

/**
 * The browser as the console sees it once installed: its service worker at scope /, push, and a
 * permission the user answers with `answer`. Records what the page asked of it.
 */
function fakeBrowser(answer: NotificationPermission) {
  const asked: string[] = [];
  let subscription: FakeSubscription | null = null;
  const pushManager = {
    getSubscription: async () => subscription,
    subscribe: async (options: { applicationServerKey: Uint8Array }) => {
      asked.push('subscribe');
      expect(options.applicationServerKey).toEqual(KEY_BYTES);
      subscription = {
        endpoint: 'https://fcm.googleapis.com/fcm/send/teacher-phone',
        options: { applicationServerKey: options.applicationServerKey.buffer as ArrayBuffer },
        toJSON: () => ({
          endpoint: 'https://fcm.googleapis.com/fcm/send/teacher-phone',
          keys: { p256dh: 'p'.repeat(87), auth: 'a'.repeat(22) },
        }),
        unsubscribe: async () => {
          asked.push('unsubscribe');
          subscription = null;
          return true;
        },
      };
      return subscription;
    },
  };
  const registration = { scope: 'http://localhost/', pushManager };
  const notification = {
    permission: 'default' as NotificationPermission,
    requestPermission: async () => {
      asked.push('permission');
      notification.permission = answer;
      return answer;
    },
  };
  vi.stubGlobal('Notification', notification);
  vi.stubGlobal('PushManager', function PushManager() {});
  vi.stubGlobal('isSecureContext', true);
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { getRegistration: async () => registration },
  });
  return asked;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('Allow notifications on this device', () => {
  it("asks on the tap, subscribes with the centre's key, registers the device for the account; then offers to turn them off", async () => {
    const user = userEvent.setup({ delay: null });
    const asked = fakeBrowser('granted');
    const { calls } = fakeApi({
      'GET /staff/push/public-key': () => [200, { public_key: PUBLIC_KEY }],
      'POST /staff/push/subscriptions': () => [201, { ok: true }],
      'DELETE /staff/push/subscriptions': () => [200, { ok: true }],
    });
    renderPage(<NotificationsControl />, { signedInAs: 'teacher' });
    await user.click(await screen.findByRole('button', { name: ALLOW_NOTIFICATIONS }));
    expect(await screen.findByText('Notifications on: you will be reminded of classes not marked')).toBeInTheDocument();
    expect(asked).toEqual(['permission', 'subscribe']);
    const posted = calls.filter((call) => call.method === 'POST' && call.path === '/staff/push/subscriptions');
    expect(posted.map((call) => call.body)).toEqual([
      {
        endpoint: 'https://fcm.googleapis.com/fcm/send/teacher-phone',
        keys: { p256dh: 'p'.repeat(87), auth: 'a'.repeat(22) },
      },
    ]);
    expect(posted[0]?.headers.get('authorization')).toMatch(/^Bearer /);

    await user.click(screen.getByRole('button', { name: 'Turn off notifications on this device' }));
    expect(await screen.findByText('Notifications turned off on this device')).toBeInTheDocument();
    const removed = calls.filter((call) => call.method === 'DELETE');
    expect(removed.map((call) => call.body)).toEqual([
      { endpoint: 'https://fcm.googleapis.com/fcm/send/teacher-phone' },
    ]);
    expect(asked).toEqual(['permission', 'subscribe', 'unsubscribe']);
    expect(await screen.findByRole('button', { name: ALLOW_NOTIFICATIONS })).toBeInTheDocument();
  });

  it('says where to look when the browser blocks them, and registers nothing', async () => {
    const user = userEvent.setup({ delay: null });
    const asked = fakeBrowser('denied');
    const { calls } = fakeApi({});
    renderPage(<NotificationsControl />, { signedInAs: 'teacher' });
    await user.click(await screen.findByRole('button', { name: ALLOW_NOTIFICATIONS }));
    expect(
      await screen.findByText("Notifications are blocked for this site in the browser's settings."),
    ).toBeInTheDocument();
    expect(asked).toEqual(['permission']);
    expect(calls.filter((call) => call.path.startsWith('/staff/push'))).toEqual([]);
  });

  it('shows nothing where the console cannot take notifications (no installed service worker)', async () => {
    fakeApi({});
    renderPage(
      <>
        <NotificationsControl />
        <p>rendered</p>
      </>,
      { signedInAs: 'teacher' },
    );
    await screen.findByText('rendered');
    await waitFor(() => expect(screen.queryByRole('button', { name: ALLOW_NOTIFICATIONS })).toBeNull());
  });
});
