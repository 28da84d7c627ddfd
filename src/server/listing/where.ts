import { listValue } from '@duckdb/node-api';
import type { DecodedValue } from '../../core/wire-values.js';
import type { SqlDialect, SqlValue } from '../store/store.js';

const RANGE_OPS = [
  ['gt', '>'],
  ['gte', '>='],
  ['lt', '<'],
  ['lte', '<='],
] as const;

/** A half-open range `[gte, lt)`; an absent side is unbounded. */
export interface Bounds<T extends SqlValue = bigint> {
  gte?: T;
  lt?: T;
}

/**
 * The one builder of SQL `WHERE` clauses: column names come from the server's code, values only ever
 * travel as `$n` parameters. Start a query's parameters with it and append the rest through {@link param}.
 */
export class Where {
  private readonly clauses: string[] = [];
  readonly params: SqlValue[] = [];

  /** Adds a condition; `?` in `sql` stands for the value's parameter. */
  add(sql: string, value: SqlValue): this {
    this.clauses.push(sql.replace('?', this.param(value)));
    return this;
  }

  /** Adds a condition without a value. */
  raw(sql: string): this {
    this.clauses.push(sql);
    return this;
  }

  /** Binds a value without a condition (a `LIMIT`, a value in the select list) and returns its `$n`. */
  param(value: SqlValue): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /**
   * Exact and range filters of one field: `wire` (equal), `wire.gt/.gte/.lt/.lte`. `cast` wraps the
   * parameter (`dialect.date('?')`).
   */
  field(values: ReadonlyMap<string, DecodedValue>, wire: string, column: string, cast = '?'): this {
    const exact = values.get(wire);
    if (exact !== undefined) this.add(`${column} = ${cast}`, plain(exact));
    for (const [suffix, op] of RANGE_OPS) {
      const v = values.get(`${wire}.${suffix}`);
      if (v !== undefined) this.add(`${column} ${op} ${cast}`, plain(v));
    }
    return this;
  }

  /** `column` within `[bounds.gte, bounds.lt)`. */
  range(column: string, bounds: Bounds<SqlValue>): this {
    if (bounds.gte !== undefined) this.add(`${column} >= ?`, bounds.gte);
    if (bounds.lt !== undefined) this.add(`${column} < ?`, bounds.lt);
    return this;
  }

  /** `column` is one of `values` (text); none of an empty list. */
  anyOf(d: SqlDialect, column: string, values: readonly string[]): this {
    // An empty list has no element type to bind as; `1 = 0`, as ClickHouse 18.16 has no FALSE.
    if (values.length === 0) return this.raw('1 = 0');
    return this.add(d.inList(column, '?'), listValue([...values]));
  }

  /**
   * Keyset paging: rows strictly after `position` (the sort key of the last row sent) in the order of
   * `columns`, ascending, or strictly before it when `desc`.
   */
  after(columns: readonly string[], position: readonly SqlValue[], desc: boolean): this {
    const marks = position.map((v) => this.param(v));
    this.clauses.push(`(${columns.join(', ')}) ${desc ? '<' : '>'} (${marks.join(', ')})`);
    return this;
  }

  /** ` WHERE …` or an empty string. */
  toString(): string {
    return this.clauses.length > 0 ? ` WHERE ${this.clauses.join(' AND ')}` : '';
  }
}

/** The intersection of ranges. */
export function intersect<T extends bigint | number>(...ranges: Bounds<T>[]): Bounds<T> {
  const out: Bounds<T> = {};
  for (const r of ranges) {
    if (r.gte !== undefined && (out.gte === undefined || r.gte > out.gte)) out.gte = r.gte;
    if (r.lt !== undefined && (out.lt === undefined || r.lt < out.lt)) out.lt = r.lt;
  }
  return out;
}

/** A decoded value as a SQL parameter: dates as `YYYY-MM-DD` text. */
export function plain(v: DecodedValue): SqlValue {
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
    if ('date' in v) return v.date;
    if ('ms' in v) return v.ms;
    if ('ns' in v) return v.ns;
  }
  if (Array.isArray(v)) return v.join(',');
  return v as SqlValue;
}
