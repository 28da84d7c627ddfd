/**
 * RFC 3339 timestamps read exactly to the nanosecond: the service's cursors carry
 * `2022-05-10T14:11:12.690661189Z`, which `Date` would cut to milliseconds.
 */
import { isRealDay, utcMidnight } from './calendar.js';

// An offset is required: a wall time without one names no instant.
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * Unix nanoseconds of an RFC 3339 timestamp with an explicit offset (`Z` or `±hh:mm`), exact to the
 * nanosecond; `undefined` for any other text or an impossible date or time. A leap second (`:60`) is
 * refused.
 */
export function parseRfc3339Ns(text: string): bigint | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (!isRealDay(year, month, day) || hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetMinutes = 0;
  if (m[8] === undefined) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const wallMs = utcMidnight(year, month, day) + ((hour * 60 + minute) * 60 + second) * 1000;
  const fraction = BigInt((m[7] ?? '').padEnd(9, '0'));
  return BigInt(wallMs - offsetMinutes * 60_000) * 1_000_000n + fraction;
}
