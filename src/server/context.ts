import type { Store } from './store/store.js';

/** What every route module is given. */
export interface ServerContext {
  readonly store: Store;
  /**
   * "Now" in Unix ms for snapshots, last trade/quote and market status: the `--now` option when given,
   * else the latest data time in the store.
   */
  now(): Promise<number>;
  /** Logs one line (server start, warnings); never a key. */
  log(line: string): void;
}
