import type { AssetClass } from './market/now.js';
import type { Store } from './store/store.js';

/** What every route module is given. */
export interface ServerContext {
  readonly store: Store;
  /**
   * "Now" in Unix ms for snapshots, last trade/quote and market status: the `--now` option when given,
   * else the latest data time of `assetClass` in the store (`latestDataTimes`), or without one the
   * latest of any class.
   */
  now(assetClass?: AssetClass): Promise<number>;
  /** Logs one line (server start, warnings); never a key. */
  log(line: string): void;
}
