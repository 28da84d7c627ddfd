import { type ParamType, type TickerPrefix, t } from '../core/operation.js';
import { SORT_ORDERS, TIMESPANS } from './enums.js';

/** Parameter declarations shared by several families. */

export const symbolParam = (prefix?: TickerPrefix, doc = 'Ticker symbol, e.g. `AAPL`.') =>
  ({ name: 'symbol', wire: 'ticker', in: 'path', type: t.ticker(prefix), required: true, doc }) as const;

export const timespanParam = (defaultValue: 'day' | 'minute' = 'day') =>
  ({
    name: 'timespan',
    wire: 'timespan',
    in: 'path',
    type: t.enum(TIMESPANS, { min: 'minute' }),
    default: defaultValue,
    doc: 'Size of the time window: second, minute (or min), hour, day, week, month, quarter, year.',
  }) as const;

/** Group T of the SPEC: keep rows whose timestamp is <, <=, > or >= the value. */
export const nsTimestampFilters = [
  {
    name: 'timestamp',
    wire: 'timestamp',
    in: 'query',
    type: t.nsTimestamp(),
    doc: 'Exact day (`YYYY-MM-DD`) or nanosecond timestamp.',
  },
  {
    name: 'timestampLt',
    wire: 'timestamp.lt',
    in: 'query',
    type: t.nsTimestamp(),
    doc: 'Timestamp strictly before.',
  },
  {
    name: 'timestampLte',
    wire: 'timestamp.lte',
    in: 'query',
    type: t.nsTimestamp(),
    doc: 'Timestamp at or before.',
  },
  {
    name: 'timestampGt',
    wire: 'timestamp.gt',
    in: 'query',
    type: t.nsTimestamp(),
    doc: 'Timestamp strictly after.',
  },
  {
    name: 'timestampGte',
    wire: 'timestamp.gte',
    in: 'query',
    type: t.nsTimestamp(),
    doc: 'Timestamp at or after.',
  },
] as const;

export const msTimestampFilters = [
  {
    name: 'timestamp',
    wire: 'timestamp',
    in: 'query',
    type: t.dateOrMs(),
    doc: 'Exact day (`YYYY-MM-DD`) or millisecond timestamp.',
  },
  {
    name: 'timestampLt',
    wire: 'timestamp.lt',
    in: 'query',
    type: t.dateOrMs(),
    doc: 'Timestamp strictly before.',
  },
  {
    name: 'timestampLte',
    wire: 'timestamp.lte',
    in: 'query',
    type: t.dateOrMs(),
    doc: 'Timestamp at or before.',
  },
  {
    name: 'timestampGt',
    wire: 'timestamp.gt',
    in: 'query',
    type: t.dateOrMs(),
    doc: 'Timestamp strictly after.',
  },
  {
    name: 'timestampGte',
    wire: 'timestamp.gte',
    in: 'query',
    type: t.dateOrMs(),
    doc: 'Timestamp at or after.',
  },
] as const;

export const adjustedParam = {
  name: 'adjusted',
  wire: 'adjusted',
  in: 'query',
  type: t.boolean(),
  default: true,
  doc: 'Adjust for splits.',
} as const;

/** Range filters `<wire>.lt/.lte/.gt/.gte` of a field. */
export function rangeFilters<
  const N extends string,
  const W extends string,
  const T extends ReturnType<typeof t.date> | ReturnType<typeof t.number> | ReturnType<typeof t.string>,
>(name: N, wire: W, type: T) {
  return [
    { name: `${name}Lt`, wire: `${wire}.lt`, in: 'query', type, doc: `${wire} strictly less than.` },
    { name: `${name}Lte`, wire: `${wire}.lte`, in: 'query', type, doc: `${wire} less than or equal.` },
    { name: `${name}Gt`, wire: `${wire}.gt`, in: 'query', type, doc: `${wire} strictly greater than.` },
    { name: `${name}Gte`, wire: `${wire}.gte`, in: 'query', type, doc: `${wire} greater than or equal.` },
  ] as const;
}

/** `order`: ascending or descending; absent from the request unless it has a default. */
export const orderParam = (defaultValue?: 'asc' | 'desc') =>
  ({
    name: 'order',
    wire: 'order',
    in: 'query',
    type: t.enum(SORT_ORDERS),
    ...(defaultValue && { default: defaultValue }),
    doc: 'Order of the results.',
  }) as const;

/** `limit`: results per page, from 1 to the endpoint's maximum. */
export const limitParam = (defaultValue: number, max: number) =>
  ({
    name: 'limit',
    wire: 'limit',
    in: 'query',
    type: t.int(1, max),
    default: defaultValue,
    doc: `Results per page (maximum ${max}).`,
  }) as const;

/** `sort`: the field a listing is sorted by. */
export const sortParam = <const V extends readonly string[]>(values: V, defaultValue?: V[number]) =>
  ({
    name: 'sort',
    wire: 'sort',
    in: 'query',
    type: t.enum(values),
    ...(defaultValue !== undefined && { default: defaultValue }),
    doc: 'Field to sort by.',
  }) as const;

/** A field filter: the exact value, then its `.lt/.lte/.gt/.gte` range bounds. */
export function filterWithRange<
  const N extends string,
  const W extends string,
  const E extends ParamType,
  const R extends ReturnType<typeof t.date> | ReturnType<typeof t.number> | ReturnType<typeof t.string>,
>(name: N, wire: W, exactType: E, doc: string, rangeType: R) {
  return [{ name, wire, in: 'query', type: exactType, doc }, ...rangeFilters(name, wire, rangeType)] as const;
}

/** A currency or crypto pair as two path segments `{from}/{to}`. */
export const pairParams = [
  {
    name: 'fromSymbol',
    wire: 'from',
    in: 'path',
    type: t.pair(),
    required: true,
    doc: 'Base currency, e.g. `EUR` or `BTC`.',
  },
  {
    name: 'toSymbol',
    wire: 'to',
    in: 'path',
    type: t.pair(),
    required: true,
    doc: 'Quote currency, e.g. `USD`.',
  },
] as const;

/** `include_otc` of the stocks market endpoints. */
export const includeOtcParam = {
  name: 'includeOtc',
  wire: 'include_otc',
  in: 'query',
  type: t.boolean(),
  doc: 'Include OTC securities.',
} as const;

/**
 * A field with fixed values: the exact value and `.any_of` (a list of the values: an array, or one
 * comma-separated string, as every `.any_of` takes).
 */
export function enumFilters<
  const N extends string,
  const W extends string,
  const V extends readonly string[],
>(name: N, wire: W, values: V) {
  return [
    { name, wire, in: 'query', type: t.enum(values), doc: `${wire}: ${values.join(', ')}.` },
    {
      name: `${name}AnyOf`,
      wire: `${wire}.any_of`,
      in: 'query',
      type: t.listOf(values),
      doc: `Any of these ${wire} values, comma separated.`,
    },
  ] as const;
}

/** `sort`: comma-separated columns of the result, each optionally `.asc` or `.desc`. */
export function sortBy(columns: readonly string[], defaultText: string) {
  const column = `(?:${columns.join('|')})(?:\\.(?:asc|desc))?`;
  return {
    name: 'sort',
    wire: 'sort',
    in: 'query',
    type: t.string(
      new RegExp(`^${column}(?:,${column})*$`),
      `comma-separated columns among ${columns.join(', ')}, each optionally .asc or .desc, e.g. ${columns[0]}.desc`,
    ),
    doc: `Sort columns, each .asc or .desc (service default ${defaultText}).`,
  } as const;
}
