import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  type ECDH,
  hkdfSync,
  randomBytes,
  randomUUID,
  verify,
} from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A device as a browser makes it: a P-256 key pair and a 16-byte auth secret (the Push API's
 * `p256dh` and `auth`), with an endpoint on the fake push service.
 */
export interface FakeDevice {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** The browser's side: never leaves the device (here, the test). */
  ecdh: ECDH;
  authSecret: Buffer;
}

/** One push the service accepted (and decrypted, as the browser would). */
export interface ReceivedPush {
  endpoint: string;
  headers: IncomingMessage['headers'];
  bodyLength: number;
  /** The VAPID public key (k=) the request was signed with. */
  vapidKey: string;
  jwt: { aud: string; exp: number; sub: string };
  plaintext: string;
}

/** What the service does for an endpoint instead of accepting: answer a status, or stall. */
export type Behaviour = { status: number } | { status: number; times: number } | 'slow';

/** A request the service refused for being wrong (bad signature, headers, or cipher text). */
export interface RejectedPush {
  endpoint: string;
  reason: string;
}

const MAX_BODY = 4096;

/**
 * A Web Push service on loopback that checks what a real one checks (RFC 8030 headers, the VAPID
 * signature of RFC 8292) and decrypts the body per RFC 8291 (aes128gcm, RFC 8188) with the device's
 * keys, so a test sees exactly what the service worker would.
 */
export class FakePushService {
  readonly received: ReceivedPush[] = [];
  readonly rejected: RejectedPush[] = [];
  /** Every request, accepted or not, by endpoint. */
  readonly attempts = new Map<string, number>();
  /** Every request that reached this service, with the Host it named: what got through, whatever its endpoint said. */
  readonly requests: { host: string | undefined; path: string }[] = [];
  private readonly devices = new Map<string, FakeDevice>();
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly stalled = new Set<ServerResponse>();

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<FakePushService> {
    let service: FakePushService | undefined;
    const server = createServer((request, response) => {
      void service?.handle(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    service = new FakePushService(server, `http://127.0.0.1:${port}`);
    return service;
  }

  /**
   * A new browser subscription on this service. `origin` puts another host name in the endpoint (the
   * path is what the service knows a device by), for tests that aim a name at this service by DNS.
   */
  createDevice(origin = this.origin): FakeDevice {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const authSecret = randomBytes(16);
    const device: FakeDevice = {
      endpoint: `${origin}/push/${randomUUID()}`,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: authSecret.toString('base64url') },
      ecdh,
      authSecret,
    };
    this.devices.set(new URL(device.endpoint).pathname, device);
    return device;
  }

  /** From now on, answer this endpoint so (`times` answers, then accept again). */
  behave(endpoint: string, behaviour: Behaviour | undefined): void {
    if (behaviour === undefined) this.behaviours.delete(endpoint);
    else this.behaviours.set(endpoint, behaviour);
  }

  receivedBy(endpoint: string): ReceivedPush[] {
    return this.received.filter((push) => push.endpoint === endpoint);
  }

  async close(): Promise<void> {
    for (const response of this.stalled) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of request) {
      size += (chunk as Buffer).length;
      if (size <= MAX_BODY + 1) chunks.push(chunk as Buffer);
    }
    const body = Buffer.concat(chunks);
    this.requests.push({ host: request.headers.host, path: request.url ?? '' });
    const endpoint = `${this.origin}${request.url}`;
    this.attempts.set(endpoint, (this.attempts.get(endpoint) ?? 0) + 1);

    const behaviour = this.behaviours.get(endpoint);
    if (behaviour === 'slow') {
      this.stalled.add(response);
      response.on('close', () => this.stalled.delete(response));
      return;
    }
    if (behaviour) {
      if ('times' in behaviour) {
        if (behaviour.times <= 1) this.behaviours.delete(endpoint);
        else this.behaviours.set(endpoint, { ...behaviour, times: behaviour.times - 1 });
      }
      response.writeHead(behaviour.status).end();
      return;
    }

    const device = this.devices.get(request.url ?? '');
    if (request.method !== 'POST' || !device) {
      response.writeHead(404).end();
      return;
    }
    if (size > MAX_BODY) return this.reject(response, endpoint, 413, `body of ${size} bytes exceeds 4096`);
    try {
      const vapid = checkVapid(request.headers.authorization, this.origin);
      checkHeaders(request.headers, size);
      const plaintext = decryptAes128gcm(body, device).toString('utf8');
      this.received.push({
        endpoint,
        headers: request.headers,
        bodyLength: size,
        vapidKey: vapid.key,
        jwt: vapid.claims,
        plaintext,
      });
      response.writeHead(201, { location: `${this.origin}/message/${randomUUID()}` }).end();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const status = reason.startsWith('VAPID') ? 403 : 400;
      return this.reject(response, endpoint, status, reason);
    }
  }

  private reject(response: ServerResponse, endpoint: string, status: number, reason: string): void {
    this.rejected.push({ endpoint, reason });
    response.writeHead(status, { 'content-type': 'text/plain' }).end(reason);
  }
}

/** RFC 8292: `vapid t=<JWT>, k=<public key>`; ES256 over the key; aud = origin; exp within 24 h; sub set. */
function checkVapid(
  header: string | undefined,
  origin: string,
): { key: string; claims: { aud: string; exp: number; sub: string } } {
  const match = header ? /^vapid\s+t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header) : null;
  if (!match) throw new Error(`VAPID: Authorization is not "vapid t=…, k=…": ${header ?? '(none)'}`);
  const [, token, key] = match as unknown as [string, string, string];
  const parts = token.split('.');
  if (parts.length !== 3) throw new Error('VAPID: t is not a JWT');
  const [headerPart, claimsPart, signaturePart] = parts as [string, string, string];
  const jwtHeader = JSON.parse(Buffer.from(headerPart, 'base64url').toString('utf8')) as { alg?: string };
  if (jwtHeader.alg !== 'ES256') throw new Error(`VAPID: alg is ${jwtHeader.alg}, not ES256`);
  const raw = Buffer.from(key, 'base64url');
  if (raw.length !== 65 || raw[0] !== 4) throw new Error('VAPID: k is not an uncompressed P-256 point');
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${headerPart}.${claimsPart}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signaturePart, 'base64url'),
  );
  if (!signed) throw new Error('VAPID: the signature does not verify with k');
  const claims = JSON.parse(Buffer.from(claimsPart, 'base64url').toString('utf8')) as {
    aud: string;
    exp: number;
    sub: string;
  };
  if (claims.aud !== origin) throw new Error(`VAPID: aud ${claims.aud} is not ${origin}`);
  const now = Date.now() / 1000;
  if (!(claims.exp > now && claims.exp <= now + 24 * 3600)) throw new Error('VAPID: exp is not within 24 hours');
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) {
    throw new Error('VAPID: sub is not a mailto: or https: contact');
  }
  return { key, claims };
}

/** RFC 8030: TTL is required; RFC 8291: the body is aes128gcm. */
function checkHeaders(headers: IncomingMessage['headers'], size: number): void {
  if (headers.ttl === undefined || !/^\d+$/.test(String(headers.ttl))) throw new Error('TTL header missing');
  if (headers['content-encoding'] !== 'aes128gcm') {
    throw new Error(`Content-Encoding is ${headers['content-encoding']}, not aes128gcm`);
  }
  if (headers.urgency !== undefined && !['very-low', 'low', 'normal', 'high'].includes(String(headers.urgency))) {
    throw new Error(`Urgency ${headers.urgency} is not valid`);
  }
  if (size === 0) throw new Error('empty body');
}

/** RFC 8291 section 3.4 + RFC 8188: what the browser does with a push body. */
export function decryptAes128gcm(body: Buffer, device: { ecdh: ECDH; authSecret: Buffer }): Buffer {
  if (body.length < 21) throw new Error('body shorter than the aes128gcm header');
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20] as number;
  if (idLength !== 65) throw new Error(`keyid is ${idLength} bytes, not a 65-byte P-256 key`);
  const senderPublicKey = body.subarray(21, 21 + idLength);
  const cipherText = body.subarray(21 + idLength);
  if (recordSize < 18) throw new Error(`record size ${recordSize} is too small`);

  const userPublicKey = device.ecdh.getPublicKey();
  const sharedSecret = device.ecdh.computeSecret(senderPublicKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), userPublicKey, senderPublicKey]);
  const ikm = Buffer.from(hkdfSync('sha256', sharedSecret, device.authSecret, keyInfo, 32));
  const contentKey = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const baseNonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));

  const plaintexts: Buffer[] = [];
  let sequence = 0;
  for (let start = 0; start < cipherText.length; start += recordSize) {
    const record = cipherText.subarray(start, start + recordSize);
    const last = start + recordSize >= cipherText.length;
    if (record.length < 17) throw new Error('record shorter than its tag');
    // The record's nonce: the base nonce XOR the record sequence number (big-endian, last bytes).
    const nonce = Buffer.from(baseNonce);
    for (let byte = 0; byte < 4; byte += 1) {
      nonce[11 - byte] = (nonce[11 - byte] as number) ^ ((sequence >>> (8 * byte)) & 0xff);
    }
    const decipher = createDecipheriv('aes-128-gcm', contentKey, nonce);
    decipher.setAuthTag(record.subarray(record.length - 16));
    const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
    // Padding: the data, then one delimiter (2 on the last record, 1 on others), then zeros.
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end -= 1;
    if (end < 0) throw new Error('record has no padding delimiter');
    const delimiter = padded[end];
    if (delimiter !== (last ? 2 : 1))
      throw new Error(`padding delimiter ${delimiter} on ${last ? 'last' : 'a'} record`);
    plaintexts.push(padded.subarray(0, end));
    sequence += 1;
  }
  return Buffer.concat(plaintexts);
}
