// A push service on loopback for the bench: accepts every Web Push request (201) and counts those that
// are well formed (VAPID authorisation, aes128gcm body, TTL). The API tests' fake push service goes
// further and decrypts each payload; here only the time to drain the outbox matters.
import { createECDH, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DeviceKeys {
  p256dh: string;
  auth: string;
}

/** The keys of a browser's subscription: a P-256 public key and a 16-byte auth secret, base64url. */
function deviceKeys(): DeviceKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

export interface FakePushService {
  base: string;
  keys: DeviceKeys;
  state: { accepted: number; malformed: number; first: number; last: number };
  /** When the first well-formed push to each endpoint path (`/push/…`) was accepted (performance.now()). */
  arrivals: Map<string, number>;
  /** Resolves with the time of the last one when `count` pushes have been accepted; rejects after `timeoutMs`. */
  waitFor: (count: number, timeoutMs: number) => Promise<number>;
  close: () => Promise<void>;
}

export async function startFakePushService(): Promise<FakePushService> {
  const state = { accepted: 0, malformed: 0, first: 0, last: 0 };
  const arrivals = new Map<string, number>();
  const waiters: (() => void)[] = [];
  const server = createServer((request, response) => {
    let bytes = 0;
    request.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    request.on('end', () => {
      const ok =
        request.method === 'POST' &&
        /^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=[\w-]+$/.test(request.headers.authorization ?? '') &&
        request.headers['content-encoding'] === 'aes128gcm' &&
        request.headers.ttl !== undefined &&
        bytes > 0;
      if (ok) {
        state.accepted += 1;
        state.last = performance.now();
        if (state.first === 0) state.first = state.last;
        if (!arrivals.has(request.url ?? '')) arrivals.set(request.url ?? '', state.last);
      } else state.malformed += 1;
      response.writeHead(ok ? 201 : 400).end();
      for (const waiter of [...waiters]) waiter();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}/push`,
    keys: deviceKeys(),
    state,
    arrivals,
    waitFor(count, timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`only ${state.accepted} of ${count} pushes arrived`)),
          timeoutMs,
        );
        const check = () => {
          if (state.accepted < count) return;
          clearTimeout(timer);
          waiters.splice(waiters.indexOf(check), 1);
          resolve(state.last);
        };
        waiters.push(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
