import { BlockList, isIP } from 'node:net';

/**
 * Which IP addresses the server may connect to because a stranger named them (a parent's push
 * endpoint): globally routable unicast ones only. Everything else reaches the centre's own network,
 * this computer, a cloud metadata service or nothing useful. From the IANA special-purpose address
 * registries (RFC 6890 and its updates); see ADR 018.
 */

type Range = readonly [network: string, prefix: number, what: string];

const IPV4_NOT_PUBLIC: readonly Range[] = [
  ['0.0.0.0', 8, '"this network" (0.0.0.0 reaches this computer)'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared address space (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata services answer at 169.254.169.254)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay anycast (deprecated)'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved (and the broadcast address)'],
];

/**
 * IPv6 is public only inside global unicast 2000::/3, less these parts of it. Outside it lie ::,
 * ::1, the IPv4-compatible and -translated forms, discard-only 100::/64, NAT64 local-use
 * 64:ff9b:1::/48, unique-local fc00::/7, link-local fe80::/10, site-local fec0::/10 and multicast
 * ff00::/8; the two forms that carry a public IPv4 address (mapped, well-known NAT64) are judged by it.
 */
const IPV6_GLOBAL_UNICAST: Range = ['2000::', 3, 'global unicast'];
const IPV6_NOT_PUBLIC_IN_GLOBAL: readonly Range[] = [
  // Teredo 2001::/32 (its tunnel reaches an IPv4 address the server cannot check), benchmarking
  // 2001:2::/48, ORCHID: none of it is a push service.
  ['2001::', 23, 'IETF protocol assignments (Teredo, benchmarking, ORCHID)'],
  ['2001:db8::', 32, 'documentation'],
  ['3fff::', 20, 'documentation'],
];

/** One BlockList per range, so a refusal can say which range the address is in. */
function rangesOf(ranges: readonly Range[], family: 'ipv4' | 'ipv6') {
  return ranges.map(([network, prefix, what]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, family);
    return { what, contains: (address: string) => list.check(address, family) };
  });
}

const ipv4NotPublic = rangesOf(IPV4_NOT_PUBLIC, 'ipv4');
const [ipv6Global] = rangesOf([IPV6_GLOBAL_UNICAST], 'ipv6') as [ReturnType<typeof rangesOf>[number]];
const ipv6NotPublicInGlobal = rangesOf(IPV6_NOT_PUBLIC_IN_GLOBAL, 'ipv6');

/** The 16 bytes of an IPv6 address (already checked by isIP), the dotted-quad tail included. */
function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase();
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const headGroups = parse(head);
  const tailGroups = tail === undefined ? [] : parse(tail);
  const groups = [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill(0), ...tailGroups];
  return groups.flatMap((group) => [group >> 8, group & 0xff]);
}

function ipv4Of(bytes: number[], start: number): string {
  return bytes.slice(start, start + 4).join('.');
}

function startsWith(bytes: number[], prefix: readonly number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

const MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];
const NAT64_PREFIX = [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0];
const SIX_TO_FOUR_PREFIX = [0x20, 0x02];

function ipv4Problem(address: string): string | undefined {
  return ipv4NotPublic.find((range) => range.contains(address))?.what;
}

/**
 * Why the server must not connect to `address`, or undefined when it is a public unicast address.
 * Anything that is not a plain IP address (a scope id such as `fe80::1%eth0`, a name) is refused.
 */
export function nonPublicReason(address: string): string | undefined {
  // A scope id (fe80::1%eth0) names an interface of this computer: never a stranger's to choose.
  if (address.includes('%')) return 'a scoped address';
  const version = isIP(address);
  if (version === 0) return 'not an IP address';
  if (version === 4) return ipv4Problem(address);
  const bytes = ipv6Bytes(address);
  // Forms that carry an IPv4 address: the connection ends at that address, so it is what counts.
  if (startsWith(bytes, MAPPED_PREFIX)) return prefixed('IPv4-mapped', ipv4Problem(ipv4Of(bytes, 12)));
  if (startsWith(bytes, NAT64_PREFIX)) return prefixed('NAT64', ipv4Problem(ipv4Of(bytes, 12)));
  if (startsWith(bytes, SIX_TO_FOUR_PREFIX)) return prefixed('6to4', ipv4Problem(ipv4Of(bytes, 2)));
  if (!ipv6Global.contains(address)) return describeIpv6(bytes);
  return ipv6NotPublicInGlobal.find((range) => range.contains(address))?.what;
}

function prefixed(form: string, problem: string | undefined): string | undefined {
  return problem === undefined ? undefined : `${form} ${problem}`;
}

function describeIpv6(bytes: number[]): string {
  const first = bytes[0] as number;
  const second = bytes[1] as number;
  if (bytes.every((byte) => byte === 0)) return 'unspecified';
  if (bytes.slice(0, 15).every((byte) => byte === 0) && bytes[15] === 1) return 'loopback';
  if ((first & 0xfe) === 0xfc) return 'unique-local';
  if (first === 0xfe && (second & 0xc0) === 0x80) return 'link-local';
  if (first === 0xfe && (second & 0xc0) === 0xc0) return 'site-local (deprecated)';
  if (first === 0xff) return 'multicast';
  return 'reserved';
}

export function isPublicAddress(address: string): boolean {
  return nonPublicReason(address) === undefined;
}

/** 127.0.0.0/8, ::1, or 127.x written as an IPv4-mapped IPv6 address. */
export function isLoopbackAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) return address.split('.')[0] === '127';
  if (version !== 6) return false;
  const bytes = ipv6Bytes(address);
  if (startsWith(bytes, MAPPED_PREFIX)) return bytes[12] === 127;
  return bytes.slice(0, 15).every((byte) => byte === 0) && bytes[15] === 1;
}

/** For a URL hostname: `[::1]` is the IPv6 literal ::1. */
export function unbracket(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}
