/**
 * Every error mdq throws. Each has a stable `name` and `code`, and an `isX()` guard, so that errors are
 * recognisable without `instanceof` (an app may load both the ESM and the CommonJS copy of mdq).
 * No message ever contains the API key.
 */

/** Base of every mdq error. */
export class MdqError extends Error {
  /** Stable machine-readable code, e.g. `MDQ_NOT_FOUND`. */
  readonly code: string = 'MDQ_ERROR';
  override name = 'MdqError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A parameter failed validation before any request was sent. */
export class InvalidParameterError extends MdqError {
  override readonly code: string = 'MDQ_INVALID_PARAMETER';
  override name = 'InvalidParameterError';
  /** Name of the bad parameter, as the caller wrote it. */
  readonly parameter: string;
  /** The value that was refused. */
  readonly value: unknown;
  constructor(parameter: string, value: unknown, allowed: string) {
    super(`Invalid ${parameter}: ${describeValue(value)}; ${allowed}`);
    this.parameter = parameter;
    this.value = value;
  }
}

/** No API key was given and none was found in `MASSIVE_API_KEY` or `POLYGON_API_KEY`. */
export class MissingApiKeyError extends MdqError {
  override readonly code: string = 'MDQ_MISSING_API_KEY';
  override name = 'MissingApiKeyError';
}

/** The body of a response could not be decoded. */
export class DecodeError extends MdqError {
  override readonly code: string = 'MDQ_DECODE_ERROR';
  override name = 'DecodeError';
  readonly status: number;
  constructor(message: string, status: number, options?: { cause?: unknown }) {
    super(message, options);
    this.status = status;
  }
}

/** A link (`next_url`, redirect) pointed away from the configured origin; it was not followed. */
export class ForeignOriginError extends MdqError {
  override readonly code: string = 'MDQ_FOREIGN_ORIGIN';
  override name = 'ForeignOriginError';
}

/** The request was cancelled through its `AbortSignal`. */
export class AbortError extends MdqError {
  override readonly code: string = 'MDQ_ABORTED';
  override name = 'AbortError';
}

/** The body the service sent with an error status. */
export interface ApiErrorBody {
  status?: string;
  request_id?: string;
  error?: string;
  message?: string;
  [key: string]: unknown;
}

/**
 * The service answered with an HTTP error status, or with a 200 whose body reports an error (its
 * `status` is `ERROR`, `NOT_AUTHORIZED` or `NOT_FOUND`): such an answer is the error its status stands
 * for, never data.
 */
export class APIError extends MdqError {
  override readonly code: string = 'MDQ_API_ERROR';
  override name = 'APIError';
  /**
   * HTTP status code; for an error reported in a 200 body, the status it stands for (403 for
   * `NOT_AUTHORIZED`, 404 for `NOT_FOUND`, 400 for `ERROR`, or 401 or 429 when its message is about the
   * key or the rate limit).
   */
  readonly status: number;
  /** The HTTP status the service answered: `status`, except 200 for an error reported in the body. */
  readonly httpStatus: number;
  /** `request_id` of the body, else the `X-Request-ID` header. */
  readonly requestId: string | undefined;
  /** The decoded error body (or the raw text when it was not JSON). */
  readonly body: ApiErrorBody | string | undefined;
  /** The service's own message (`error` or `message` of the body). */
  readonly apiMessage: string | undefined;
  /** Path of the request, without query string or key. */
  readonly path: string | undefined;
  /** Response headers, names in lower case (the API key masked wherever a header echoed it). */
  readonly headers: Readonly<Record<string, string>>;
  constructor(
    status: number,
    body: ApiErrorBody | string | undefined,
    requestId: string | undefined,
    path?: string,
    headers: Readonly<Record<string, string>> = {},
    httpStatus: number = status,
  ) {
    const apiMessage = typeof body === 'object' ? (body.error ?? body.message) : body?.slice(0, 200);
    const said = typeof body === 'object' && typeof body.status === 'string' ? body.status : undefined;
    const inBody = httpStatus === status ? '' : said ? ` with status ${said}` : ' with an error in its body';
    super(
      `HTTP ${httpStatus}${inBody}${path ? ` for ${path}` : ''}${apiMessage ? `: ${apiMessage}` : ''}${requestId ? ` (request id ${requestId})` : ''}`,
    );
    this.status = status;
    this.httpStatus = httpStatus;
    this.body = body;
    this.requestId = requestId;
    this.apiMessage = apiMessage;
    this.path = path;
    this.headers = headers;
  }
}

export class BadRequestError extends APIError {
  override readonly code: string = 'MDQ_BAD_REQUEST';
  override name = 'BadRequestError';
}
export class AuthenticationError extends APIError {
  override readonly code: string = 'MDQ_AUTHENTICATION';
  override name = 'AuthenticationError';
}
export class PermissionDeniedError extends APIError {
  override readonly code: string = 'MDQ_PERMISSION_DENIED';
  override name = 'PermissionDeniedError';
}
export class NotFoundError extends APIError {
  override readonly code: string = 'MDQ_NOT_FOUND';
  override name = 'NotFoundError';
}
export class RateLimitError extends APIError {
  override readonly code: string = 'MDQ_RATE_LIMITED';
  override name = 'RateLimitError';
}
export class InternalServerError extends APIError {
  override readonly code: string = 'MDQ_SERVER_ERROR';
  override name = 'InternalServerError';
}

/** The connection failed (refused, reset, dropped mid-body, DNS failure). */
export class APIConnectionError extends MdqError {
  override readonly code: string = 'MDQ_CONNECTION';
  override name = 'APIConnectionError';
}

/** Base of the four timeout errors. */
export class TimeoutError extends APIConnectionError {
  override readonly code: string = 'MDQ_TIMEOUT';
  override name = 'TimeoutError';
}
/** The connection could not be established within `connectTimeout`. */
export class ConnectTimeout extends TimeoutError {
  override readonly code: string = 'MDQ_CONNECT_TIMEOUT';
  override name = 'ConnectTimeout';
}
/** Data was not received within `readTimeout`. */
export class ReadTimeout extends TimeoutError {
  override readonly code: string = 'MDQ_READ_TIMEOUT';
  override name = 'ReadTimeout';
}
/** The request could not be written within `writeTimeout`. */
export class WriteTimeout extends TimeoutError {
  override readonly code: string = 'MDQ_WRITE_TIMEOUT';
  override name = 'WriteTimeout';
}
/** No connection of the pool became free within `poolTimeout`. */
export class PoolTimeout extends TimeoutError {
  override readonly code: string = 'MDQ_POOL_TIMEOUT';
  override name = 'PoolTimeout';
}

/** Builds the typed error for an HTTP error status (`httpStatus`: the one answered, when another). */
export function apiErrorFor(
  status: number,
  body: ApiErrorBody | string | undefined,
  requestId: string | undefined,
  path?: string,
  headers?: Readonly<Record<string, string>>,
  httpStatus?: number,
): APIError {
  const Cls =
    status === 400
      ? BadRequestError
      : status === 401
        ? AuthenticationError
        : status === 403
          ? PermissionDeniedError
          : status === 404
            ? NotFoundError
            : status === 429
              ? RateLimitError
              : status >= 500
                ? InternalServerError
                : APIError;
  return new Cls(status, body, requestId, path, headers, httpStatus);
}

const hasName = (e: unknown, names: readonly string[]): boolean =>
  typeof e === 'object' && e !== null && names.includes((e as { name?: unknown }).name as string);

export const isMdqError = (e: unknown): e is MdqError =>
  typeof e === 'object' && e !== null && String((e as { code?: unknown }).code).startsWith('MDQ_');
export const isInvalidParameterError = (e: unknown): e is InvalidParameterError =>
  hasName(e, ['InvalidParameterError']);
export const isAPIError = (e: unknown): e is APIError =>
  isMdqError(e) && typeof (e as { status?: unknown }).status === 'number' && !hasName(e, ['DecodeError']);
export const isNotFoundError = (e: unknown): e is NotFoundError => hasName(e, ['NotFoundError']);
export const isAuthenticationError = (e: unknown): e is AuthenticationError =>
  hasName(e, ['AuthenticationError']);
export const isPermissionDeniedError = (e: unknown): e is PermissionDeniedError =>
  hasName(e, ['PermissionDeniedError']);
export const isRateLimitError = (e: unknown): e is RateLimitError => hasName(e, ['RateLimitError']);
export const isInternalServerError = (e: unknown): e is InternalServerError =>
  hasName(e, ['InternalServerError']);
export const isDecodeError = (e: unknown): e is DecodeError => hasName(e, ['DecodeError']);
export const isConnectionError = (e: unknown): e is APIConnectionError =>
  hasName(e, [
    'APIConnectionError',
    'TimeoutError',
    'ConnectTimeout',
    'ReadTimeout',
    'WriteTimeout',
    'PoolTimeout',
  ]);
export const isTimeoutError = (e: unknown): e is TimeoutError =>
  hasName(e, ['TimeoutError', 'ConnectTimeout', 'ReadTimeout', 'WriteTimeout', 'PoolTimeout']);

/**
 * The streaming service refused the connection: `auth_failed` (a wrong or missing key) or
 * `max_connections` (the account's limit of simultaneous streams). Not retried: a reconnection would be
 * refused the same way.
 */
export class StreamRefusedError extends MdqError {
  override readonly code: string = 'MDQ_STREAM_REFUSED';
  override name = 'StreamRefusedError';
  /** The service's status: `auth_failed` or `max_connections`. */
  readonly status: string;
  constructor(status: string, message: string) {
    super(message);
    this.status = status;
  }
}

/** The stream's buffer was full and its `overflow` policy is `'error'`: the consumer fell behind. */
export class StreamOverflowError extends MdqError {
  override readonly code: string = 'MDQ_STREAM_OVERFLOW';
  override name = 'StreamOverflowError';
}

export const isStreamRefusedError = (e: unknown): e is StreamRefusedError =>
  hasName(e, ['StreamRefusedError']);
export const isStreamOverflowError = (e: unknown): e is StreamOverflowError =>
  hasName(e, ['StreamOverflowError']);

/** Every error class by name: the sync client rebuilds errors thrown in its worker from this table. */
export const errorClasses = {
  MdqError,
  InvalidParameterError,
  MissingApiKeyError,
  DecodeError,
  ForeignOriginError,
  AbortError,
  APIError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  RateLimitError,
  InternalServerError,
  APIConnectionError,
  TimeoutError,
  ConnectTimeout,
  ReadTimeout,
  WriteTimeout,
  PoolTimeout,
} as const;

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (typeof value === 'bigint') return `${value}n`;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (Array.isArray(value)) return `array of ${value.length}`;
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'object') return 'object';
  return String(value);
}
