import type { ResolvedClientOptions } from './client-options.js';
import {
  AbortError,
  APIConnectionError,
  type APIError,
  type ApiErrorBody,
  apiErrorFor,
  ConnectTimeout,
  ForeignOriginError,
  InvalidParameterError,
  MdqError,
  ReadTimeout,
  WriteTimeout,
} from './errors.js';
import { maskKey, maskKeyDeep } from './mask-key.js';
import { isRetryableError, isRetryableStatus, retryDelay } from './retry.js';
import { parseRetryAfter } from './retry-after.js';
import { VERSION } from './version.js';

/** A complete HTTP response, body read as text. */
export interface HttpResponse {
  /** HTTP status code. */
  status: number;
  /** Response headers, names in lower case; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** The body, decoded as UTF-8; empty when a 2xx body went to `RequestInit.decoder`. */
  body: string;
  /** What `RequestInit.decoder`'s `end()` returned for a 2xx body. */
  decoded?: unknown;
  /** The URL requested (after same-origin redirects); never contains the API key. */
  url: string;
}

/** An error thrown once retries are exhausted carries how many attempts were made. */
export type WithAttempts<E extends Error = MdqError> = E & { attempts: number };

/** Most same-origin redirects one request follows. */
export const MAX_REDIRECTS = 5;

/** What a GET asks of the code that drives it: send an attempt, or wait before the next. */
export type GetStep = { readonly send: string } | { readonly sleepMs: number };

/** How an attempt ended: a response (any status), or the failure it threw. */
export type AttemptOutcome = { readonly response: HttpResponse } | { readonly failure: unknown };

/** Marks a request dropped because its response did not end within `totalTimeout`. */
export class DeadlinePassed extends Error {
  override name = 'DeadlinePassed';
}

/** Marks a request whose bytes the network did not take within `writeTimeout`. */
export class WriteStalled extends Error {
  override name = 'WriteStalled';
}

/** Marks a response with no byte received for `readTimeout`. */
export class ReadStalled extends Error {
  override name = 'ReadStalled';
}

/** Marks a connection not established within `connectTimeout`. */
export class ConnectStalled extends Error {
  override name = 'ConnectStalled';
}

/**
 * How mdq GETs from its origin, whatever carries the bytes: the request headers (the key as a bearer
 * header), the targets it accepts (same origin only, `apiKey=` taken out of the query), the redirects it
 * follows, the statuses and failures it retries and how long it waits between them, and the typed error
 * each failure becomes. The asynchronous transport and the synchronous client's calling-thread transport
 * both drive {@link GetPolicy.steps}, so the two behave alike by construction.
 */
export class GetPolicy {
  readonly origin: string;
  readonly basePath: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly #options: ResolvedClientOptions;

  constructor(options: ResolvedClientOptions) {
    this.#options = options;
    const base = new URL(options.baseUrl);
    this.origin = base.origin;
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.headers = {
      ...options.headers,
      'user-agent': `mdq/${VERSION}`,
      accept: 'application/json',
      ...(options.apiKey !== '' && { authorization: `Bearer ${options.apiKey}` }),
    };
  }

  /**
   * The steps of one GET of `target` (see {@link GetPolicy.target}): each `send` is an attempt whose
   * outcome the driver passes back to `next`; each `sleepMs` a wait before the next attempt. Returns the
   * 2xx response; throws the typed error of the last failure (with `attempts` after retries).
   * `closed` tells whether the client was closed meanwhile (no retry then).
   */
  *steps(target: string, closed: () => boolean): Generator<GetStep, HttpResponse, AttemptOutcome> {
    let path = this.target(target);
    let redirects = 0;
    let retries = 0;
    for (;;) {
      let failure: MdqError;
      let retryAfterMs: number | undefined;
      const outcome = yield { send: path };
      if ('response' in outcome) {
        const res = outcome.response;
        if (res.status >= 200 && res.status < 300) return res;
        const location = res.headers.location;
        if (res.status >= 300 && res.status < 400 && location !== undefined) {
          if (++redirects > MAX_REDIRECTS) {
            const tooMany = apiErrorFor(
              res.status,
              `more than ${MAX_REDIRECTS} redirects`,
              undefined,
              maskKey(stripQuery(path), this.#options.apiKey),
            );
            throw withAttempts(tooMany, retries + 1);
          }
          path = this.#sameOriginPath(location, res.url);
          continue;
        }
        failure = this.errorOf(res, path);
        if (!isRetryableStatus(res.status)) throw withAttempts(failure, retries + 1);
        retryAfterMs = parseRetryAfter(res.headers['retry-after']);
      } else {
        const error = outcome.failure;
        failure = error instanceof MdqError ? error : this.mapError(error, path);
        if (failure instanceof AbortError || failure instanceof ForeignOriginError) throw failure;
        if (!isRetryableError(failure) || closed()) throw withAttempts(failure, retries + 1);
      }
      if (retries >= this.#options.maxRetries) throw withAttempts(failure, retries + 1);
      const delay = retryDelay(retries, retryAfterMs);
      retries++;
      this.#options.logger?.(
        `GET ${path}: ${failure.name}${'status' in failure ? ` ${failure.status}` : ''}; retry ${retries} of ${this.#options.maxRetries} in ${(delay / 1000).toFixed(2)} s`,
      );
      yield { sleepMs: delay };
    }
  }

  /**
   * A caller's target as the request path (with the base path prefix, without `apiKey=`): a path and
   * query on the base URL (`'/v3/trades/AAPL?limit=5'`), or an absolute URL on the same origin (a
   * `next_url`).
   *
   * @throws ForeignOriginError for another origin; nothing is ever sent there.
   */
  target(target: string): string {
    if (typeof target !== 'string') {
      throw new InvalidParameterError('target', target, 'expected a path or a URL string');
    }
    if (target.charCodeAt(0) === 47 /* / */ && target.charCodeAt(1) !== 47) {
      return withoutApiKey(this.basePath + target);
    }
    if (!/^[a-z][a-z0-9+.-]*:|^\/\//i.test(target)) return withoutApiKey(`${this.basePath}/${target}`);
    return this.#sameOriginPath(target, undefined);
  }

  /** The typed error of a non-2xx response, the key masked wherever the server may have echoed it. */
  errorOf(res: HttpResponse, path: string): APIError {
    const apiKey = this.#options.apiKey;
    // A JSON body is masked value by value, after parsing, so that masking a short key cannot break it.
    let body: ApiErrorBody | string | undefined = res.body === '' ? undefined : maskKey(res.body, apiKey);
    if (res.body !== '') {
      try {
        const parsed: unknown = JSON.parse(res.body);
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
          body = maskKeyDeep(parsed as ApiErrorBody, apiKey);
      } catch {
        // Not JSON: the (masked) text itself is the body.
      }
    }
    const headers = maskKeyDeep(res.headers, apiKey);
    const fromBody = typeof body === 'object' ? body.request_id : undefined;
    const requestId = typeof fromBody === 'string' && fromBody !== '' ? fromBody : headers['x-request-id'];
    return apiErrorFor(res.status, body, requestId, maskKey(stripQuery(path), apiKey), headers);
  }

  /** Maps a transport failure to mdq's typed errors; messages hold the path without query. */
  mapError(error: unknown, path: string): MdqError {
    const options = this.#options;
    const where = `GET ${maskKey(stripQuery(path), options.apiKey)}`;
    const cause = { cause: error };
    const code = (error as { code?: unknown } | null)?.code;
    if (error instanceof WriteStalled) {
      return new WriteTimeout(`${where}: request not written within ${options.writeTimeout} s`, cause);
    }
    if (error instanceof DeadlinePassed) {
      return new ReadTimeout(
        `${where}: response not complete within ${options.totalTimeout} s (totalTimeout)`,
        cause,
      );
    }
    if (error instanceof ConnectStalled || code === 'UND_ERR_CONNECT_TIMEOUT') {
      return new ConnectTimeout(
        `${where}: could not connect to ${this.origin} within ${options.connectTimeout} s`,
        cause,
      );
    }
    if (
      error instanceof ReadStalled ||
      code === 'UND_ERR_HEADERS_TIMEOUT' ||
      code === 'UND_ERR_BODY_TIMEOUT'
    ) {
      return new ReadTimeout(`${where}: no data received for ${options.readTimeout} s`, cause);
    }
    if (code === 'UND_ERR_INVALID_ARG') {
      // Refused before sending (e.g. a path with spaces): no retry can fix it.
      return new InvalidParameterError(
        'target',
        maskKey(stripQuery(path), options.apiKey),
        `the request was refused before sending: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const detail = error instanceof Error ? error.message : String(error);
    return new APIConnectionError(
      `${where}: connection to ${this.origin} failed${typeof code === 'string' ? ` (${code})` : ''}: ${maskKey(detail, options.apiKey)}`,
      cause,
    );
  }

  #sameOriginPath(link: string, base: string | undefined): string {
    let url: URL;
    try {
      url = new URL(link, base ?? this.origin);
    } catch {
      throw new ForeignOriginError(
        `Refused to follow ${JSON.stringify(maskKey(safeUrl(link), this.#options.apiKey))}: not a valid URL`,
      );
    }
    if (url.origin !== this.origin) {
      throw new ForeignOriginError(
        `Refused to follow ${maskKey(safeUrl(url.href), this.#options.apiKey)}: it is not on the configured origin ${this.origin}, and the API key is sent only there`,
      );
    }
    return withoutApiKey(url.pathname + url.search);
  }
}

function withAttempts(error: MdqError, attempts: number): MdqError {
  (error as WithAttempts).attempts = attempts;
  if (attempts > 1) error.message += ` (gave up after ${attempts} attempts)`;
  return error;
}

/** A path or URL without its query string. */
export function stripQuery(path: string): string {
  const q = path.indexOf('?');
  return q < 0 ? path : path.slice(0, q);
}

const API_KEY_PARAM = /[?&]apikey=/i;

/** Removes `apiKey=` query parameters (the key travels only in the Authorization header). */
function withoutApiKey(path: string): string {
  if (!API_KEY_PARAM.test(path)) return path;
  const q = path.indexOf('?');
  const kept = path
    .slice(q + 1)
    .split('&')
    .filter((part) => part.split('=', 1)[0]!.toLowerCase() !== 'apikey');
  return kept.length === 0 ? path.slice(0, q) : `${path.slice(0, q)}?${kept.join('&')}`;
}

/** A URL as it may appear in a message: `apiKey` parameters removed, credentials dropped. */
function safeUrl(link: string): string {
  const cleaned = withoutApiKey(link);
  try {
    const url = new URL(cleaned);
    url.username = '';
    url.password = '';
    return url.href;
  } catch {
    return cleaned.slice(0, 200);
  }
}
