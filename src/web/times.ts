/** Times written in a market's zone, from the wall times of `src/dates`. */

import { wallTime } from '../dates/time-zone.js';

/** The fields of a Unix ms time in a zone, zero-padded (`year`, `month`, `day`, `hour`, `minute`, `second`). */
export function partsIn(ms: number, zone: string): Record<string, string> {
  const w = wallTime(ms, zone);
  const two = (n: number) => String(n).padStart(2, '0');
  return {
    year: String(w.year).padStart(4, '0'),
    month: two(w.month),
    day: two(w.day),
    hour: two(w.hour),
    minute: two(w.minute),
    second: two(w.second),
  };
}

/** `YYYY-MM-DD HH:MM:SS` of a Unix ms time in a zone. */
export function dateTimeIn(ms: number, zone: string): string {
  const p = partsIn(ms, zone);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

/** A nanosecond timestamp (exact bigint, or a number) in a zone, with its nine fractional digits. */
export function nanosIn(ns: bigint | number, zone: string): string {
  const big = typeof ns === 'bigint' ? ns : BigInt(Math.round(ns));
  const ms = Number(big / 1_000_000_000n) * 1000;
  const fraction = (((big % 1_000_000_000n) + 1_000_000_000n) % 1_000_000_000n).toString().padStart(9, '0');
  return `${dateTimeIn(ms, zone)}.${fraction}`;
}

/** `YYYY-MM-DD` of the day after a date. */
export function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
