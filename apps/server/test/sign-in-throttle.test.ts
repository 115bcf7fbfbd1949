import { Writable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { ConfigError, loadConfig } from '../src/config';
import { Housekeeping } from '../src/lib/housekeeping';
import { deleteExpiredThrottleRows, throttleAddress } from '../src/modules/auth/throttle';
import { enrol, freshCode, wrongCode } from './helpers/authenticator';
import { callerOf, type TestClient, testClient } from './helpers/client';
import { detailOf, familyWithCode, type SignedInTeacher, signInNewTeacher } from './helpers/test-app';

/**
 * The sign-in throttle attacked as an attacker would (ADR 021): guesses sent all at once,
 * from many claimed addresses, behind a reverse proxy that the server trusts. Every request in this
 * file comes through that proxy (127.0.0.1) with an X-Forwarded-For whose first entry the client
 * wrote itself (a new one each time) and whose last entry is the address the proxy saw.
 */

const PROXY = '127.0.0.1';
const WRONG_CODE = 'That code is not right. Enter the current code from your authenticator app, or a recovery code.';
const TOO_MANY = /^Too many sign-in attempts\. Try again in \d+ minutes?\.$/;

let api: TestClient;
let admin: string;
beforeAll(async () => {
  api = await testClient({ config: { trustProxy: [PROXY] } });
  admin = await api.adminToken();
});
afterAll(async () => {
  await api?.close();
});

let addressCounter = 0;
/** An address no other test uses. */
function newAddress(): string {
  addressCounter += 1;
  return `10.${100 + Math.floor(addressCounter / 62_500)}.${Math.floor(addressCounter / 250) % 250}.${(addressCounter % 250) + 1}`;
}

function throughProxy(seenByProxy: string): { headers: Record<string, string>; remoteAddress: string } {
  return { headers: { 'x-forwarded-for': `${newAddress()}, ${seenByProxy}` }, remoteAddress: PROXY };
}

function signIn(fields: Record<string, string>, from: string): Promise<LightMyRequestResponse> {
  return api.anonymous().post('/api/v1/auth/login', undefined, { form: fields, ...throughProxy(from) });
}

function parentSignIn(phone: string, code: string, from: string): Promise<LightMyRequestResponse> {
  return api.anonymous().post('/api/v1/parent/login', { phone, code }, throughProxy(from));
}

/** How many of each status, e.g. {401: 5, 429: 95}. */
function tally(responses: LightMyRequestResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const response of responses) counts[response.statusCode] = (counts[response.statusCode] ?? 0) + 1;
  return counts;
}

function expectTooMany(response: LightMyRequestResponse, maxSeconds: number): void {
  expect(response.statusCode).toBe(429);
  expect(detailOf(response)).toMatch(TOO_MANY);
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
}

const times = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

/** As if the blocks had run out: the database's clock cannot be moved, so the blocks are. */
async function endBlocks(): Promise<void> {
  await api.db.query(
    "UPDATE login_throttle SET blocked_until = now() - interval '1 second' WHERE blocked_until > now()",
  );
}

const newTeacher = (fields: Record<string, unknown> = {}) => signInNewTeacher(api.app, api.db, admin, fields);

/**
 * Failures already counted for an account from addresses it never signed in from, as if a campaign had
 * been going on: a burst then reaches the cross-address threshold (50) after a few hashes instead of 50.
 */
async function campaignSoFar(key: string, count: number): Promise<void> {
  await api.db.query(
    `INSERT INTO login_throttle (key, failures, last_failure_at) VALUES ($1, $2, now())
     ON CONFLICT (key) DO UPDATE SET failures = EXCLUDED.failures, last_failure_at = now()`,
    [key, count],
  );
}

async function failures(key: string): Promise<number | undefined> {
  const [row] = await api.db.query<{ failures: number }>('SELECT failures FROM login_throttle WHERE key = $1', [key]);
  return row?.failures;
}

describe('the client address behind a trusted proxy (TRUST_PROXY)', () => {
  it('is the address the proxy saw, whatever the client wrote before it in X-Forwarded-For', async () => {
    const seen = newAddress();
    const statuses: number[] = [];
    // Each guess claims another first address; none of them moves the count away from `seen`.
    for (let i = 0; i < 6; i += 1)
      statuses.push((await signIn({ username: 'spoofer', password: 'x' }, seen)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const keys = await api.db.query<{ key: string }>(
      "SELECT key FROM login_throttle WHERE key LIKE 'pw:name:spoofer@%'",
    );
    expect(keys).toEqual([{ key: `pw:name:spoofer@${seen}` }]);
    expect(await failures(`ip:${seen}`)).toBe(5);
  });

  it('is the connection address for a client that does not come through the proxy, whatever it claims', async () => {
    const direct = '198.51.100.23';
    const claimed = newAddress();
    const response = await api.anonymous().post('/api/v1/auth/login', undefined, {
      form: { username: 'direct-caller', password: 'wrong' },
      headers: { 'x-forwarded-for': claimed },
      remoteAddress: direct,
    });
    expect(response.statusCode).toBe(401);
    expect(await failures(`ip:${direct}`)).toBe(1);
    expect(await failures(`ip:${claimed}`)).toBeUndefined();
  });

  it.each([
    ['true', /would believe every X-Forwarded-For entry/],
    ['*', /would believe every X-Forwarded-For entry/],
    ['1', /a hop count \(1\) cannot tell a proxy from a client/],
    ['0.0.0.0/0', /is every address/],
    ['10.0.0.1, ::/0', /::\/0 is every address/],
    ['proxy.internal', /is not an address, a CIDR network/],
    ['10.0.0.0/33', /prefix length that is not 0 to 32/],
  ])('refuses TRUST_PROXY=%s at start, saying what to set instead', (value, message) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(message);
  });

  it.each([
    [undefined, false],
    ['false', false],
    ['127.0.0.1', ['127.0.0.1']],
    ['10.0.0.0/8, 2001:db8::/32,loopback', ['10.0.0.0/8', '2001:db8::/32', 'loopback']],
  ])('takes TRUST_PROXY=%s', (value, expected) => {
    expect(loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });
});

describe('bursts of guesses sent at once are checked no further than the limit', () => {
  it('staff password, from one address: 5 checked, 95 refused, and the right password is refused too', async () => {
    const victim = await newTeacher();
    const attacker = newAddress();
    const responses = await Promise.all(
      times(100, (i) => signIn({ username: victim.username, password: `guess-${i}` }, attacker)),
    );
    expect(tally(responses)).toEqual({ 401: 5, 429: 95 });
    expect(await failures(`pw:user:${victim.id}@${attacker}`)).toBe(5);
    expectTooMany(await signIn({ username: victim.username, password: victim.password }, attacker), 60);
  });

  it('counts every name that reaches the account: username and email together', async () => {
    const victim = await newTeacher({ email: `burst-${process.pid}@example.com` });
    const attacker = newAddress();
    const responses = await Promise.all(
      times(100, (i) =>
        signIn(
          { username: i % 2 ? victim.username.toUpperCase() : `BURST-${process.pid}@example.com`, password: 'x' },
          attacker,
        ),
      ),
    );
    expect(tally(responses)).toEqual({ 401: 5, 429: 95 });
  });

  it('staff password, from 100 addresses: 50 checked before the account slows down, the rest told to wait under a minute', async () => {
    const victim = await newTeacher();
    const responses = await Promise.all(
      times(100, (i) => signIn({ username: victim.username, password: `guess-${i}` }, newAddress())),
    );
    expect(tally(responses)).toEqual({ 401: 50, 429: 50 });
    for (const response of responses.filter((r) => r.statusCode === 429)) expectTooMany(response, 60);
  });

  it('two-factor codes at sign-in, with the right password from 100 addresses: 5 codes checked', async () => {
    const victim = await newTeacher();
    const { secret } = await enrol(api.app, victim.token);
    // Ten of the hundred get past the password (40 failures elsewhere so far), all ten with the right one.
    await campaignSoFar(`pw:user:${victim.id}`, 40);
    const responses = await Promise.all(
      times(100, (i) =>
        signIn({ username: victim.username, password: victim.password, otp: wrongCode(secret, i) }, newAddress()),
      ),
    );
    const checked = responses.filter((r) => r.statusCode === 401);
    expect(checked).toHaveLength(5);
    for (const response of checked) expect(detailOf(response)).toBe(WRONG_CODE);
    expect(tally(responses)[429]).toBe(95);
    // A right code from yet another address is refused while the block lasts; the block ends.
    const stranger = newAddress();
    const code = await freshCode(api.db, victim.id, secret);
    expectTooMany(await signIn({ username: victim.username, password: victim.password, otp: code }, stranger), 15 * 60);
    await endBlocks();
    const back = await signIn({ username: victim.username, password: victim.password, otp: code }, stranger);
    expect(back.statusCode).toBe(200);
  });

  it('recovery codes at sign-in, from 100 addresses: 5 checked', async () => {
    const victim = await newTeacher();
    await enrol(api.app, victim.token);
    await campaignSoFar(`pw:user:${victim.id}`, 40);
    const responses = await Promise.all(
      times(100, (i) =>
        signIn(
          { username: victim.username, password: victim.password, otp: `ZZZZZ-${String(i).padStart(5, 'Z')}` },
          newAddress(),
        ),
      ),
    );
    expect(responses.filter((r) => r.statusCode === 401 && detailOf(r) === WRONG_CODE)).toHaveLength(5);
    expect(tally(responses)[429]).toBe(95);
  });

  it('turning two-factor off: 100 guesses at once in one session, 5 checked, and it stays on', async () => {
    const victim = await newTeacher();
    const { secret, token } = await enrol(api.app, victim.token);
    const from = newAddress();
    const responses = await Promise.all(
      times(100, (i) => {
        const body = { current_password: victim.password, otp: wrongCode(secret, i) };
        return api.withToken(token).post('/api/v1/auth/two-factor/disable', body, throughProxy(from));
      }),
    );
    expect(tally(responses)).toEqual({ 400: 5, 429: 95 });
    const [row] = await api.db.query<{ on: boolean }>(
      'SELECT confirmed_at IS NOT NULL AS on FROM user_two_factor WHERE user_id = $1',
      [victim.id],
    );
    expect(row?.on).toBe(true);
  });

  it("parents' access codes: 5 checked from one address, and across addresses up to the phone's threshold", async () => {
    const { phone, code } = await familyWithCode(api.app, admin);
    const home = newAddress();
    expect((await parentSignIn(phone, code, home)).statusCode).toBe(200);
    const attacker = newAddress();
    const fromOne = await Promise.all(
      times(100, (i) => parentSignIn(phone, `ZZZZ-${String(i).padStart(4, 'Z')}`, attacker)),
    );
    expect(tally(fromOne)).toEqual({ 401: 5, 429: 95 });
    // The five from one address count for the phone too; say 40 more came from elsewhere before.
    expect(await failures(`pw:parent:${phone}`)).toBe(5);
    await campaignSoFar(`pw:parent:${phone}`, 45);
    const fromMany = await Promise.all(
      times(100, (i) => parentSignIn(phone, `YYYY-${String(i).padStart(4, 'Y')}`, newAddress())),
    );
    expect(tally(fromMany)).toEqual({ 401: 5, 429: 95 });
    // The parent, at the address they use, is held up by neither.
    expect((await parentSignIn(phone, code, home)).statusCode).toBe(200);
  });
});

describe('no malicious lockout (ASVS 6.3.1)', () => {
  /** A teacher who has signed in from home before. */
  async function ownerAtHome(): Promise<{ victim: SignedInTeacher; home: string }> {
    const victim = await newTeacher();
    const home = newAddress();
    expect((await signIn({ username: victim.username, password: victim.password }, home)).statusCode).toBe(200);
    return { victim, home };
  }

  it('guesses from one address do not keep the right password out from another', async () => {
    const { victim, home } = await ownerAtHome();
    const attacker = newAddress();
    const guesses = await Promise.all(
      times(100, (i) => signIn({ username: victim.username, password: `guess-${i}` }, attacker)),
    );
    expect(tally(guesses)).toEqual({ 401: 5, 429: 95 });
    // The attacker's address is blocked for this account, even with the right password ...
    expectTooMany(await signIn({ username: victim.username, password: victim.password }, attacker), 60);
    // ... but the owner gets in from home and from anywhere else.
    expect((await signIn({ username: victim.username, password: victim.password }, home)).statusCode).toBe(200);
    expect((await signIn({ username: victim.username, password: victim.password }, newAddress())).statusCode).toBe(200);
  });

  it('guesses spread over many addresses slow newcomers down for under a minute, never the addresses the owner uses', async () => {
    const { victim, home } = await ownerAtHome();
    await campaignSoFar(`pw:user:${victim.id}`, 45);
    const guesses = await Promise.all(
      times(15, (i) => signIn({ username: victim.username, password: `spread-${i}` }, newAddress())),
    );
    expect(tally(guesses)).toEqual({ 401: 5, 429: 10 });
    for (const response of guesses.filter((r) => r.statusCode === 429)) expectTooMany(response, 60);
    // The attack goes on: the account stays slowed for addresses it has not signed in from.
    const slowDown = async () =>
      api.db.query("UPDATE login_throttle SET blocked_until = now() + interval '30 seconds' WHERE key = $1", [
        `pw:user:${victim.id}`,
      ]);
    await slowDown();
    // Someone new with the right password is asked to wait, briefly ...
    const newcomer = newAddress();
    expectTooMany(await signIn({ username: victim.username, password: victim.password }, newcomer), 60);
    // ... the owner at home is not held up at all ...
    expect((await signIn({ username: victim.username, password: victim.password }, home)).statusCode).toBe(200);
    // ... and once the wait is over, the newcomer is let in, and their address is the owner's from then on.
    await endBlocks();
    expect((await signIn({ username: victim.username, password: victim.password }, newcomer)).statusCode).toBe(200);
    await slowDown();
    expect((await signIn({ username: victim.username, password: victim.password }, newcomer)).statusCode).toBe(200);
  });

  it('never blocks past its cap however many failures came before, and forgets failures after a quiet hour', async () => {
    const { victim } = await ownerAtHome();
    const from = newAddress();
    const accountAddressKey = `pw:user:${victim.id}@${from}`;
    const accountKey = `pw:user:${victim.id}`;
    await api.db.query(
      `INSERT INTO login_throttle (key, failures, last_failure_at) VALUES ($1, 500, now()), ($2, 5000, now())
       ON CONFLICT (key) DO UPDATE SET failures = EXCLUDED.failures, blocked_until = NULL, last_failure_at = now()`,
      [accountAddressKey, accountKey],
    );
    expect((await signIn({ username: victim.username, password: 'again' }, from)).statusCode).toBe(401);
    const blocks = await api.db.query<{ key: string; seconds: number }>(
      `SELECT key, extract(epoch FROM blocked_until - now())::int AS seconds FROM login_throttle WHERE key = ANY($1::text[])`,
      [[accountAddressKey, accountKey]],
    );
    expect(Object.fromEntries(blocks.map((b) => [b.key, b.seconds <= (b.key === accountKey ? 60 : 15 * 60)]))).toEqual({
      [accountAddressKey]: true,
      [accountKey]: true,
    });
    // An hour without failures: the count starts again at one.
    await endBlocks();
    await api.db.query("UPDATE login_throttle SET last_failure_at = now() - interval '61 minutes' WHERE key = $1", [
      accountAddressKey,
    ]);
    expect((await signIn({ username: victim.username, password: 'once-more' }, from)).statusCode).toBe(401);
    expect(await failures(accountAddressKey)).toBe(1);
    await endBlocks();
  });
});

describe('addresses are counted as one subscriber holds them', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('%s counts as %s', (ip, counted) => {
    expect(throttleAddress(ip)).toBe(counted);
  });

  it('an IPv6 /64 is one address: hopping inside it does not buy more guesses', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i += 1) {
      statuses.push(
        (await signIn({ username: 'v6-target', password: 'x' }, `2001:db8:77:1::${i.toString(16)}`)).statusCode,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await signIn({ username: 'v6-target', password: 'x' }, '2001:db8:77:2::1')).statusCode).toBe(401);
  });
});

describe('throttle rows expire, so spraying new names cannot grow the table forever', () => {
  it('deletes keys forgotten and no longer blocked, and addresses unused for 90 days; keeps the rest', async () => {
    const sprayed = await Promise.all(
      times(30, (i) => signIn({ username: `spray-${process.pid}-${i}`, password: 'x' }, newAddress())),
    );
    expect(tally(sprayed)).toEqual({ 401: 30 });
    const sprayedKeys = `pw:name:spray-${process.pid}-%`;
    const count = async () =>
      (
        await api.db.query<{ n: number }>('SELECT count(*)::int AS n FROM login_throttle WHERE key LIKE $1', [
          sprayedKeys,
        ])
      )[0]?.n;
    expect(await count()).toBe(60);
    await api.db.query("UPDATE login_throttle SET last_failure_at = now() - interval '61 minutes' WHERE key LIKE $1", [
      sprayedKeys,
    ]);
    // One of them is still blocked, and one failed again just now: both stay.
    await api.db.query(`UPDATE login_throttle SET blocked_until = now() + interval '5 minutes' WHERE key = $1`, [
      `pw:name:spray-${process.pid}-0`,
    ]);
    await api.db.query('UPDATE login_throttle SET last_failure_at = now() WHERE key = $1', [
      `pw:name:spray-${process.pid}-1`,
    ]);
    await api.db.query(
      `INSERT INTO sign_in_addresses (account, address, last_success_at)
       VALUES ('user:999999', '192.0.2.1', now() - interval '91 days'), ('user:999999', '192.0.2.2', now() - interval '89 days')`,
    );

    const deleted = await deleteExpiredThrottleRows(api.db);
    expect(deleted.keys).toBeGreaterThanOrEqual(58);
    expect(deleted.addresses).toBeGreaterThanOrEqual(1);
    expect(await count()).toBe(2);
    const addresses = await api.db.query("SELECT address FROM sign_in_addresses WHERE account = 'user:999999'");
    expect(addresses).toEqual([{ address: '192.0.2.2' }]);
  });

  it('runs by itself every interval, and a failed round does not stop it', async () => {
    await api.db.query(
      `INSERT INTO login_throttle (key, failures, last_failure_at) VALUES ('pw:name:forgotten-by-itself', 3, now() - interval '2 hours')`,
    );
    const warnings: string[] = [];
    let rounds = 0;
    const housekeeping = new Housekeeping(
      [
        {
          name: 'flaky',
          run: async () => {
            rounds += 1;
            if (rounds === 1) throw new Error('database away');
          },
        },
        { name: 'sign-in throttle clean-up', run: () => deleteExpiredThrottleRows(api.db) },
      ],
      50,
      { warn: (object) => warnings.push((object as { job: string }).job) },
    );
    housekeeping.start();
    try {
      await expect
        .poll(
          async () =>
            (await api.db.query("SELECT 1 FROM login_throttle WHERE key = 'pw:name:forgotten-by-itself'")).length,
        )
        .toBe(0);
      await expect.poll(() => rounds).toBeGreaterThanOrEqual(3);
    } finally {
      await housekeeping.stop();
    }
    expect(warnings).toEqual(['flaky']);
  });
});

describe('every attempt at a secret is a security event in the log (ASVS 16.3.1)', () => {
  it('logs accepted, refused and throttled sign-ins with the name and the counted address, never the password', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const logged = await buildApp(api.ctx, { logger: { level: 'info', stream } });
    await logged.ready();
    try {
      const victim = await newTeacher();
      const from = newAddress();
      const attempt = (password: string) => {
        const form = { username: victim.username, password };
        return callerOf(logged).post('/api/v1/auth/login', undefined, { form, ...throughProxy(from) });
      };
      const statuses = [];
      for (const password of ['Wrong-Guess-1', 'Wrong-Guess-2', 'Wrong-Guess-3', 'Wrong-Guess-4', 'Wrong-Guess-5']) {
        statuses.push((await attempt(password)).statusCode);
      }
      statuses.push((await attempt('Wrong-Guess-6')).statusCode);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      await endBlocks();
      expect((await attempt(victim.password)).statusCode).toBe(200);

      const events = lines.filter((line) => line.event === 'sign-in');
      expect(events.map((e) => e.outcome)).toEqual([
        'refused',
        'refused',
        'refused',
        'refused',
        'refused',
        'throttled',
        'accepted',
      ]);
      for (const event of events)
        expect(event).toMatchObject({ kind: 'staff', subject: victim.username, address: from });
      expect(events[0]?.reason).toBe('Incorrect username or password');
      const everything = lines.map((line) => JSON.stringify(line)).join('\n');
      expect(everything).not.toContain('Wrong-Guess');
      expect(everything).not.toContain(victim.password);
    } finally {
      await logged.close();
    }
  });
});
