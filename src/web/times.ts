/** Times written in a market's zone. */

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(zone, f);
  }
  return f;
}

/** The fields of a Unix ms time in a zone. */
export function partsIn(ms: number, zone: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of formatIn(zone).formatToParts(ms)) out[p.type] = p.value;
  return out;
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
