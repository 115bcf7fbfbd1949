import { errors, type JWTPayload, jwtVerify, SignJWT } from 'jose';

export interface TokenClaims {
  userId: number;
  tokenVersion: number;
}

/** A parent's token: the phone it speaks for, and that phone's access-code generation. */
export interface ParentTokenClaims {
  phone: string;
  tokenVersion: number;
}

/**
 * Each kind of token has its own audience, so one can never stand in for another: a parent token
 * is not a staff token, and a delivery receipt (inside a push) is neither.
 */
export const AUDIENCES = {
  staff: 'tuitiondesk-staff',
  parent: 'tuitiondesk-parent',
  receipt: 'tuitiondesk-receipt',
} as const;

/**
 * The row id a subject names, or undefined: the digits of a serial (1 to 2^31-1), exactly as signed.
 * Anything else (a phone, `1e3`, an id past the column's range) would reach SQL and fail there.
 */
function rowId(subject: unknown): number | undefined {
  if (typeof subject !== 'string' || !/^[1-9][0-9]{0,9}$/.test(subject)) return undefined;
  const id = Number(subject);
  return id <= 2_147_483_647 ? id : undefined;
}

const PARENT_TTL_SECONDS = 180 * 24 * 3600;
const RECEIPT_TTL_SECONDS = 30 * 24 * 3600;

/** HS256 only: the algorithm is pinned on both signing and verifying. */
export class TokenService {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  get expiresInSeconds(): number {
    return this.ttlSeconds;
  }

  /** Parents sign in once on their phone; the token lasts until the code is regenerated or 180 days pass. */
  get parentExpiresInSeconds(): number {
    return PARENT_TTL_SECONDS;
  }

  sign(claims: TokenClaims): Promise<string> {
    return this.signFor(AUDIENCES.staff, String(claims.userId), { ver: claims.tokenVersion }, this.ttlSeconds);
  }

  /** The claims of a valid staff token, or undefined for any token that is not (bad, expired, other alg or audience). */
  async verify(token: string): Promise<TokenClaims | undefined> {
    const payload = await this.verifyFor(token, AUDIENCES.staff, ['ver']);
    if (!payload) return undefined;
    const userId = rowId(payload.sub);
    const tokenVersion = Number(payload.ver);
    if (userId === undefined || !Number.isSafeInteger(tokenVersion)) return undefined;
    return { userId, tokenVersion };
  }

  signParent(claims: ParentTokenClaims): Promise<string> {
    return this.signFor(AUDIENCES.parent, claims.phone, { ver: claims.tokenVersion }, PARENT_TTL_SECONDS);
  }

  async verifyParent(token: string): Promise<ParentTokenClaims | undefined> {
    const payload = await this.verifyFor(token, AUDIENCES.parent, ['ver']);
    if (!payload || typeof payload.sub !== 'string') return undefined;
    const tokenVersion = Number(payload.ver);
    if (!Number.isSafeInteger(tokenVersion)) return undefined;
    return { phone: payload.sub, tokenVersion };
  }

  /** A receipt confirms delivery of one message and nothing else. */
  signReceipt(messageId: number): Promise<string> {
    return this.signFor(AUDIENCES.receipt, String(messageId), {}, RECEIPT_TTL_SECONDS);
  }

  async verifyReceipt(token: string): Promise<number | undefined> {
    const payload = await this.verifyFor(token, AUDIENCES.receipt, []);
    return payload ? rowId(payload.sub) : undefined;
  }

  private signFor(audience: string, subject: string, claims: JWTPayload, ttlSeconds: number): Promise<string> {
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(subject)
      .setIssuedAt()
      .setExpirationTime(`${ttlSeconds}s`)
      .setAudience(audience)
      .sign(this.key);
  }

  private async verifyFor(token: string, audience: string, required: string[]): Promise<JWTPayload | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        audience,
        requiredClaims: ['sub', 'exp', ...required],
      });
      return payload;
    } catch (error) {
      if (error instanceof errors.JOSEError || error instanceof TypeError) return undefined;
      throw error;
    }
  }
}
