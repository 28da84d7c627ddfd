import { DecodeError } from '../../core/errors.js';
import { parseJson } from '../../core/json.js';
import type { HttpResponse } from '../../core/transport.js';

/**
 * The JSON object of an upstream answer. A body that does not parse (an answer cut short, a proxy's
 * page) is a `DecodeError` carrying the upstream's status, which the caching server answers as a 502
 * instead of failing as its own error.
 * @example upstreamJson(await transport.get('/v3/reference/exchanges')).results
 */
export function upstreamJson(res: HttpResponse): Record<string, unknown> {
  try {
    return parseJson(res.body) as Record<string, unknown>;
  } catch {
    // No `cause`: the parser's message can quote the body.
    throw new DecodeError(
      `The upstream service answered ${res.status} with a body that is not JSON (${res.body.length} characters)`,
      res.status,
    );
  }
}
