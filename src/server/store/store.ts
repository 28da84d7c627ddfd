import type { DuckDBValue } from '@duckdb/node-api';

/**
 * What the server's routes and `market/` code ask of a store. Two stores implement it: the embedded
 * DuckDB file (`DuckDbStore`) and a ClickHouse server or cluster (`ClickHouseStore`). Both hold the same
 * tables with the same columns (see `schema.ts`); the few SQL expressions whose spelling differs between
 * the two are asked of `dialect`, so the queries themselves are written once.
 */
export interface Store {
  /** Where the data lives, for log lines: a file path, or a server's URL without its password. */
  readonly location: string;
  /** Nothing changes the data while the store is open, so facts about it can be kept. */
  readonly readOnly: boolean;
  /** The store's spelling of the expressions that differ between stores. */
  readonly dialect: SqlDialect;
  /**
   * How many queries the store runs at once (its connections); more wait for one to come free, first
   * come first served. A replay keeps its queries well below it, so that requests always find one.
   * @default 1
   */
  readonly concurrency?: number;
  /** Runs a query with `$1`-style parameters and returns every row as an object (BIGINT as `bigint`). */
  all<T = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /**
   * Runs a query and returns its result by column: one array per column name, in row order. Cheaper
   * than {@link all} for large results (no object per row).
   */
  columns<T extends Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<Columns<T>>;
  /** Runs a statement. */
  run(sql: string, params?: readonly SqlValue[]): Promise<void>;
  /** Releases the store's connections. */
  close(): void | Promise<void>;
}

/** A value bound to a `$1`-style SQL parameter. */
export type SqlValue = DuckDBValue;

/** A result by column (see {@link Store.columns}): each column's values in row order. */
export type Columns<T extends Record<string, unknown>> = { readonly [K in keyof T]: readonly T[K][] };

/**
 * The SQL expressions whose spelling differs between the stores. Arguments are SQL text written by the
 * server's code (never a request's value); each function returns SQL text.
 */
export interface SqlDialect {
  readonly name: 'duckdb' | 'clickhouse';
  /** Integer division rounding towards minus infinity for the non-negative values stored. */
  intDiv(a: string, b: string): string;
  /** `x` as a DOUBLE / Float64. */
  double(x: string): string;
  /** The value of `value` on the row with the least (`argMin`) or greatest (`argMax`) `key`. */
  argMin(value: string, key: string): string;
  argMax(value: string, key: string): string;
  /**
   * The aggregate call `agg` (as this dialect spells it, e.g. `max(price)`) over the rows meeting
   * `cond` when there are any, else over all rows.
   */
  preferWhere(agg: string, cond: string): string;
  /** The rows of the query `base` whose `rk` is the least among the rows of the same `day` expression. */
  leastRankPer(base: string, day: string): string;
  /** True when `x` holds on every row (aggregate). */
  boolAnd(x: string): string;
  /** `agg` over the rows meeting `cond` only, NULL when none does. */
  aggWhere(agg: string, cond: string): string;
  /** max / min of `x` (a time: never 0) in a scalar subquery, for {@link greatest} and {@link least}. */
  maxOrNull(x: string): string;
  minOrNull(x: string): string;
  /** The greater / lesser of two `maxOrNull`/`minOrNull` values, ignoring a missing one; NULL when both are. */
  greatest(a: string, b: string): string;
  least(a: string, b: string): string;
  /** `x` as a nullable DOUBLE (so that UNION ALL branches agree). */
  nullableDouble(x: string): string;
  /** True when the text `x` matches the regular expression `pattern` (SQL text). */
  regexMatch(x: string, pattern: string): string;
  /**
   * Where the text `needle` first starts in the text `x`, 0 when nowhere (a position in characters or
   * in bytes, by store: compare it with 0 only).
   */
  position(x: string, needle: string): string;
  /** A DATE as `YYYY-MM-DD` text. */
  dateText(x: string): string;
  /** A TIMESTAMP (UTC) as `YYYY-MM-DDTHH:MM:SSZ` text. */
  timestampText(x: string): string;
  /** `YYYY-MM-DD` text (a parameter) as a DATE. */
  date(x: string): string;
  /** True when the text `x` is an element of `list`, a list-of-text parameter. */
  inList(x: string, list: string): string;
  /**
   * True when `x` (a column or a tuple of them) is among the rows of `query`, a query over the store's
   * tables. ClickHouse runs it once and sends its rows to every shard (`GLOBAL IN`): a cluster's
   * `Distributed` tables refuse a subquery over another one inside a query each shard runs.
   */
  inQuery(x: string, query: string): string;
  /**
   * True when `x` equals the value of `query`, an aggregate without GROUP BY over the store's tables
   * (one row of one column). ClickHouse compares with the scalar, computed first, so that its primary
   * key finds the rows (18.16 reads every row of the ticker for `x GLOBAL IN (query)`); DuckDB answers
   * `x IN (query)` from its zone maps faster than the comparison.
   */
  equalsScalar(x: string, query: string): string;
  /**
   * The one row per `partition` (SQL text) of the query `select` (no ORDER BY of its own) that comes
   * first in `order` (an ORDER BY list).
   */
  firstPer(select: string, partition: string, order: string): string;

  // Futures candles.
  /** `a` modulo `b` for the non-negative values stored, a 64-bit integer whatever the width of `b`. */
  mod(a: string, b: string): string;
  /** The value of `value` on the row that comes first (`firstInOrder`) or last in `order` (an ORDER BY list, ascending). */
  firstInOrder(value: string, order: string): string;
  lastInOrder(value: string, order: string): string;
  /** The month of the instant `ms` (Unix ms, UTC) as year × 12 + month − 1. */
  monthIndex(ms: string): string;
  /** The Unix ms of UTC midnight on the first day of the month `index` (year × 12 + month − 1, from 1970 on). */
  monthStartMs(index: string): string;
  /** True when the list `list` (a list-of-text column) holds the text `x`. */
  listHas(list: string, x: string): string;
  /** The text `x` in lower case, non-ASCII letters too (as JavaScript's `toLowerCase` gives it). */
  lowerText(x: string): string;
}
