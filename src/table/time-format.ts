/** Column names that hold Unix timestamps in the service's responses. */
const TIME_KEYS = new Set([
  't',
  'y',
  'f',
  'q',
  'timestamp',
  'sip_timestamp',
  'participant_timestamp',
  'trf_timestamp',
  'updated',
  'last_updated',
  'lastUpdated',
  'start',
  'end',
]);

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/**
 * Unix ms (whole) of a timestamp in ms, µs or ns (told apart by magnitude), or undefined when it is
 * none. Nanoseconds given as `bigint` are divided exactly, so a time never shows a millisecond early.
 */
export function timestampMs(value: unknown): number | undefined {
  if (typeof value === 'bigint') {
    if (value >= 100_000_000_000_000_000n) return Number(value / 1_000_000n);
    if (value >= 100_000_000_000_000n) return Number(value / 1_000n);
    return timestampMs(Number(value));
  }
  const n = typeof value === 'number' ? value : Number.NaN;
  if (!Number.isFinite(n) || n <= 0) return undefined;
  if (n >= 1e17) return Math.floor(n / 1e6);
  if (n >= 1e14) return Math.floor(n / 1e3);
  if (n >= 1e11) return n;
  return undefined;
}

/** `2024-03-28 15:59:00 EDT`: a Unix ms time on the wall clock of `timeZone`. */
export function formatTime(ms: number, timeZone: string): string {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  const frac = ms % 1000 === 0 ? '' : `.${String(Math.floor(((ms % 1000) + 1000) % 1000)).padStart(3, '0')}`;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}${frac} ${parts.timeZoneName}`;
}

/** The readable form of a cell: times in the market's zone when the column holds timestamps. */
export function readableCell(column: string, value: unknown, timeZone: string): unknown {
  const leaf = column.slice(column.lastIndexOf('.') + 1);
  if (!TIME_KEYS.has(leaf)) return value;
  const ms = timestampMs(value);
  return ms === undefined ? value : formatTime(ms, timeZone);
}
