/** A flat record: one row of a table or a CSV file. */
export type Row = Record<string, unknown>;

/**
 * The list a response is about, as rows: a list itself (full-range bars), `results` (a list, or one
 * object), `tickers` (snapshots), `results.values` (indicators), `ticks`, `last`, else the response.
 * Nested objects become dotted columns (`day.o`, `lastTrade.p`).
 */
export function rowsOf(value: unknown): Row[] {
  return itemsOf(value).map((item) => flatten(item));
}

/** The items {@link rowsOf} is about, as the response holds them (nested objects and lists kept). */
export function itemsOf(value: unknown): unknown[] {
  if (Array.isArray(value)) {
    // A list of pages (`--no-merge-all-pages`): the items of every page in order.
    if (value.length > 0 && value.every((v) => isRecord(v) && ('results' in v || 'tickers' in v))) {
      return value.flatMap(itemsOf);
    }
    return value;
  }
  if (!isRecord(value)) return [{ value }];
  const results = value.results;
  if (Array.isArray(results)) return results;
  if (isRecord(results)) {
    if (Array.isArray(results.values)) return results.values;
    return [results];
  }
  for (const key of ['tickers', 'ticks', 'ticker', 'last']) {
    const v = value[key];
    if (Array.isArray(v)) return v;
    // One object (a snapshot, a last quote) is the row, unless the response says more than that
    // object beside its envelope (a conversion: `converted` and `initialAmount` beside `last`).
    if (isRecord(v))
      return Object.keys(value).every((k) => k === key || ENVELOPE.has(k)) ? [v] : [answer(value)];
  }
  return [value];
}

/** Fields of a response that describe the answer rather than the data. */
const ENVELOPE = new Set(['status', 'request_id', 'symbol', 'count', 'next_url']);

/** A response as one row, without its `status` and `request_id`. */
function answer(value: Record<string, unknown>): Record<string, unknown> {
  const { status: _status, request_id: _id, ...rest } = value;
  return rest;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Nested objects become dotted keys; lists of scalars are joined with commas. */
export function flatten(item: unknown, prefix = '', out: Row = {}): Row {
  if (!isRecord(item)) {
    out[prefix || 'value'] = item;
    return out;
  }
  for (const [k, v] of Object.entries(item)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (isRecord(v)) flatten(v, key, out);
    else if (Array.isArray(v) && v.every((x) => !isRecord(x) && !Array.isArray(x))) out[key] = v.join(',');
    else out[key] = v;
  }
  return out;
}

/** Columns shown first, in this order: who, when, then open/high/low/close/volume. */
const LEADING = [
  'ticker',
  'T',
  'symbol',
  't',
  'timestamp',
  'sip_timestamp',
  'o',
  'h',
  'l',
  'c',
  'v',
  'vw',
  'n',
];

/** Column names over all rows: the usual bar columns first, the rest in order of first appearance. */
export function columnsOf(rows: readonly Row[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const k of Object.keys(row)) seen.add(k);
  const lead = LEADING.filter((k) => seen.has(k));
  return [...lead, ...[...seen].filter((k) => !lead.includes(k))];
}
