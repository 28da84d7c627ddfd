import { type Bounds, Where } from '../listing/where.js';
import type { Store } from '../store/store.js';
import type { QuoteRow, TradeRow } from '../store/tick-rows.js';

/** A range of one ticker's ticks, in time order. */
export interface TickQuery {
  readonly ticker: string;
  /** SIP time range, Unix ns. */
  readonly bounds: Bounds;
  /** Newest first. */
  readonly desc: boolean;
  readonly limit: number;
  /** Resume strictly after (or before, when `desc`) this (sip_timestamp, sequence_number). */
  readonly after?: readonly [bigint, bigint];
}

/** Ticks of `table` ordered by (sip_timestamp, sequence_number), the key every tick listing pages on. */
function ticks<T>(store: Store, table: 'trades' | 'quotes', q: TickQuery): Promise<T[]> {
  const where = new Where().add('ticker = ?', q.ticker).range('sip_timestamp', q.bounds);
  if (q.after) where.after(['sip_timestamp', 'sequence_number'], q.after, q.desc);
  const dir = q.desc ? 'DESC' : 'ASC';
  const limit = where.param(BigInt(q.limit));
  return store.all<T>(
    `SELECT * FROM ${table}${where} ORDER BY sip_timestamp ${dir}, sequence_number ${dir} LIMIT ${limit}`,
    where.params,
  );
}

/** Trades of a ticker in a time range. */
export function queryTrades(store: Store, q: TickQuery): Promise<TradeRow[]> {
  return ticks<TradeRow>(store, 'trades', q);
}

/** Quotes of a ticker in a time range. */
export function queryQuotes(store: Store, q: TickQuery): Promise<QuoteRow[]> {
  return ticks<QuoteRow>(store, 'quotes', q);
}

/** Trades or quotes, by table name. */
export function queryTicks(
  store: Store,
  table: 'trades' | 'quotes',
  q: TickQuery,
): Promise<(TradeRow & QuoteRow)[]> {
  return ticks<TradeRow & QuoteRow>(store, table, q);
}
