/**
 * A failed API call, shared by the console and the parent app. No imports: the parent bundle takes
 * it without the contract's runtime.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | undefined,
    /** The error body as the server sent it, for the few calls that add fields to `detail` (login's `otp_required`). */
    readonly body?: unknown,
  ) {
    super(detail ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
  }
}

/** The text to show for a failed call: the server's detail when present, else the screen's fallback. */
export function errorText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.detail ? error.detail : fallback;
}
