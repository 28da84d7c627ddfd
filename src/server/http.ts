import type { Context } from 'hono';
import { stringifyJson } from '../core/json.js';

/**
 * Hono environment of the app: the request id is set for every request; `remember` when the server
 * keeps answers (see `ResponseCache`), to be called with the text of a successful answer; `origin`
 * when the server knows its own origin (see `AppOptions.origin`).
 */
export type AppEnv = {
  Variables: {
    requestId: string;
    remember?: (body: string) => void;
    origin?: (host: string | undefined) => string;
  };
};

/**
 * A request the server refuses, answered in the service's error shape:
 * `{"status": "ERROR", "request_id": "…", "error": "…"}` (400/401/429) or
 * `{"status": "NOT_FOUND" | "NOT_AUTHORIZED", "request_id": "…", "message": "…"}` (404/403).
 */
export class HttpProblem extends Error {
  constructor(
    readonly httpStatus: 400 | 401 | 403 | 404 | 429,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string): HttpProblem => new HttpProblem(400, message);
export const notFound = (message = 'Data not found.'): HttpProblem => new HttpProblem(404, message);

/** The error body for a status, in the service's shape. */
export function errorBody(status: number, requestId: string, message: string): Record<string, string> {
  if (status === 404) return { status: 'NOT_FOUND', request_id: requestId, message };
  if (status === 403) return { status: 'NOT_AUTHORIZED', request_id: requestId, message };
  return { status: 'ERROR', request_id: requestId, error: message };
}

/** Answers JSON, writing `bigint` values (nanosecond timestamps) as exact integers. */
export function sendJson(
  c: Context<AppEnv>,
  body: unknown,
  status: 200 | 400 | 401 | 403 | 404 | 429 | 500 = 200,
) {
  const text = stringifyJson(body);
  if (status === 200) c.get('remember')?.(text);
  return jsonResponse(text, status, c.get('requestId'));
}

/**
 * A JSON response of `text`, with the request id as X-Request-ID. A plain Response with plain-object
 * headers stays on the Node adapter's fast path (c.body with two headers would build a Headers object).
 */
export function jsonResponse(text: string, status: number, requestId: string | undefined): Response {
  return new Response(text, {
    status,
    headers: requestId
      ? { 'content-type': 'application/json', 'x-request-id': requestId }
      : { 'content-type': 'application/json' },
  });
}

/** Sets `key` when the value is known: the service omits what it does not have rather than sending null. */
export function put(out: Record<string, unknown>, key: string, value: unknown): void {
  if (value !== null && value !== undefined) out[key] = value;
}

/**
 * The server's own origin (`http://host:port`), on which `next_url` links are built: never taken
 * from a Host header the server does not recognise as one of its own names, so a forged Host cannot
 * send clients (and their keys) elsewhere. An app without a known origin (tests calling it directly)
 * uses the request URL's.
 */
export function originOf(c: Context<AppEnv>): string {
  const own = c.get('origin');
  return own ? own(c.req.header('host')) : new URL(c.req.url).origin;
}
