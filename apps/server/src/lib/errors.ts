import {
  ENGLISH_PARAMS,
  ERROR_CODES,
  type ErrorCode,
  type ErrorParamsArg,
  type ErrorParamValue,
  type ErrorWords,
  errorDetail,
  errorWords,
  formatErrorText,
} from '@tuitiondesk/contract';

/**
 * Errors that services throw; the error handler turns each into its status and a problem body:
 * the English `detail`, the stable `code` from the contract's catalogue and the `params` that fill its
 * text (ADR 036). Every error is made from a code, so no English text reaches a client without one.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly params: Readonly<Record<string, ErrorParamValue>>;
  /** The params as the English detail says them, where they differ (a class by its label, ADR 054). */
  readonly [ENGLISH_PARAMS]?: Readonly<Record<string, ErrorParamValue>>;

  constructor(
    readonly statusCode: number,
    words: ErrorWords & { [ENGLISH_PARAMS]?: Readonly<Record<string, ErrorParamValue>> },
    readonly headers: Record<string, string> = {},
  ) {
    super(errorDetail(words));
    this.name = new.target.name;
    this.code = words.code;
    this.params = words.params;
    this[ENGLISH_PARAMS] = words[ENGLISH_PARAMS];
  }
}

/** A code and its params, or words made earlier (`errorWords`) and passed along. */
function toWords<C extends ErrorCode>(code: C | ErrorWords, params: ErrorParamsArg<C>): ErrorWords {
  return typeof code === 'string' ? errorWords(code, ...params) : code;
}

export class BadRequestError<C extends ErrorCode = ErrorCode> extends AppError {
  constructor(code: C | ErrorWords, ...params: ErrorParamsArg<C>) {
    super(400, toWords(code, params));
  }
}

export class UnauthorizedError<C extends ErrorCode = ErrorCode> extends AppError {
  constructor(code: C | ErrorWords = 'auth.not_authenticated' as C, ...params: ErrorParamsArg<C>) {
    super(401, toWords(code, params), { 'www-authenticate': 'Bearer' });
  }
}

export class ForbiddenError<C extends ErrorCode = ErrorCode> extends AppError {
  constructor(code: C | ErrorWords = 'auth.forbidden' as C, ...params: ErrorParamsArg<C>) {
    super(403, toWords(code, params));
  }
}

export class NotFoundError<C extends ErrorCode = ErrorCode> extends AppError {
  constructor(code: C | ErrorWords, ...params: ErrorParamsArg<C>) {
    super(404, toWords(code, params));
  }
}

export class ConflictError<C extends ErrorCode = ErrorCode> extends AppError {
  constructor(code: C | ErrorWords, ...params: ErrorParamsArg<C>) {
    super(409, toWords(code, params));
  }
}

export class PayloadTooLargeError<C extends ErrorCode = ErrorCode> extends AppError {
  constructor(code: C | ErrorWords, ...params: ErrorParamsArg<C>) {
    super(413, toWords(code, params));
  }
}

/** The codes of field failures: their texts start `{field}: `, so the detail names the field. */
export type ValidationCode = Extract<ErrorCode, `validation.${string}`>;
type FieldParamsArg<C extends ValidationCode> = C extends ValidationCode
  ? ErrorParamsArg<C> extends [params: infer P]
    ? [keyof Omit<P, 'field'>] extends [never]
      ? []
      : [params: Omit<P, 'field'>]
    : []
  : never;

/** What is wrong with a field before it is known which field: a validation code and its other params. */
export interface FieldWords {
  code: ValidationCode;
  params: Readonly<Record<string, ErrorParamValue>>;
}

export function fieldWords<C extends ValidationCode>(code: C, ...params: FieldParamsArg<C>): FieldWords {
  return { code, params: params[0] ?? {} };
}

/** The English of field words without the field (`cannot be in the future`), for texts that are not errors. */
export function fieldProblemText(words: FieldWords): string {
  return formatErrorText(ERROR_CODES[words.code].replace(/^\{field\}: /, ''), words.params);
}

/** A field-level validation failure: the detail names the field, as `field: what to fix`. */
export class ValidationError<C extends ValidationCode = ValidationCode> extends AppError {
  constructor(field: string, code: C | FieldWords, ...params: FieldParamsArg<C>) {
    const words: FieldWords & { [ENGLISH_PARAMS]?: FieldWords['params'] } =
      typeof code === 'string' ? fieldWords(code, ...params) : code;
    const english = words[ENGLISH_PARAMS];
    super(422, {
      code: words.code,
      params: { ...words.params, field },
      ...(english ? { [ENGLISH_PARAMS]: { ...english, field } } : {}),
    } as ErrorWords);
  }
}

export class TooManyRequestsError<C extends ErrorCode = ErrorCode> extends AppError {
  constructor(retryAfterSeconds: number, code: C | ErrorWords, ...params: ErrorParamsArg<C>) {
    super(429, toWords(code, params), { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

export class ServiceUnavailableError<C extends ErrorCode = ErrorCode> extends AppError {
  constructor(code: C | ErrorWords, ...params: ErrorParamsArg<C>) {
    super(503, toWords(code, params));
  }
}

/** What every call answers (503) while the database cannot be reached. */
export const DATABASE_UNAVAILABLE = errorDetail({ code: 'server.database_unavailable', params: {} });

export class BadGatewayError<C extends ErrorCode = ErrorCode> extends AppError {
  constructor(code: C | ErrorWords, ...params: ErrorParamsArg<C>) {
    super(502, toWords(code, params));
  }
}

/** True for the PostgreSQL error raised by a unique index; `constraint` narrows it to one index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string } | undefined;
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}
