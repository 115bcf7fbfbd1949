import { describe, expect, it } from 'vitest';
import { isLoopbackAddress, isPublicAddress, nonPublicReason } from '../src/lib/public-address';
import { pinnedLookup } from '../src/modules/delivery/push-transport';

/** Where the server must never connect on a parent's say-so, each with the range that says why. */
const NOT_PUBLIC: [address: string, reason: RegExp][] = [
  // IPv4
  ['0.0.0.0', /this network/],
  ['0.1.2.3', /this network/],
  ['10.0.0.1', /private/],
  ['10.255.255.255', /private/],
  ['100.64.0.1', /carrier-grade NAT/],
  ['100.127.255.254', /carrier-grade NAT/],
  ['127.0.0.1', /loopback/],
  ['127.255.255.254', /loopback/],
  ['169.254.169.254', /link-local/],
  ['169.254.0.1', /link-local/],
  ['172.16.0.1', /private/],
  ['172.31.255.255', /private/],
  ['192.0.0.8', /IETF protocol/],
  ['192.0.2.10', /documentation/],
  ['192.88.99.1', /6to4 relay/],
  ['192.168.1.1', /private/],
  ['198.18.0.1', /benchmarking/],
  ['198.19.255.255', /benchmarking/],
  ['198.51.100.7', /documentation/],
  ['203.0.113.9', /documentation/],
  ['224.0.0.1', /multicast/],
  ['239.255.255.250', /multicast/],
  ['240.0.0.1', /reserved/],
  ['255.255.255.255', /reserved/],
  // IPv6
  ['::', /unspecified/],
  ['::1', /loopback/],
  ['0:0:0:0:0:0:0:1', /loopback/],
  ['::127.0.0.1', /reserved/],
  ['::ffff:0:7f00:1', /reserved/],
  ['100::1', /reserved/],
  ['fc00::1', /unique-local/],
  ['fd12:3456:789a::1', /unique-local/],
  ['fe80::1', /link-local/],
  ['febf::1', /link-local/],
  ['fec0::1', /site-local/],
  ['ff02::1', /multicast/],
  ['ff05::1:3', /multicast/],
  ['2001:db8::1', /documentation/],
  ['3fff::1', /documentation/],
  ['2001::1', /Teredo/],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', /Teredo/],
  ['2001:2::1', /benchmarking/],
  ['2001:10::1', /ORCHID/],
  ['64:ff9b:1::1', /reserved/],
  ['fe80::1%eth0', /scoped/],
  ['2606:4700::1111%1', /scoped/],
  // IPv4 inside IPv6: judged by the IPv4 address the connection really reaches.
  ['::ffff:127.0.0.1', /IPv4-mapped loopback/],
  ['::ffff:7f00:1', /IPv4-mapped loopback/],
  ['::FFFF:169.254.169.254', /IPv4-mapped link-local/],
  ['::ffff:10.0.0.1', /IPv4-mapped private/],
  ['64:ff9b::7f00:1', /NAT64 loopback/],
  ['64:ff9b::169.254.169.254', /NAT64 link-local/],
  ['64:ff9b::c0a8:101', /NAT64 private/],
  ['2002:7f00:1::1', /6to4 loopback/],
  ['2002:a9fe:a9fe::1', /6to4 link-local/],
  ['2002:c0a8:101::', /6to4 private/],
  // Not an address at all.
  ['fcm.googleapis.com', /not an IP address/],
  ['', /not an IP address/],
  ['127.1', /not an IP address/],
];

/** Real push services' addresses (and other plainly public ones). */
const PUBLIC = [
  '142.250.180.10',
  '34.117.237.239',
  '17.253.144.10',
  '52.96.0.1',
  '8.8.8.8',
  '1.1.1.1',
  '100.63.255.255',
  '100.128.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '192.0.1.255',
  '192.169.0.1',
  '198.17.255.255',
  '198.20.0.1',
  '223.255.255.255',
  '2a00:1450:4009:81f::200a',
  '2620:149:a44::10',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
  '2002:808:808::1',
];

describe('public addresses (where a push may go)', () => {
  it.each(NOT_PUBLIC)('refuses %s', (address, reason) => {
    expect(isPublicAddress(address)).toBe(false);
    expect(nonPublicReason(address)).toMatch(reason);
  });

  it.each(PUBLIC)('accepts %s', (address) => {
    expect(nonPublicReason(address)).toBeUndefined();
    expect(isPublicAddress(address)).toBe(true);
  });

  it('knows loopback in each of its forms, and nothing else as loopback', () => {
    for (const address of ['127.0.0.1', '127.9.8.7', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '::ffff:7f00:2']) {
      expect(isLoopbackAddress(address), address).toBe(true);
    }
    for (const address of ['128.0.0.1', '::2', '::', '10.0.0.1', '169.254.169.254', 'localhost', '64:ff9b::7f00:1']) {
      expect(isLoopbackAddress(address), address).toBe(false);
    }
  });
});

describe('the pinned lookup the push connection uses', () => {
  const checked = [
    { address: '93.184.215.14', family: 4 },
    { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
  ];

  function ask(options: { all?: boolean; family?: number }) {
    return new Promise<{ error: unknown; address: unknown; family: unknown }>((resolve) =>
      pinnedLookup(checked)('127.0.0.1.nip.io', options, (error, address, family) =>
        resolve({ error, address, family }),
      ),
    );
  }

  it('answers only the checked addresses, whatever name it is asked for', async () => {
    expect(await ask({ all: true })).toEqual({ error: null, address: checked, family: undefined });
    expect(await ask({})).toEqual({ error: null, address: '93.184.215.14', family: 4 });
    expect(await ask({ family: 6 })).toEqual({ error: null, address: checked[1]?.address, family: 6 });
    expect(await ask({ all: true, family: 4 })).toMatchObject({ address: [checked[0]] });
  });

  it('fails rather than look further when no checked address is of the family asked for', async () => {
    const only4 = await new Promise<unknown>((resolve) =>
      pinnedLookup([{ address: '93.184.215.14', family: 4 }])('x.example.com', { family: 6 }, (error) =>
        resolve(error),
      ),
    );
    expect(only4).toMatchObject({ code: 'ENOTFOUND' });
  });
});
