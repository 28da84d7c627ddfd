import { NEW_YORK, startOfDay } from '../../dates/time-zone.js';
import type { ReplaySpeed } from './session.js';

/**
 * The replay options of the stream server, parsed: a leaf module, so that `mdq serve` checks them
 * before it starts anything.
 */

/** Parses `--replay-from` (but `first`, which needs the store) into Unix ns. */
export function parseReplayFrom(value: number | string): bigint {
  if (typeof value === 'number' && Number.isFinite(value)) return BigInt(Math.floor(value)) * 1_000_000n;
  if (typeof value === 'string') {
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
      const ms = startOfDay(value, NEW_YORK);
      if (!Number.isNaN(ms)) return BigInt(ms) * 1_000_000n;
    } else if (/^\d+$/.test(value)) return BigInt(value) * 1_000_000n;
    else {
      const ms = Date.parse(value);
      if (!Number.isNaN(ms)) return BigInt(ms) * 1_000_000n;
    }
  }
  throw new Error(
    `Invalid replay start: ${String(value)}; expected Unix ms, an ISO timestamp, YYYY-MM-DD or first`,
  );
}

/** Parses `--replay-speed`: a positive number or `max`. */
export function parseReplaySpeed(value: ReplaySpeed | string): ReplaySpeed {
  if (value === 'max') return 'max';
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n) || n <= 0 || (typeof value === 'string' && value.trim() === '')) {
    throw new Error(
      `Invalid replay speed: ${String(value)}; expected a positive number (1 = real time) or max`,
    );
  }
  return n;
}
