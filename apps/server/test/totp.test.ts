import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { normaliseRecoveryCode, normaliseTotpCode } from '@tuitiondesk/contract';
import { describe, expect, it } from 'vitest';
import {
  decryptLegacySecret,
  decryptSecret,
  deriveLegacyKey,
  encryptSecret,
  generateRecoveryCodes,
  hashRecoveryCode,
  keyedRecoveryHash,
} from '../src/modules/auth/two-factor/secrets';
import {
  base32Decode,
  base32Encode,
  generateSecret,
  hotp,
  matchingStep,
  otpauthUri,
  type TotpAlgorithm,
  timeStep,
  totp,
} from '../src/modules/auth/two-factor/totp';

// RFC 6238 Appendix B: the seeds are ASCII digits, 20, 32 and 64 bytes long for each algorithm.
const SEEDS: Record<TotpAlgorithm, Buffer> = {
  sha1: Buffer.from('12345678901234567890'),
  sha256: Buffer.from('12345678901234567890123456789012'),
  sha512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234'),
};

const VECTORS: [seconds: number, step: string, codes: Record<TotpAlgorithm, string>][] = [
  [59, '0000000000000001', { sha1: '94287082', sha256: '46119246', sha512: '90693936' }],
  [1111111109, '00000000023523EC', { sha1: '07081804', sha256: '68084774', sha512: '25091201' }],
  [1111111111, '00000000023523ED', { sha1: '14050471', sha256: '67062674', sha512: '99943326' }],
  [1234567890, '000000000273EF07', { sha1: '89005924', sha256: '91819424', sha512: '93441116' }],
  [2000000000, '0000000003F940AA', { sha1: '69279037', sha256: '90698825', sha512: '38618901' }],
  [20000000000, '0000000027BC86AA', { sha1: '65353130', sha256: '77737706', sha512: '47863826' }],
];

describe('TOTP (RFC 6238)', () => {
  it.each(VECTORS)('at %i s (T = %s) gives the Appendix B codes, 8 digits', (seconds, step, codes) => {
    expect(timeStep(seconds * 1000)).toBe(Number.parseInt(step, 16));
    for (const algorithm of ['sha1', 'sha256', 'sha512'] as const) {
      expect(totp(SEEDS[algorithm], seconds * 1000, { digits: 8, algorithm })).toBe(codes[algorithm]);
    }
  });

  it.each(VECTORS)(
    'at %i s gives the last 6 digits of the SHA-1 vector, as the app uses it',
    (seconds, _step, codes) => {
      expect(totp(SEEDS.sha1, seconds * 1000)).toBe(codes.sha1.slice(-6));
    },
  );

  it('builds on HOTP as RFC 4226 Appendix D gives it', () => {
    const expected = [
      '755224',
      '287082',
      '359152',
      '969429',
      '338314',
      '254676',
      '287922',
      '162583',
      '399871',
      '520489',
    ];
    expect(expected.map((_, counter) => hotp(SEEDS.sha1, counter))).toEqual(expected);
  });

  it('refuses a counter or a length it cannot compute', () => {
    expect(() => hotp(SEEDS.sha1, -1)).toThrow(RangeError);
    expect(() => hotp(SEEDS.sha1, 1.5)).toThrow(RangeError);
    expect(() => hotp(SEEDS.sha1, 1, 5)).toThrow(RangeError);
  });

  it('accepts the code of the step before and after now, and names the step; nothing further', () => {
    const now = 1_111_111_111_000;
    const current = timeStep(now);
    for (const offset of [-1, 0, 1]) {
      const code = hotp(SEEDS.sha1, current + offset);
      expect(matchingStep(SEEDS.sha1, code, now)).toBe(current + offset);
    }
    for (const offset of [-3, -2, 2, 3]) {
      const code = hotp(SEEDS.sha1, current + offset);
      const nearby = [-1, 0, 1].map((o) => hotp(SEEDS.sha1, current + o));
      if (!nearby.includes(code)) expect(matchingStep(SEEDS.sha1, code, now)).toBeUndefined();
    }
    expect(matchingStep(SEEDS.sha1, '12345', now)).toBeUndefined();
    expect(matchingStep(SEEDS.sha1, '', now)).toBeUndefined();
  });
});

describe('base 32 (RFC 4648)', () => {
  it.each([
    ['', ''],
    ['f', 'MY'],
    ['fo', 'MZXQ'],
    ['foo', 'MZXW6'],
    ['foob', 'MZXW6YQ'],
    ['fooba', 'MZXW6YTB'],
    ['foobar', 'MZXW6YTBOI'],
  ])('encodes %j as %s and reads it back', (text, encoded) => {
    expect(base32Encode(Buffer.from(text))).toBe(encoded);
    expect(base32Decode(encoded)?.toString()).toBe(text);
  });

  it('reads lower case, spaces and padding; refuses what is not base 32', () => {
    expect(base32Decode('mzxw 6ytb oi======')?.toString()).toBe('foobar');
    expect(base32Decode('MZXW1')).toBeUndefined();
  });

  it('makes 160-bit secrets, 32 characters, different each time', () => {
    const [a, b] = [generateSecret(), generateSecret()];
    expect(a).toHaveLength(20);
    expect(base32Encode(a)).toMatch(/^[A-Z2-7]{32}$/);
    expect(a.equals(b)).toBe(false);
  });
});

describe('otpauth:// URI', () => {
  it('names issuer and account, and carries the secret and parameters', () => {
    const uri = otpauthUri({ secret: 'MZXW6YTBOI', account: 'tch0001', issuer: 'TuitionDesk' });
    expect(uri).toBe(
      'otpauth://totp/TuitionDesk:tch0001?secret=MZXW6YTBOI&issuer=TuitionDesk&algorithm=SHA1&digits=6&period=30',
    );
    expect(otpauthUri({ secret: 'A', account: 'a b:c@d', issuer: 'TuitionDesk' })).toContain(
      'TuitionDesk:a%20b%3Ac%40d?',
    );
  });
});

describe('stored secrets and recovery codes', () => {
  // The key file's sealing key (ADR 017).
  const key = randomBytes(32);

  it('encrypt the secret for one user: another user, another key or a damaged value read nothing', () => {
    const secret = generateSecret();
    const stored = encryptSecret(key, 7, secret);
    expect(stored).toMatch(/^v2\.[\w-]{16}\.[\w-]+$/);
    expect(stored).not.toContain(base32Encode(secret));
    expect(decryptSecret(key, 7, stored)?.equals(secret)).toBe(true);
    expect(encryptSecret(key, 7, secret)).not.toBe(stored);
    expect(decryptSecret(key, 8, stored)).toBeUndefined();
    expect(decryptSecret(randomBytes(32), 7, stored)).toBeUndefined();
    expect(decryptSecret(key, 7, `${stored.slice(0, -2)}AA`)).toBeUndefined();
    expect(decryptSecret(key, 7, 'v1.abc.def')).toBeUndefined();
    expect(decryptSecret(key, 7, 'nonsense')).toBeUndefined();
    // The sealing key is not what seals: a key derived from it is, so the stored form is not a plain AES-GCM under it.
    expect(decryptLegacySecret(key, 7, stored.replace(/^v2/, 'v1'))).toBeUndefined();
  });

  it('open a v1 secret (sealed under the old signing secret) only with that secret, and never as v2', () => {
    const legacy = deriveLegacyKey('a signing secret of at least thirty-two characters');
    const secret = generateSecret();
    // v1 as the code before ADR 017 wrote it: AES-256-GCM under HKDF(signing secret), user id as associated data.
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', legacy, iv);
    cipher.setAAD(Buffer.from('user:7'));
    const body = Buffer.concat([cipher.update(secret), cipher.final(), cipher.getAuthTag()]);
    const stored = `v1.${iv.toString('base64url')}.${body.toString('base64url')}`;
    expect(decryptLegacySecret(legacy, 7, stored)?.equals(secret)).toBe(true);
    expect(decryptLegacySecret(deriveLegacyKey('another signing secret, also long enough'), 7, stored)).toBeUndefined();
    expect(decryptSecret(legacy, 7, stored)).toBeUndefined();
  });

  it('makes ten distinct recovery codes, XXXXX-XXXXX in Crockford base 32, hashed after normalising', () => {
    const codes = generateRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
    const code = codes[0] as string;
    const typed = ` ${code.toLowerCase().replace('-', ' ')} `;
    expect(normaliseRecoveryCode(typed)).toBe(code.replace('-', ''));
    const normalised = normaliseRecoveryCode(typed) as string;
    const stored = hashRecoveryCode(key, normalised);
    // Keyed: without the sealing key, neither the bare SHA-256 nor a hash under another key matches.
    expect(stored).toMatch(/^v2\.[0-9a-f]{64}$/);
    expect(stored).not.toContain(createHash('sha256').update(normalised).digest('hex'));
    expect(hashRecoveryCode(randomBytes(32), normalised)).not.toBe(stored);
    expect(hashRecoveryCode(key, normalised)).toBe(stored);
    // A code stored before as bare SHA-256 converts to the same value without knowing the code.
    expect(keyedRecoveryHash(key, createHash('sha256').update(normalised).digest('hex'))).toBe(stored);
    expect(normaliseRecoveryCode('OIL00-11111')).toBe('0110011111');
    expect(normaliseRecoveryCode('ABCDE-FGHIU')).toBeUndefined();
    expect(normaliseRecoveryCode('123456')).toBeUndefined();
  });

  it('read an authenticator code with or without a space in the middle', () => {
    expect(normaliseTotpCode('123 456')).toBe('123456');
    expect(normaliseTotpCode('123-456')).toBe('123456');
    expect(normaliseTotpCode('12345')).toBeUndefined();
    expect(normaliseTotpCode('12345a')).toBeUndefined();
  });
});
