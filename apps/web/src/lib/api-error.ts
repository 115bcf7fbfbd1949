import { translatedError } from '../i18n/error-texts';

type Params = Readonly<Record<string, string | number>>;

/**
 * A failed API call, shared by the console and the parent app. Light on imports: the parent bundle
 * takes it without the contract's schemas.
 */
export class ApiError extends Error {
  /** The error's stable code and its params (ADR 036), when the server (or this client) gave one. */
  readonly code: string | undefined;
  readonly params: Params | undefined;

  constructor(
    readonly status: number,
    readonly detail: string | undefined,
    /** The error body as the server sent it, for the few calls that add fields to `detail` (login's `otp_required`). */
    readonly body?: unknown,
  ) {
    super(detail ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
    const coded = (typeof body === 'object' && body !== null ? body : {}) as { code?: unknown; params?: unknown };
    this.code = typeof coded.code === 'string' ? coded.code : undefined;
    this.params = typeof coded.params === 'object' && coded.params !== null ? (coded.params as Params) : undefined;
  }
}

/**
 * The text to show for a failed call: the server's words in the language in use (its code,
 * translated), else its English detail, else the screen's own fallback (already in the language in use).
 */
export function errorText(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  return translatedError(error.code, error.params) ?? error.detail ?? fallback;
}
