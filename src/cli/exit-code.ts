import { isAPIError, isConnectionError, isInvalidParameterError, isMdqError } from '../core/errors.js';
import { isUsageError } from './usage-error.js';

/** The CLI's exit codes. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/**
 * The exit code and message for an error: 2 for bad usage (a bad argument, a missing key), 1 for an
 * API or network error and anything else. The message of an API error carries the status, the
 * service's message and the request id (the client's messages never contain the key).
 */
export function describeError(e: unknown): { code: number; message: string } {
  if (isUsageError(e)) return { code: EXIT.usage, message: `mdq: ${e.message}` };
  if (isInvalidParameterError(e)) return { code: EXIT.usage, message: `mdq: ${e.message}` };
  if (isMdqError(e) && e.name === 'MissingApiKeyError') {
    return {
      code: EXIT.usage,
      message: `mdq: ${e.message}; on the command line: --api-key <key>`,
    };
  }
  if (isAPIError(e)) {
    const id = e.requestId ? `; request id ${e.requestId}` : '';
    return { code: EXIT.failure, message: `mdq: ${e.name} (status ${e.status}${id}): ${e.message}` };
  }
  if (isConnectionError(e)) return { code: EXIT.failure, message: `mdq: ${e.name}: ${e.message}` };
  if (e instanceof Error)
    return { code: EXIT.failure, message: `mdq: ${e.name === 'Error' ? '' : `${e.name}: `}${e.message}` };
  return { code: EXIT.failure, message: `mdq: ${String(e)}` };
}
