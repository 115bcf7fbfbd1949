import { errors, jwtVerify, SignJWT } from 'jose';

export interface TokenClaims {
  userId: number;
  tokenVersion: number;
}

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

  sign(claims: TokenClaims): Promise<string> {
    return new SignJWT({ ver: claims.tokenVersion })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(claims.userId))
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .setAudience('tuitiondesk-staff')
      .sign(this.key);
  }

  /** The claims of a valid token, or undefined for any token that is not (bad, expired, other alg). */
  async verify(token: string): Promise<TokenClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        audience: 'tuitiondesk-staff',
        requiredClaims: ['sub', 'exp', 'ver'],
      });
      const userId = Number(payload.sub);
      const tokenVersion = Number(payload.ver);
      if (!Number.isSafeInteger(userId) || !Number.isSafeInteger(tokenVersion)) return undefined;
      return { userId, tokenVersion };
    } catch (error) {
      if (error instanceof errors.JOSEError || error instanceof TypeError) return undefined;
      throw error;
    }
  }
}
