import type { Context } from 'hono';
import { InvalidParameterError } from '../core/errors.js';
import type { OperationSpec, ParamSpec } from '../core/operation.js';
import { clampToMax, type DecodedValue, decodeParam, isInRange } from '../core/wire-values.js';
import { zonedToUtc } from '../dates/time-zone.js';
import { decodeCursor } from './cursor.js';
import type { AppEnv } from './http.js';

/** A request decoded against an operation declaration. */
export interface ParsedRequest {
  /** Decoded values by wire name (`timestamp.gte`, `limit`), defaults filled in. */
  readonly values: ReadonlyMap<string, DecodedValue>;
  /** The effective query: the cursor's when one was sent, else the request's own. */
  readonly query: URLSearchParams;
  /** True when the query came from a `cursor`. */
  readonly fromCursor: boolean;
}

/** Server-side defaults where the service's own differ from what the declarations send. */
export type ServerDefaults = Readonly<Record<string, string | number | boolean>>;

/** Query keys the server itself handles on every route. */
const RESERVED = new Set(['apiKey', 'cursor']);

/**
 * Decodes the path and query parameters `op` declares, as the service would: unknown query keys are
 * ignored, `limit` above its maximum is clamped (other numbers out of range are refused), parameters the endpoint does not take (`in: 'client'`)
 * are ignored, defaults fill what is absent (`defaults` first, then the declaration's). With a `cursor`
 * the query is the cursor's (the service's next_url carries nothing else but the key).
 *
 * @throws InvalidParameterError for a malformed value (answered 400); HttpProblem 400 for a bad cursor.
 */
export function parseRequest(
  op: OperationSpec,
  c: Context<AppEnv>,
  defaults: ServerDefaults = {},
): ParsedRequest {
  const own = new URL(c.req.url).searchParams;
  const cursor = own.get('cursor');
  const query = cursor !== null ? decodeCursor(cursor) : own;
  const values = new Map<string, DecodedValue>();
  for (const param of op.params) {
    if (param.in === 'client' || RESERVED.has(param.wire)) continue;
    const raw = param.in === 'path' ? c.req.param(param.wire) : queryValue(query, param);
    if (raw !== undefined && raw !== null && raw !== '') {
      values.set(param.wire, clamp(param, decodeParam(param, raw)));
      continue;
    }
    const fallback = Object.hasOwn(defaults, param.wire) ? defaults[param.wire] : param.default;
    if (fallback !== undefined) values.set(param.wire, clamp(param, decodeParam(param, String(fallback))));
    else if (param.in === 'path') values.set(param.wire, decodeParam(param, raw ?? ''));
  }
  return { values, query, fromCursor: cursor !== null };
}

/**
 * A query parameter's text: the first value, as the service reads a repeated key; a list joins every
 * value (`tickers=A&tickers=B`, how some clients send arrays, reads as `A,B`).
 */
function queryValue(query: URLSearchParams, param: ParamSpec): string | null {
  if (param.type.kind !== 'list') return query.get(param.wire);
  const all = query.getAll(param.wire).filter((s) => s.trim() !== '');
  return all.length === 0 ? null : all.join(',');
}

/** `limit` above its maximum is clamped, as the service does; any other number out of range is refused. */
function clamp(param: ParamSpec, value: DecodedValue): DecodedValue {
  if (typeof value !== 'number') return value;
  if (param.wire === 'limit') return clampToMax(param, value);
  if (!isInRange(param, value)) {
    const type = param.type as { min?: number; max?: number };
    throw new InvalidParameterError(
      param.wire,
      String(value),
      `expected a number from ${type.min ?? '-∞'} to ${type.max ?? '∞'}`,
    );
  }
  return value;
}

/** The Hono route pattern of a declared path: `/v3/trades/{ticker}` → `/v3/trades/:ticker`. */
export function routePattern(op: OperationSpec): string {
  return op.path.replace(/\{([^}]+)\}/g, ':$1');
}

/** A half-open time range `[gte, lt)` in Unix ns; an absent side is unbounded. */
export interface NsBounds {
  gte?: bigint;
  lt?: bigint;
}

const NS_PER_MS = 1_000_000n;

/**
 * The range selected by the `timestamp`, `timestamp.gte/.gt/.lte/.lt` filters among `values` (ns or ms
 * timestamps, or dates). A date stands for its whole day in `tz` (the market's time zone): `.gte`
 * and `timestamp` start at its midnight, `.lte` and `timestamp` end at the next one, `.gt` starts at the
 * next one, `.lt` ends at its midnight.
 */
export function timestampBounds(values: ReadonlyMap<string, DecodedValue>, tz: string): NsBounds {
  const b: NsBounds = {};
  const lower = (v: bigint) => {
    if (b.gte === undefined || v > b.gte) b.gte = v;
  };
  const upper = (v: bigint) => {
    if (b.lt === undefined || v < b.lt) b.lt = v;
  };
  const read = (wire: string, onDate: (start: bigint, end: bigint) => void, onNs: (ns: bigint) => void) => {
    const v = values.get(wire);
    if (v === undefined || typeof v !== 'object' || Array.isArray(v)) return;
    if ('date' in v) onDate(dayStartNs(v.date, tz, 0), dayStartNs(v.date, tz, 1));
    else if ('ns' in v) onNs(v.ns);
    else if ('ms' in v) onNs(BigInt(v.ms) * NS_PER_MS);
  };
  read(
    'timestamp',
    (s, e) => {
      lower(s);
      upper(e);
    },
    (ns) => {
      lower(ns);
      upper(ns + unitOf(values.get('timestamp')));
    },
  );
  read(
    'timestamp.gte',
    (s) => lower(s),
    (ns) => lower(ns),
  );
  read(
    'timestamp.gt',
    (_s, e) => lower(e),
    (ns) => lower(ns + unitOf(values.get('timestamp.gt'))),
  );
  read(
    'timestamp.lte',
    (_s, e) => upper(e),
    (ns) => upper(ns + unitOf(values.get('timestamp.lte'))),
  );
  read(
    'timestamp.lt',
    (s) => upper(s),
    (ns) => upper(ns),
  );
  return b;
}

/** One unit of the value's precision in ns: a ms timestamp covers a whole millisecond. */
function unitOf(v: DecodedValue | undefined): bigint {
  return v !== undefined && typeof v === 'object' && 'ms' in v ? NS_PER_MS : 1n;
}

/** Midnight (Unix ns) in `tz` of `date` plus `plusDays` days. */
export function dayStartNs(date: string, tz: string, plusDays: number): bigint {
  return BigInt(dayStartMs(date, tz, plusDays)) * NS_PER_MS;
}

/** Midnight (Unix ms) in `tz` of `date` plus `plusDays` days. */
export function dayStartMs(date: string, tz: string, plusDays: number): number {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + plusDays);
  return zonedToUtc(tz, d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}
