import { DecodeError } from '../../core/errors.js';
import { parseJson } from '../../core/json.js';
import type { HttpResponse, Transport } from '../../core/transport.js';

/**
 * The JSON object of an upstream answer. A body that does not parse (an answer cut short, a proxy's
 * page) is a `DecodeError` carrying the upstream's status, which the caching server answers as a 502
 * instead of failing as its own error. A body that reports an error (`"status": "NOT_AUTHORIZED"` in a
 * 200) is that error (`Transport.answerError`): it is answered as one and never stored as data.
 * @example upstreamJson(await transport.get('/v3/reference/exchanges'), transport).results
 */
export function upstreamJson(res: HttpResponse, transport: Transport): Record<string, unknown> {
  let body: Record<string, unknown>;
  try {
    body = parseJson(res.body) as Record<string, unknown>;
  } catch {
    // No `cause`: the parser's message can quote the body.
    throw new DecodeError(
      `The upstream service answered ${res.status} with a body that is not JSON (${res.body.length} characters)`,
      res.status,
    );
  }
  const error = transport.answerError(body, res);
  if (error) throw error;
  return body;
}
