import { describe, expect, it } from 'vitest';
import { GENERATED_PASSWORD_COST, hashPassword, needsRehash, verifyPassword } from '../src/lib/passwords';
import { testClientForBlock } from './helpers/client';
import { login } from './helpers/test-app';

const LEGACY_COST = { algorithm: 'scrypt', logN: 17, r: 8, p: 1 } as const;

describe('password hashes', () => {
  it('hash personal passwords with Argon2id at OWASP parameters, each with its own salt', async () => {
    const [first, second] = await Promise.all([hashPassword('correct horse'), hashPassword('correct horse')]);
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword('correct horse', first as string)).toBe(true);
    expect(await verifyPassword('correct horsE', first as string)).toBe(false);
    expect(needsRehash(first as string)).toBe(false);
  });

  it('still verify scrypt hashes, and ask for the old personal cost to be replaced', async () => {
    const legacy = await hashPassword('old secret', LEGACY_COST);
    expect(legacy).toMatch(/^scrypt\$17\$8\$1\$/);
    expect(await verifyPassword('old secret', legacy)).toBe(true);
    expect(await verifyPassword('old secreT', legacy)).toBe(false);
    expect(needsRehash(legacy)).toBe(true);
    const generated = await hashPassword('Initial0Pass1word', GENERATED_PASSWORD_COST);
    expect(needsRehash(generated)).toBe(false);
  });

  it('compare the same text however its accents were typed (NFC)', async () => {
    const composed = await hashPassword('caf\u00e9 cr\u00e8me');
    expect(await verifyPassword('cafe\u0301 cre\u0300me', composed)).toBe(true);
  });

  it('answer every one of many hashes asked for at once', async () => {
    const stored = await hashPassword('many at once');
    const answers = await Promise.all(
      Array.from({ length: 9 }, (_, i) => verifyPassword(i % 3 === 0 ? 'wrong' : 'many at once', stored)),
    );
    expect(answers).toEqual([false, true, true, false, true, true, false, true, true]);
  });

  it('refuse a stored value that is no hash at all', async () => {
    expect(await verifyPassword('x', 'plain text')).toBe(false);
  });
});

describe('signing in with a password hashed the old way', () => {
  const api = testClientForBlock();

  it('signs in, upgrades the stored hash to Argon2id, and ends no session', async () => {
    const before = await api().adminToken();
    const legacy = await hashPassword('legacy-admin-password', LEGACY_COST);
    await api().db.query("UPDATE users SET password_hash = $1 WHERE username = 'admin'", [legacy]);

    const token = await login(api().app, 'admin', 'legacy-admin-password');
    expect(token).toBeTruthy();
    const [row] = await api().db.query<{ password_hash: string }>(
      "SELECT password_hash FROM users WHERE username = 'admin'",
    );
    expect(row?.password_hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword('legacy-admin-password', row?.password_hash as string)).toBe(true);

    // The same password still signs in, and the session from before is still good.
    expect(await login(api().app, 'admin', 'legacy-admin-password')).toBeTruthy();
    const me = await api().withToken(before).get('/api/v1/auth/me');
    expect(me.statusCode).toBe(200);
  });
});
