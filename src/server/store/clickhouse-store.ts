import { type ClickHouseClient, ClickHouseLogLevel, createClient } from '@clickhouse/client';
import {
  CLICKHOUSE_TABLES,
  type ClickHouseTable,
  createTableSql,
  NULLABLE_LISTS,
} from './clickhouse-schema.js';
import type { Columns, SqlDialect, SqlValue, Store } from './store.js';

/** Options of {@link ClickHouseStore.open}. */
export interface ClickHouseStoreOptions {
  /**
   * Cluster mode: the name of a cluster in the servers' `remote_servers` config. Tables are created
   * `ON CLUSTER` as local shards (`trades_local`, …) under `Distributed` tables of the plain names,
   * sharded by `cityHash64(ticker)`, and every query reads through the `Distributed` tables. A publish
   * also connects to each server of the cluster, over HTTP at its host in `system.clusters` on the
   * port of the store URL, with the same user and password.
   * @default none (one server)
   */
  cluster?: string;
  /**
   * Serve only: nothing writes while the store is open, so the server may keep facts about the data.
   * @default false
   */
  readOnly?: boolean;
}

/** Where a `clickhouse://user:pass@host:8123/db` URL points. */
export interface ClickHouseTarget {
  /** `http://host:port`. */
  url: string;
  username: string;
  password: string;
  database: string;
}

/**
 * Reads a `--store clickhouse://user:pass@host:port/db` URL (user, password, port and database may be
 * left out: `default`, none, 8123, `default`).
 * @throws Error naming the value and the expected form.
 */
export function parseClickHouseUrl(raw: string): ClickHouseTarget {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  const database = url ? decodeURIComponent(url.pathname.replace(/^\/+|\/+$/g, '')) || 'default' : '';
  if (url?.protocol !== 'clickhouse:' || !url.hostname || !/^\w+$/.test(database) || url.search) {
    throw new Error(
      `Invalid store: ${JSON.stringify(raw.replace(/:[^:@/]*@/, ':***@'))}; expected clickhouse://user:password@host:8123/database`,
    );
  }
  return {
    // An IPv6 hostname comes bracketed already (`[::1]`).
    url: `http://${url.hostname}:${url.port || '8123'}`,
    username: decodeURIComponent(url.username) || 'default',
    password: decodeURIComponent(url.password),
    database,
  };
}

/** The client's sockets to the server: the queries a store runs at once (the client's default). */
const MAX_OPEN_CONNECTIONS = 10;

/** How long a writable store's statement may take (a publish's copy of a month), in ms. */
const WRITER_REQUEST_TIMEOUT_MS = 3_600_000;

/** ClickHouse's spelling of the expressions `SqlDialect` names. */
const CLICKHOUSE_DIALECT: SqlDialect = {
  name: 'clickhouse',
  intDiv: (a, b) => `intDiv(${a}, ${b})`,
  double: (x) => `toFloat64(${x})`,
  argMin: (value, key) => `argMin(${value}, ${key})`,
  argMax: (value, key) => `argMax(${value}, ${key})`,
  // `maxIf(v, cond)` over no matching row gives 0, not NULL: hence the explicit count.
  preferWhere: (agg, cond) => {
    const m = /^(\w+)\((.*)\)$/s.exec(agg);
    if (!m) throw new Error(`not an aggregate call: ${agg}`);
    return `if(countIf(${cond}) > 0, ${m[1]}If(${m[2]}, ${cond}), ${agg})`;
  },
  // No window functions in 18.16: the least rank of each day, joined back by IN.
  leastRankPer: (base, day) =>
    `SELECT * FROM (${base}) WHERE (${day}, rk) IN (SELECT ${day}, min(rk) FROM (${base}) GROUP BY ${day})`,
  boolAnd: (x) => `min(${x})`,
  aggWhere: (agg, cond) => {
    const m = /^(\w+)\((.*)\)$/s.exec(agg);
    if (!m) throw new Error(`not an aggregate call: ${agg}`);
    return `if(countIf(${cond}) > 0, ${m[1]}If(${m[2]}, ${cond}), NULL)`;
  },
  // Scalar subqueries cannot return Nullable results in 18.16, and max/min over no rows give 0: the
  // callers' values are times, never 0, so 0 stands for none.
  maxOrNull: (x) => `max(${x})`,
  minOrNull: (x) => `min(${x})`,
  greatest: (a, b) => `nullIf(greatest(${a}, ${b}), 0)`,
  least: (a, b) => `nullIf(least(if(${a} = 0, ${b}, ${a}), if(${b} = 0, ${a}, ${b})), 0)`,
  nullableDouble: (x) => `CAST(${x} AS Nullable(Float64))`,
  regexMatch: (x, pattern) => `match(${x}, ${pattern})`,
  position: (x, needle) => `position(${x}, ${needle})`,
  dateText: (x) => `toString(${x})`,
  timestampText: (x) => `concat(replaceOne(toString(${x}, 'UTC'), ' ', 'T'), 'Z')`,
  // A `YYYY-MM-DD` literal compares with a Date column as that day. Not `toDate(…)`: ClickHouse puts a
  // select list's aliases into WHERE, so a column shown as text (`toString(d) AS d`) compares as text.
  date: (x) => x,
  // An empty list literal has no element type: the cast gives it one.
  inList: (x, list) => `${x} IN (SELECT arrayJoin(CAST(${list} AS Array(String))))`,
  inQuery: (x, query) => `${x} GLOBAL IN (${query})`,
  equalsScalar: (x, query) => `${x} = (${query})`,
  // No window functions in 18.16; LIMIT BY keeps the first rows of each partition.
  firstPer: (select, partition, order) => `${select} ORDER BY ${partition}, ${order} LIMIT 1 BY ${partition}`,
  // `Int64 % 59000` is an Int16 in ClickHouse (the divisor's width, signed) and wraps past 32767.
  mod: (a, b) => `modulo(${a}, toInt64(${b}))`,
  firstInOrder: (value, order) => `argMin(${value}, tuple(${order}))`,
  lastInOrder: (value, order) => `argMax(${value}, tuple(${order}))`,
  // No DateTime64 in 18.16: whole seconds as a DateTime, in UTC whatever the server's zone.
  monthIndex: (ms) => `(toRelativeMonthNum(toDateTime(intDiv(${ms}, 1000), 'UTC')) - 1)`,
  // Dates count days from 1970-01-01; 23640 is January 1970 as a month index.
  monthStartMs: (index) => `(toInt64(addMonths(toDate('1970-01-01'), (${index}) - 23640)) * 86400000)`,
  listHas: (list, x) => `has(${list}, ${x})`,
  // lower() changes ASCII letters only.
  lowerText: (x) => `lowerUTF8(${x})`,
};

/**
 * A ClickHouse server (or cluster) as the store: the tables of `clickhouse-schema.ts`, created by
 * {@link createSchema}. Queries take the same `$1`-style parameters as the DuckDB store's; the oldest
 * servers mdq meets (18.16) know no query parameters, so each value is written into the text as a
 * literal of its type (strings quoted and escaped, so a value never becomes SQL). Rows come back as
 * the DuckDB store gives them: 64-bit integers as `bigint`, an empty list as `NULL`.
 */
export class ClickHouseStore implements Store {
  readonly dialect: SqlDialect = CLICKHOUSE_DIALECT;
  /** Queries sent at once; more wait for a free socket. */
  readonly concurrency = MAX_OPEN_CONNECTIONS;

  private constructor(
    private readonly client: ClickHouseClient,
    readonly target: ClickHouseTarget,
    /** The cluster's name in cluster mode. */
    readonly cluster: string | undefined,
    readonly readOnly: boolean,
  ) {}

  get location(): string {
    const cluster = this.cluster ? ` cluster ${this.cluster}` : '';
    return `clickhouse://${this.target.username}@${this.target.url.replace(/^http:\/\//, '')}/${this.target.database}${cluster}`;
  }

  /** Connects to the server at `url` (`clickhouse://user:pass@host:8123/db`) and checks it answers. */
  static async open(url: string, options: ClickHouseStoreOptions = {}): Promise<ClickHouseStore> {
    const target = parseClickHouseUrl(url);
    if (options.cluster !== undefined && !/^\w+$/.test(options.cluster)) {
      throw new Error(
        `Invalid cluster: ${JSON.stringify(options.cluster)}; expected a name of letters, digits and _`,
      );
    }
    const client = createClient({
      url: target.url,
      username: target.username,
      password: target.password,
      database: target.database,
      max_open_connections: MAX_OPEN_CONNECTIONS,
      // 18.16 rejects settings it does not know; the client then sends none of its own.
      clickhouse_settings: {},
      // Failures reach the caller as errors; the client would log each one besides.
      log: { level: ClickHouseLogLevel.OFF },
      // A socket idle past its time is dropped when the next request starts, not only when its timer
      // runs, which a busy process runs late: the server (3 s on 18.16) may have closed it by then.
      keep_alive: { eagerly_destroy_stale_sockets: true },
      // A publish copies whole months from table to table: no 30 s limit (the client's) on a writer.
      ...(options.readOnly !== true && { request_timeout: WRITER_REQUEST_TIMEOUT_MS }),
    });
    const store = new ClickHouseStore(client, target, options.cluster, options.readOnly === true);
    try {
      await store.all('SELECT 1');
    } catch (e) {
      await client.close();
      throw new Error(`No ClickHouse server answers at ${store.location}: ${(e as Error).message}`, {
        cause: e,
      });
    }
    return store;
  }

  /** ` ON CLUSTER name`, or nothing for one server. */
  get onCluster(): string {
    return this.cluster ? ` ON CLUSTER ${this.cluster}` : '';
  }

  /**
   * Creates the tables that do not exist yet (all of them on an empty database), and adds the columns
   * a table created by an earlier mdq lacks. In cluster mode, the local shards and the `Distributed`
   * tables over them, `ON CLUSTER` (which needs the servers' ZooKeeper).
   */
  async createSchema(): Promise<void> {
    const meta = {
      name: 'meta',
      columns: [
        ['key', 'String'],
        ['value', 'String'],
      ],
      orderBy: 'key',
    } as const;
    for (const table of [...CLICKHOUSE_TABLES, { ...meta, sliceKey: 'key', shardBy: 'cityHash64(key)' }]) {
      await this.createTable(table, table.name);
      await this.addMissingColumns(table);
    }
  }

  /**
   * Adds the columns of `table` that its stored table lacks, each after the column before it in the
   * schema, so that the stored columns stay in schema order (publishing copies rows by position).
   * 18.16 knows no `ADD COLUMN IF NOT EXISTS`: the columns present are read from `system.columns`.
   */
  private async addMissingColumns(table: ClickHouseTable): Promise<void> {
    const stored = this.cluster ? `${table.name}_local` : table.name;
    const present = await this.all<{ name: string }>(
      'SELECT name FROM system.columns WHERE database = currentDatabase() AND table = $1',
      [stored],
    );
    const have = new Set(present.map((c) => c.name));
    for (const [i, [name, type]] of table.columns.entries()) {
      if (have.has(name)) continue;
      const after = i > 0 ? ` AFTER ${table.columns[i - 1]?.[0]}` : '';
      for (const t of this.cluster ? [`${table.name}_local`, table.name] : [table.name]) {
        await this.run(`ALTER TABLE ${t}${this.onCluster} ADD COLUMN ${name} ${type}${after}`);
      }
    }
  }

  /**
   * Creates `table`'s structure as `name`: a MergeTree table, or in cluster mode MergeTree shards
   * `name_local` on every server and the `Distributed` table `name` over them.
   */
  async createTable(table: (typeof CLICKHOUSE_TABLES)[number], name: string): Promise<void> {
    if (!this.cluster) {
      await this.run(createTableSql(table, name, ''));
      return;
    }
    await this.run(createTableSql(table, `${name}_local`, this.onCluster));
    await this.run(
      `CREATE TABLE IF NOT EXISTS ${name}${this.onCluster} AS ${name}_local ENGINE = Distributed(${this.cluster}, ${this.target.database}, ${name}_local, ${table.shardBy})`,
    );
  }

  /** Drops table `name` (in cluster mode, its shards too). */
  async dropTable(name: string): Promise<void> {
    await this.run(`DROP TABLE IF EXISTS ${name}${this.onCluster}`);
    if (this.cluster) await this.run(`DROP TABLE IF EXISTS ${name}_local${this.onCluster}`);
  }

  async all<T = Record<string, unknown>>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    const { meta, data } = await this.select(sql, params);
    const convert = converters(meta);
    return data.map((row) => {
      const out: Record<string, unknown> = {};
      meta.forEach((m, i) => {
        const f = convert[i];
        out[m.name] = f ? f(row[i]) : row[i];
      });
      return out as T;
    });
  }

  async columns<T extends Record<string, unknown>>(
    sql: string,
    params: readonly SqlValue[] = [],
  ): Promise<Columns<T>> {
    const { meta, data } = await this.select(sql, params);
    const convert = converters(meta);
    const out: Record<string, unknown[]> = {};
    meta.forEach((m, i) => {
      const f = convert[i];
      out[m.name] = data.map((row) => (f ? f(row[i]) : row[i]));
    });
    return out as unknown as Columns<T>;
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<void> {
    const query = inline(sql, params);
    await resent(query, () => this.client.command({ query }));
  }

  /** Sends `body` (rows in `format`, e.g. `JSONEachRow`) into `table`. */
  async insert(table: string, format: string, body: NodeJS.ReadableStream): Promise<void> {
    const result = await this.client.exec({
      query: `INSERT INTO ${table} FORMAT ${format}`,
      values: body as never,
      clickhouse_settings: this.cluster ? { insert_distributed_sync: 1 } : {},
    });
    result.stream.resume();
    await new Promise<void>((resolve, reject) => {
      result.stream.on('end', resolve);
      result.stream.on('error', reject);
    });
  }

  /** Inserts the rows of the query `select` into `table` (in cluster mode, synchronously to the shards). */
  async insertSelect(table: string, select: string): Promise<void> {
    await this.client.command({
      query: `INSERT INTO ${table} ${select}`,
      clickhouse_settings: this.cluster ? { insert_distributed_sync: 1 } : {},
    });
  }

  private async select(
    sql: string,
    params: readonly SqlValue[],
  ): Promise<{ meta: { name: string; type: string }[]; data: unknown[][] }> {
    const query = inline(sql, params);
    return resent(query, async () => {
      const result = await this.client.query({
        query,
        format: 'JSONCompact',
        clickhouse_settings: sizeSettings(query),
      });
      return (await result.json()) as { meta: { name: string; type: string }[]; data: unknown[][] };
    });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/**
 * Runs `send`, and once more when the connection was reset (`ECONNRESET`, `EPIPE`) and `query` is
 * not an `INSERT`. A reset is how a request on a kept-alive connection ends when the server closed
 * that connection, idle, as the request went out: the server never read it. Every other statement mdq
 * sends gives the same result run twice (a read, a `DROP … IF EXISTS`, a partition swap) or fails
 * the second time (a `CREATE` without `IF NOT EXISTS`), so nothing is lost or doubled even if the
 * server had run it; an `INSERT` could be doubled, and is not sent again. Inserts of a stream body
 * ({@link ClickHouseStore.insert}) cannot be, their body being read.
 */
async function resent<T>(query: string, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if ((code !== 'ECONNRESET' && code !== 'EPIPE') || /^\s*INSERT\b/i.test(query)) throw e;
    return send();
  }
}

/** ClickHouse's default `max_query_size`, in bytes. */
const DEFAULT_MAX_QUERY_SIZE = 262_144;

/**
 * Settings that let `query` be parsed: a range of decades spells every New York offset change in each
 * of its time expressions, beyond ClickHouse's default 256 KiB of text and 50 000 syntax-tree nodes.
 * A longer query raises both limits past its own size (a node takes more than one byte of text); a
 * shorter one sends none. 18.16 and current servers know these settings.
 */
function sizeSettings(query: string): Record<string, number> {
  const bytes = Buffer.byteLength(query);
  if (bytes < DEFAULT_MAX_QUERY_SIZE) return {};
  // Twice its size: the client appends its FORMAT clause to the text.
  return { max_query_size: 2 * bytes, max_ast_elements: bytes, max_expanded_ast_elements: 10 * bytes };
}

/** Per result column, how its JSON value becomes the DuckDB store's (undefined: as it is). */
function converters(meta: readonly { name: string; type: string }[]): ((v: unknown) => unknown)[] {
  return meta.map(({ name, type }) => {
    const base = type.replace(/^Nullable\((.*)\)$/, '$1');
    // 64-bit integers come as strings (JSON numbers would lose precision).
    if (base === 'Int64' || base === 'UInt64') return (v) => (v === null ? null : BigInt(v as string));
    if (NULLABLE_LISTS.has(name) && base.startsWith('Array(')) {
      return (v) => (Array.isArray(v) && v.length > 0 ? v : null);
    }
    // The schema's only UInt8 columns are flags, and comparisons give UInt8: DuckDB's BOOLEAN.
    if (base === 'UInt8') return (v) => (v === null ? null : v === 1 || v === '1');
    if (base === 'Float64' || base === 'Float32') {
      // Non-finite floats come as strings (or null) in JSON.
      return (v) => (typeof v === 'string' ? Number(v.replace(/^(-?)inf$/, '$1Infinity')) : v);
    }
    return (v) => v;
  });
}

/**
 * `sql` with each `$n` (outside quoted text) replaced by parameter n as a literal: whole numbers and
 * bigints as digits (so `LIMIT $1` stays valid), other numbers as `toFloat64(…)`.
 */
export function inline(sql: string, params: readonly SqlValue[]): string {
  if (params.length === 0) return sql;
  return sql
    .split(/('(?:[^'\\]|\\.|'')*')/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part.replace(/\$(\d+)/g, (_, n: string) => {
            const index = Number(n) - 1;
            if (index < 0 || index >= params.length) throw new Error(`SQL parameter $${n} is not bound`);
            return literal(params[index] as SqlValue);
          }),
    )
    .join('');
}

/** One value as a ClickHouse literal. */
function literal(v: SqlValue): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'number') {
    if (Number.isSafeInteger(v)) return String(v);
    if (Number.isNaN(v)) return 'nan';
    if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
    return `toFloat64(${v})`;
  }
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v === 'string') return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (typeof v === 'object' && 'items' in v && Array.isArray(v.items)) {
    return `[${v.items.map((x) => literal(x as SqlValue)).join(', ')}]`;
  }
  return `'${String(v).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
