import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  DOUBLE,
  type DuckDBConnection,
  DuckDBInstance,
  type DuckDBPreparedStatement,
  type DuckDBResultReader,
  type DuckDBType,
} from '@duckdb/node-api';
import { MIGRATIONS, SCHEMA_VERSION } from './schema.js';
import type { Columns, SqlDialect, SqlValue, Store } from './store.js';

/** How `DuckDbStore.open` opens the database file. */
export interface StoreOpenOptions {
  /**
   * Open without write access: no migration runs, and the file must already exist at the current
   * `SCHEMA_VERSION`. Several read-only processes may share one file (the test suite's store).
   * @default false
   */
  readOnly?: boolean;
  /**
   * Connections that answer `all()` on a read-only store, so that concurrent queries (one per HTTP
   * request) run side by side instead of queueing behind one connection. A writable store always has
   * exactly one connection: its transactions and appenders need every statement on the same one.
   * @default 4
   */
  readConnections?: number;
}

/**
 * The embedded DuckDB store. Opens (or creates) one database file, migrates it to `SCHEMA_VERSION`, and
 * runs parameterised SQL. Rows come back as plain objects (BIGINT as `bigint`).
 */
export class DuckDbStore implements Store {
  /** DuckDB's spelling of the expressions that differ between stores. */
  readonly dialect: SqlDialect = DUCKDB_DIALECT;

  /** Connections free to run a read (read-only stores only; empty otherwise). */
  private readonly idle: DuckDBConnection[] = [];
  /** Reads waiting for a free connection, first come first served. */
  private readonly waiting: ((conn: DuckDBConnection) => void)[] = [];
  /** Every connection to close, the main one first. */
  private readonly connections: DuckDBConnection[];
  /** Statements prepared on each read connection, by SQL text, least recently used first. */
  private readonly prepared = new Map<DuckDBConnection, Map<string, DuckDBPreparedStatement>>();

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly conn: DuckDBConnection,
    /** Path of the database file, or `:memory:`. */
    readonly path: string,
    /** The connections that answer reads, the main one included (empty: the main one alone). */
    readers: readonly DuckDBConnection[],
  ) {
    this.connections = [conn, ...readers.filter((r) => r !== conn)];
    this.idle.push(...readers);
    this.readOnly = readers.length > 0;
    this.concurrency = Math.max(1, readers.length);
  }

  /** Reads answered at once: the read connections of a read-only store, else its one connection. */
  readonly concurrency: number;

  get location(): string {
    return this.path;
  }

  /** Opened read-only: nothing changes the data while it is open, so facts about it can be kept. */
  readonly readOnly: boolean;

  /**
   * Opens the store at `path` (`:memory:` for a throw-away store) and migrates it; with `readOnly`,
   * checks its schema version instead.
   */
  static async open(path: string, options: StoreOpenOptions = {}): Promise<DuckDbStore> {
    const readOnly = options.readOnly === true;
    if (path !== ':memory:' && !readOnly) mkdirSync(dirname(path), { recursive: true });
    const instance = await DuckDBInstance.create(path, readOnly ? { access_mode: 'READ_ONLY' } : {});
    const conn = await instance.connect();
    const readers: DuckDBConnection[] = [];
    if (readOnly) {
      // The main connection reads too; the others only read.
      readers.push(conn);
      const count = Math.max(1, Math.floor(options.readConnections ?? 4));
      try {
        for (let i = 1; i < count; i++) readers.push(await instance.connect());
      } catch (e) {
        for (const c of readers) c.closeSync();
        instance.closeSync();
        throw e;
      }
    }
    const store = new DuckDbStore(instance, conn, path, readers);
    try {
      if (readOnly) await store.checkVersion();
      else await store.migrate();
    } catch (e) {
      store.close();
      throw e;
    }
    return store;
  }

  private async checkVersion(): Promise<void> {
    const rows = await this.all<{ value: string }>("SELECT value FROM meta WHERE key = 'schema_version'");
    const version = rows[0] ? Number(rows[0].value) : 0;
    if (version !== SCHEMA_VERSION) {
      throw new Error(`${this.path} has schema version ${version}; this mdq reads version ${SCHEMA_VERSION}`);
    }
  }

  private async migrate(): Promise<void> {
    await this.conn.run('CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR)');
    const rows = await this.all<{ value: string }>("SELECT value FROM meta WHERE key = 'schema_version'");
    let version = rows[0] ? Number(rows[0].value) : 0;
    if (version > SCHEMA_VERSION) {
      throw new Error(`${this.path} has schema version ${version}; this mdq knows up to ${SCHEMA_VERSION}`);
    }
    while (version < SCHEMA_VERSION) {
      await this.transaction(async () => {
        await this.conn.run(MIGRATIONS[version] as string);
        await this.run(
          "INSERT INTO meta VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
          [String(version + 1)],
        );
      });
      version++;
    }
  }

  /** Runs a query and returns every row as an object. */
  all<T = Record<string, unknown>>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return this.read(sql, params, (reader) => reader.getRowObjects() as T[]);
  }

  /**
   * Runs a query and returns its result by column: one array per column name, in row order. Cheaper
   * than {@link all} for large results (no object per row).
   */
  columns<T extends Record<string, unknown>>(
    sql: string,
    params: readonly SqlValue[] = [],
  ): Promise<Columns<T>> {
    return this.read(sql, params, (reader) => {
      const columns = reader.getColumnsObject();
      // An empty result has no chunks, from which the columns are read: name them all the same.
      for (const name of reader.columnNames()) columns[name] ??= [];
      return columns as unknown as Columns<T>;
    });
  }

  /**
   * Runs a read on a free connection with its statement kept prepared; a writable store's reads run on
   * its one connection, prepared afresh.
   */
  private async read<R>(
    sql: string,
    params: readonly SqlValue[],
    take: (reader: DuckDBResultReader) => R,
  ): Promise<R> {
    const types = bindTypes(params);
    if (!this.readOnly) {
      return take(await this.conn.runAndReadAll(sql, params as SqlValue[], types));
    }
    const conn =
      this.idle.pop() ?? (await new Promise<DuckDBConnection>((resolve) => this.waiting.push(resolve)));
    try {
      const statement = await this.statement(conn, sql);
      if (!statement) return take(await conn.runAndReadAll(sql, params as SqlValue[], types));
      if (params.length > 0) statement.bind(params as SqlValue[], types);
      return take(await statement.runAndReadAll());
    } finally {
      const next = this.waiting.shift();
      if (next) next(conn);
      else this.idle.push(conn);
    }
  }

  /**
   * The statement for `sql` prepared on `conn` (a read connection), prepared on first use and kept:
   * a read-only store's catalog cannot change, and a repeated query then skips parsing and planning
   * (a quarter of the time of an aggregate over a day of minute bars). Undefined for SQL that does not
   * prepare as one statement, which then runs as before.
   */
  private async statement(conn: DuckDBConnection, sql: string): Promise<DuckDBPreparedStatement | undefined> {
    let kept = this.prepared.get(conn);
    if (!kept) {
      kept = new Map();
      this.prepared.set(conn, kept);
    }
    const known = kept.get(sql);
    if (known) {
      kept.delete(sql);
      kept.set(sql, known);
      return known;
    }
    let statement: DuckDBPreparedStatement;
    try {
      statement = await conn.prepare(sql);
    } catch {
      return undefined;
    }
    kept.set(sql, statement);
    if (kept.size > PREPARED_PER_CONNECTION) {
      const [oldest, old] = kept.entries().next().value as [string, DuckDBPreparedStatement];
      kept.delete(oldest);
      old.destroySync();
    }
    return statement;
  }

  /** Runs a statement. */
  async run(sql: string, params: readonly SqlValue[] = []): Promise<void> {
    await this.conn.run(sql, params as SqlValue[], bindTypes(params));
  }

  /** The underlying connection, for bulk work (appenders) inside ingest. */
  get connection(): DuckDBConnection {
    return this.conn;
  }

  /** Runs `fn` in one transaction: everything it writes lands, or nothing does. */
  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    await this.conn.run('BEGIN TRANSACTION');
    try {
      const result = await fn();
      await this.conn.run('COMMIT');
      return result;
    } catch (e) {
      await this.conn.run('ROLLBACK');
      throw e;
    }
  }

  /** Closes the connections and the database. */
  close(): void {
    for (const kept of this.prepared.values()) for (const statement of kept.values()) statement.destroySync();
    this.prepared.clear();
    for (const c of this.connections) c.closeSync();
    this.instance.closeSync();
  }
}

/** Statements kept per read connection (see `DuckDbStore.statement`): routes run a few dozen distinct queries. */
const PREPARED_PER_CONNECTION = 64;

/**
 * Types for binding `params`. DuckDB binds a whole JS number as BIGINT, so one beyond the int64 range
 * (a request's `strike_price=1e20`) would fail the query; such numbers are bound as DOUBLE instead.
 * Undefined when every parameter binds as inferred.
 */
function bindTypes(params: readonly SqlValue[]): DuckDBType[] | undefined {
  // An undefined entry leaves that parameter's type to inference (the typings say otherwise).
  let types: (DuckDBType | undefined)[] | undefined;
  params.forEach((p, i) => {
    if (typeof p === 'number' && Number.isInteger(p) && !Number.isSafeInteger(p)) {
      types ??= new Array(params.length).fill(undefined);
      types[i] = DOUBLE;
    }
  });
  return types as DuckDBType[] | undefined;
}

/** DuckDB's spelling of the expressions `SqlDialect` names. */
const DUCKDB_DIALECT: SqlDialect = {
  name: 'duckdb',
  intDiv: (a, b) => `(${a}) // (${b})`,
  double: (x) => `(${x})::DOUBLE`,
  argMin: (value, key) => `arg_min(${value}, ${key})`,
  argMax: (value, key) => `arg_max(${value}, ${key})`,
  preferWhere: (agg, cond) => `coalesce(${agg} FILTER (WHERE ${cond}), ${agg})`,
  leastRankPer: (base, day) => `SELECT * FROM (${base}) QUALIFY rk = min(rk) OVER (PARTITION BY ${day})`,
  boolAnd: (x) => `bool_and(${x})`,
  aggWhere: (agg, cond) => `${agg} FILTER (WHERE ${cond})`,
  maxOrNull: (x) => `max(${x})`,
  minOrNull: (x) => `min(${x})`,
  greatest: (a, b) => `greatest(${a}, ${b})`,
  least: (a, b) => `least(${a}, ${b})`,
  nullableDouble: (x) => `(${x})::DOUBLE`,
  regexMatch: (x, pattern) => `regexp_matches(${x}, ${pattern})`,
  position: (x, needle) => `strpos(${x}, ${needle})`,
  dateText: (x) => `strftime(${x}, '%Y-%m-%d')`,
  timestampText: (x) => `strftime(${x}, '%Y-%m-%dT%H:%M:%SZ')`,
  date: (x) => `${x}::DATE`,
  inList: (x, list) => `${x} IN (SELECT unnest(${list}::VARCHAR[]))`,
  inQuery: (x, query) => `${x} IN (${query})`,
  equalsScalar: (x, query) => `${x} IN (${query})`,
  firstPer: (select, partition, order) =>
    `${select} QUALIFY row_number() OVER (PARTITION BY ${partition} ORDER BY ${order}) = 1`,
  mod: (a, b) => `(${a}) % (${b})`,
  firstInOrder: (value, order) => `first(${value} ORDER BY ${order})`,
  lastInOrder: (value, order) => `last(${value} ORDER BY ${order})`,
  monthIndex: (ms) => `(year(epoch_ms(${ms})) * 12 + month(epoch_ms(${ms})) - 1)`,
  monthStartMs: (index) => `epoch_ms(make_timestamp((${index}) // 12, (${index}) % 12 + 1, 1, 0, 0, 0))`,
  listHas: (list, x) => `list_contains(${list}, ${x})`,
  lowerText: (x) => `lower(${x})`,
};
