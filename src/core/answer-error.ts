import { type APIError, type ApiErrorBody, apiErrorFor } from './errors.js';
import { maskKey, maskKeyDeep } from './mask-key.js';

/** The `status` of a 200 body that reports an error, and the HTTP status such an error is answered with. */
const ERROR_STATUSES: Readonly<Record<string, number>> = { ERROR: 400, NOT_AUTHORIZED: 403, NOT_FOUND: 404 };

/** The `status` values of a body that carries data (`success`: the v1 last, conversion and historic answers). */
const DATA_STATUSES: ReadonlySet<string> = new Set(['OK', 'DELAYED', 'SUCCESS']);

/**
 * The typed error a successful (2xx) answer reports in its decoded body, or `undefined` when the body
 * is data. A body reports an error when its `status` is `ERROR`, `NOT_AUTHORIZED` or `NOT_FOUND` (the
 * service's error statuses), or, with no status of data (`OK`, `DELAYED`, `success`), when it has an
 * `error` message and no `results`. The error is the one a 4xx answer with that body gives: 403 for
 * `NOT_AUTHORIZED`, 404 for `NOT_FOUND`; `ERROR` is 401 when its message is about the API key, 429 when
 * it is about the rate limit, else 400. Its `httpStatus` is the status answered. The key is masked
 * wherever the body or a header echoes it; the path carries no query.
 *
 * @param data - The decoded body.
 * @param answer - The answer's status, headers and URL (`Transport.get`'s response).
 * @param apiKey - The key to mask.
 * @example answerError({ status: 'NOT_AUTHORIZED', message: 'You are not entitled to this data.' }, res, key)
 */
export function answerError(
  data: unknown,
  answer: { status: number; headers: Readonly<Record<string, string>>; url: string },
  apiKey: string,
): APIError | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const body = data as ApiErrorBody;
  const said = typeof body.status === 'string' ? body.status.toUpperCase() : undefined;
  if (said !== undefined && DATA_STATUSES.has(said)) return undefined;
  let status = said === undefined ? undefined : ERROR_STATUSES[said];
  if (status === undefined) {
    if (typeof body.error !== 'string' || body.error === '' || 'results' in body) return undefined;
    status = 400;
  }
  const masked = maskKeyDeep(body, apiKey);
  const message = masked.error ?? masked.message;
  if (status === 400 && typeof message === 'string') {
    if (/api key/i.test(message)) status = 401;
    else if (/exceeded the maximum requests|rate limit|too many requests/i.test(message)) status = 429;
  }
  const headers = maskKeyDeep(answer.headers, apiKey);
  const fromBody = masked.request_id;
  const requestId = typeof fromBody === 'string' && fromBody !== '' ? fromBody : headers['x-request-id'];
  return apiErrorFor(status, masked, requestId, maskKey(pathOf(answer.url), apiKey), headers, answer.status);
}

/** The path of a URL, without its query. */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    const q = url.indexOf('?');
    return q < 0 ? url : url.slice(0, q);
  }
}
