import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { isLoopbackAddress, nonPublicReason, unbracket } from '../../lib/public-address';

/**
 * Where the server may send a push. A parent's browser hands the server an endpoint and the server
 * POSTs to it, so an endpoint is a way to make the server send requests: only public push services'
 * hosts, by name, over https on port 443 (ADR 018).
 */

export interface EndpointPolicy {
  /**
   * Tests only (PUSH_ALLOW_LOOPBACK_ENDPOINTS_FOR_TESTS): the fake push service listens on loopback,
   * plain http, on a port of its own. With the switch, plain http and any port are accepted, and a
   * host written as a loopback literal or `localhost` is allowed. Every other rule still holds: a
   * host name must still be public and resolve only to public addresses (loopback included), which
   * is what lets the rebinding tests aim a name at the fake and see that nothing arrives.
   */
  allowLoopbackForTests: boolean;
}

export type EndpointCheck = { ok: true; url: URL; hostname: string } | { ok: false; problem: string };

/**
 * Names that never lead to a public push service: RFC 6761/6762/8375/9476 special-use names, and the
 * suffixes networks commonly use for their own hosts (ICANN will not delegate them, RFC 9476 and
 * SAC113 `.internal`). `.arpa` holds reverse-lookup and home.arpa names, never a push service.
 */
const SPECIAL_USE_SUFFIXES = [
  'localhost',
  'local',
  'localdomain',
  'internal',
  'intranet',
  'private',
  'corp',
  'home',
  'lan',
  'test',
  'example',
  'invalid',
  'onion',
  'alt',
  'arpa',
];

export const ENDPOINT_PROBLEMS = {
  notHttps: 'must be an https URL',
  userinfo: 'must not contain a user name or password',
  port: 'must use the standard https port (443)',
  ipLiteral: "must name the push service's host, not an IP address",
  localhost: "must name a push service's host, not this computer (localhost)",
  singleLabel: "must name a push service's full host name, such as fcm.googleapis.com",
  specialUse: "must name a push service's public host, not a local or reserved name such as .local or .internal",
} as const;

/** A loopback literal or `localhost`: what the test-only switch lets through. */
function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost') return true;
  const literal = unbracket(hostname);
  return isIP(literal) !== 0 && isLoopbackAddress(literal);
}

/**
 * The endpoint's shape, without any DNS: the same answer on a machine with no network as on one
 * with (real push hosts need not resolve here to be accepted). The WHATWG parser has already turned
 * every IPv4 notation (2130706433, 0x7f000001, 0177.0.0.1, 127.1) into dotted form, so `isIP` on
 * the parsed host sees through all of them; an IPv6 host is always in brackets.
 */
export function checkEndpointUrl(endpoint: string, policy: EndpointPolicy): EndpointCheck {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return { ok: false, problem: ENDPOINT_PROBLEMS.notHttps };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, problem: ENDPOINT_PROBLEMS.notHttps };
  if (url.username !== '' || url.password !== '') return { ok: false, problem: ENDPOINT_PROBLEMS.userinfo };
  // A trailing dot names the same host: `localhost.` is localhost.
  const hostname = url.hostname.toLowerCase().replace(/\.$/, '');
  const forTests = policy.allowLoopbackForTests;
  if (forTests && isLoopbackHost(hostname)) return { ok: true, url, hostname };
  if (url.protocol !== 'https:' && !forTests) return { ok: false, problem: ENDPOINT_PROBLEMS.notHttps };
  // The parser drops an explicit :443, so any port left is another one.
  if (url.port !== '' && !forTests) return { ok: false, problem: ENDPOINT_PROBLEMS.port };
  if (hostname.startsWith('[') || isIP(hostname) !== 0) return { ok: false, problem: ENDPOINT_PROBLEMS.ipLiteral };
  const labels = hostname.split('.');
  const last = labels[labels.length - 1] as string;
  if (last === 'localhost') return { ok: false, problem: ENDPOINT_PROBLEMS.localhost };
  if (labels.length < 2 || labels.some((label) => label === '')) {
    return { ok: false, problem: ENDPOINT_PROBLEMS.singleLabel };
  }
  if (SPECIAL_USE_SUFFIXES.includes(last)) return { ok: false, problem: ENDPOINT_PROBLEMS.specialUse };
  return { ok: true, url, hostname };
}

/** Resolves a host name to every address it has (dns.lookup with `all`), or throws. */
export type LookupHost = (hostname: string) => Promise<LookupAddress[]>;

export type Destination =
  | { ok: true; url: URL; hostname: string; addresses: LookupAddress[] }
  | { ok: false; kind: 'refused'; problem: string }
  | { ok: false; kind: 'unresolved'; problem: string };

/**
 * Send-time check, on every attempt: the endpoint's shape again (rows stored before these rules, or
 * by hand), then the host's addresses. Every address must be public, since a connection may go to
 * any of them; the caller connects only to these checked addresses, so a DNS answer that changes
 * before the connection is made (rebinding) is never used.
 */
export async function resolveDestination(
  endpoint: string,
  policy: EndpointPolicy,
  lookup: LookupHost,
): Promise<Destination> {
  const checked = checkEndpointUrl(endpoint, policy);
  if (!checked.ok) return { ok: false, kind: 'refused', problem: `endpoint ${checked.problem}` };
  const { url, hostname } = checked;
  const literal = unbracket(hostname);
  if (isIP(literal) !== 0) {
    // Only a loopback literal passes the shape check, and only under the test-only switch.
    return { ok: true, url, hostname, addresses: [{ address: literal, family: isIP(literal) }] };
  }
  let addresses: LookupAddress[];
  try {
    addresses = await lookup(hostname);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return {
      ok: false,
      kind: 'unresolved',
      problem: `DNS lookup failed${typeof code === 'string' ? ` (${code})` : ''}`,
    };
  }
  if (addresses.length === 0) return { ok: false, kind: 'unresolved', problem: 'DNS lookup found no address' };
  for (const { address } of addresses) {
    const reason =
      policy.allowLoopbackForTests && hostname === 'localhost'
        ? isLoopbackAddress(address)
          ? undefined
          : 'localhost that is not loopback'
        : nonPublicReason(address);
    if (reason !== undefined) {
      return { ok: false, kind: 'refused', problem: `${hostname} resolves to ${address}: ${reason}` };
    }
  }
  return { ok: true, url, hostname, addresses };
}
