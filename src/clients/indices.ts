import type { Call, CallOptions, PagedCall } from '../core/client.js';
import { NEW_YORK } from '../dates/time-zone.js';
import { aggregateBars, dailyOpenClose, previousClose } from '../operations/aggregates.js';
import { indicators } from '../operations/indicators.js';
import { indicesSnapshot } from '../operations/snapshots.js';
import type { DailyOpenCloseResponse } from '../types/common.js';
import type { IndexSnapshot, IndexSnapshotsResponse } from '../types/other.js';
import { MarketClient } from './market-client.js';
import { clientFactory, type SyncOf } from './sync-client.js';

/**
 * The Indices operations (SPEC 4.5). `I:` is optional everywhere. Index values have no splits: the
 * aggregates accept `adjusted` (default false) for compatibility and never send it.
 */
export const indicesOperations = {
  getPreviousClose: previousClose('I:', false),
  getDailyOpenClose: dailyOpenClose('I:', false),
  getAggregateBars: aggregateBars('I:', 'client'),
  getSnapshot: indicesSnapshot,
  ...indicators('I:'),
} as const;

const ops = indicesOperations;
type Opt<K extends keyof typeof ops> = CallOptions<(typeof ops)[K]>;

/** The asynchronous Indices client. */
export class AsyncIndexClient extends MarketClient<typeof ops> {
  protected readonly ops = ops;
  protected readonly timeZone = NEW_YORK;

  /** Open, close and after-hours values of an index on one date. */
  getDailyOpenClose<const O extends Opt<'getDailyOpenClose'>>(
    symbol: string,
    date: Date | string,
    options?: O,
  ): Call<DailyOpenCloseResponse, O> {
    return this.call(ops.getDailyOpenClose, [symbol, date], options);
  }

  /** Snapshot of indices (`symbols`: at most 250; all when omitted), paged by `next_url`. */
  getSnapshot<const O extends Opt<'getSnapshot'>>(
    options?: O,
  ): PagedCall<IndexSnapshotsResponse, O, IndexSnapshot> {
    return this.call(ops.getSnapshot, [], options);
  }
}

/** The synchronous Indices client. */
export type SyncIndexClient = SyncOf<AsyncIndexClient>;

/** Creates an Indices client: synchronous by default, asynchronous with `useAsync: true`. */
export const IndexClient = clientFactory(AsyncIndexClient, 'AsyncIndexClient');
