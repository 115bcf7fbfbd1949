import type { LookupAddress, LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { RequestDetails } from 'web-push';

/**
 * A `lookup` for the connection that answers only the addresses already checked, whatever it is
 * asked: the socket cannot reach an address the check did not see (DNS rebinding). Both calling
 * forms are served: one address, or all of them (Node's happy-eyeballs connect asks for all).
 */
export function pinnedLookup(addresses: readonly LookupAddress[]): LookupFunction {
  return (_hostname: string, options: LookupOptions, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
    const usable = addresses.filter((entry) => wanted === undefined || entry.family === wanted);
    if (usable.length === 0) {
      const error = Object.assign(new Error('no checked address of the requested family'), { code: 'ENOTFOUND' });
      callback(error, '', undefined);
      return;
    }
    if (options.all)
      callback(
        null,
        usable.map((entry) => ({ ...entry })),
      );
    else callback(null, (usable[0] as LookupAddress).address, (usable[0] as LookupAddress).family);
  };
}

/** Keep-alive pools: a socket in them was connected to an address that passed the check. */
export interface PushAgents {
  http: http.Agent;
  https: https.Agent;
}

export function createPushAgents(maxSockets: number): PushAgents {
  return {
    http: new http.Agent({ keepAlive: true, maxSockets }),
    https: new https.Agent({ keepAlive: true, maxSockets }),
  };
}

/** A push service answers with a status and a short body; more than this is not a push service. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs the request web-push prepared (encrypted body, VAPID header) to `url`, connecting only to
 * `addresses`; TLS SNI and the Host header stay the endpoint's host name, so the certificate is
 * checked for that name. Redirects are not followed (a push service answers, it does not redirect).
 * Answers the status; the body is read and dropped (never shown anywhere). `signal` is the deadline.
 */
export function postPush(
  url: URL,
  addresses: readonly LookupAddress[],
  request: RequestDetails,
  agents: PushAgents,
  signal: AbortSignal,
): Promise<number> {
  const isHttps = url.protocol === 'https:';
  const send = isHttps ? https.request : http.request;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = String(value);
  }
  return new Promise<number>((resolve, reject) => {
    const outgoing = send(
      url,
      {
        method: 'POST',
        headers,
        agent: isHttps ? agents.https : agents.http,
        lookup: pinnedLookup(addresses),
        signal,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          // Not worth reading further, nor keeping the socket for.
          if (size > MAX_RESPONSE_BYTES) response.destroy();
        });
        response.on('end', () => resolve(status));
        response.on('close', () => resolve(status));
        response.on('error', () => resolve(status));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}
