import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type DuckDBConnection, DuckDBInstance, type DuckDBValue } from '@duckdb/node-api';
import { MIGRATIONS, SCHEMA_VERSION } from './schema.js';

/** How `Store.open` opens the database file. */
export interface StoreOpenOptions {
  /**
   * Open without write access: no migration runs, and the file must already exist at the current
   * `SCHEMA_VERSION`. Several read-only processes may share one file (the test suite's store).
   * @default false
   */
  readOnly?: boolean;
}

/** A value bound to a `$1`-style SQL parameter. */
export type SqlValue = DuckDBValue;

/**
 * The embedded DuckDB store. Opens (or creates) one database file, migrates it to `SCHEMA_VERSION`, and
 * runs parameterised SQL. Rows come back as plain objects (BIGINT as `bigint`).
 */
export class Store {
  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly conn: DuckDBConnection,
    /** Path of the database file, or `:memory:`. */
    readonly path: string,
  ) {}

  /**
   * Opens the store at `path` (`:memory:` for a throw-away store) and migrates it; with `readOnly`,
   * checks its schema version instead.
   */
  static async open(path: string, options: StoreOpenOptions = {}): Promise<Store> {
    const readOnly = options.readOnly === true;
    if (path !== ':memory:' && !readOnly) mkdirSync(dirname(path), { recursive: true });
    const instance = await DuckDBInstance.create(path, readOnly ? { access_mode: 'READ_ONLY' } : {});
    const conn = await instance.connect();
    const store = new Store(instance, conn, path);
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
  async all<T = Record<string, unknown>>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    const reader = await this.conn.runAndReadAll(sql, params as SqlValue[]);
    return reader.getRowObjects() as T[];
  }

  /** Runs a statement. */
  async run(sql: string, params: readonly SqlValue[] = []): Promise<void> {
    await this.conn.run(sql, params as SqlValue[]);
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

  /** Closes the connection and the database. */
  close(): void {
    this.conn.closeSync();
    this.instance.closeSync();
  }
}
