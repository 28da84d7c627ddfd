import type { DecodedValue } from '../../core/wire-values.js';
import type { SqlValue } from '../store/store.js';

const RANGE_OPS = [
  ['gt', '>'],
  ['gte', '>='],
  ['lt', '<'],
  ['lte', '<='],
] as const;

/**
 * A SQL `WHERE` clause built from decoded request values: column names come from the route's code,
 * values only ever travel as `$n` parameters.
 */
export class Where {
  private readonly clauses: string[] = [];
  readonly params: SqlValue[] = [];

  /** Adds a condition; `?` in `sql` stands for the value's parameter. */
  add(sql: string, value: SqlValue): this {
    this.params.push(value);
    this.clauses.push(sql.replace('?', `$${this.params.length}`));
    return this;
  }

  /** Adds a condition without a value. */
  raw(sql: string): this {
    this.clauses.push(sql);
    return this;
  }

  /**
   * Exact and range filters of one field: `wire` (equal), `wire.gt/.gte/.lt/.lte`. `cast` wraps the
   * parameter (`?::DATE`).
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

  /** ` WHERE …` or an empty string. */
  toString(): string {
    return this.clauses.length > 0 ? ` WHERE ${this.clauses.join(' AND ')}` : '';
  }
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
