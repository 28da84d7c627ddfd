import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type {
  Aggregate,
  AggregatesResponse,
  BarColumns,
  IndicatorResponse,
  LastTradeResponse,
  ListResponse,
  OptionTrade,
  SyncOptionsClient,
  SyncRawResponse,
  SyncReferenceClient,
  SyncStocksClient,
  TickerInfo,
  TickersResponse,
} from '../../src/index.js';
import { StocksClient } from '../../src/index.js';
import { RecordingServer } from '../support/recording-server.js';
import { minuteBarAt } from '../support/server-handlers.js';

/** `true` only when A and B are the same type (not merely assignable one way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/**
 * Type-level checks, compiled by `npm run typecheck` and never run: each `const ...: true` line compiles
 * only when the synchronous method's result follows its options exactly as the async method's does.
 */
export function syncTypeChecks(
  stocks: SyncStocksClient,
  options: SyncOptionsClient,
  reference: SyncReferenceClient,
) {
  const page = stocks.getAggregateBars('AAPL', '2024-01-02', '2024-01-05');
  const full = stocks.getAggregateBars('AAPL', '2024-01-02', '2024-01-05', { fullRange: true });
  const fullDesc = stocks.getAggregateBars('AAPL', 1, 2, {
    fullRange: true,
    sort: 'desc',
    timespan: 'minute',
  });
  const raw = stocks.getAggregateBars('AAPL', '2024-01-02', '2024-01-05', { rawResponse: true });
  const pages = stocks.getAggregateBars('AAPL', 1, 2, { allPages: true, mergeAllPages: false });
  const rawPages = stocks.getAggregateBars('AAPL', 1, 2, {
    allPages: true,
    mergeAllPages: false,
    rawPageResponses: true,
  });
  const merged = stocks.getAggregateBars('AAPL', 1, 2, { allPages: true });
  const lastRaw = stocks.getLastTrade('AAPL', { rawResponse: true });
  const last = stocks.getLastTrade('AAPL');
  const sma = stocks.getSma('AAPL', { allPages: true, mergeAllPages: false });
  const rangeBars = stocks.getFullRangeAggregateBars('AAPL', '2024-01-02', '2024-01-05');
  const rangeColumns = stocks.getFullRangeAggregateBars('AAPL', '2024-01-02', '2024-01-05', {
    columnar: true,
  });
  const fullColumns = stocks.getAggregateBars('AAPL', '2024-01-02', '2024-01-05', {
    fullRange: true,
    columnar: true,
  });
  const price = stocks.getCurrentPrice('AAPL');
  const byUrl = stocks.getPageByUrl('http://127.0.0.1/v3/trades/AAPL', { rawResponse: true });
  const checks: true[] = [
    true satisfies Equal<typeof page, AggregatesResponse & Iterable<Aggregate>>,
    true satisfies Equal<typeof full, Aggregate[]>,
    true satisfies Equal<typeof fullDesc, Aggregate[]>,
    true satisfies Equal<typeof raw, SyncRawResponse>,
    true satisfies Equal<typeof pages, AggregatesResponse[]>,
    true satisfies Equal<typeof rawPages, SyncRawResponse[]>,
    true satisfies Equal<typeof merged, AggregatesResponse & Iterable<Aggregate>>,
    true satisfies Equal<typeof lastRaw, SyncRawResponse>,
    true satisfies Equal<typeof last, LastTradeResponse>,
    true satisfies Equal<typeof sma, IndicatorResponse[]>,
    true satisfies Equal<typeof rangeBars, Aggregate[]>,
    true satisfies Equal<typeof rangeColumns, BarColumns>,
    true satisfies Equal<typeof fullColumns, BarColumns>,
    true satisfies Equal<typeof price, number>,
    true satisfies Equal<typeof byUrl, SyncRawResponse>,
  ];
  // A page has no array methods and a bar list has no `results`.
  // @ts-expect-error a full range is a list of bars, not a page
  full.results;
  // @ts-expect-error without fullRange the answer is one page
  page.map((bar) => bar.t);
  // @ts-expect-error a raw response has no decoded `results`
  raw.results;
  // The options stay checked per operation: an unknown option, or a bad value, does not compile.
  // @ts-expect-error no such option
  stocks.getAggregateBars('AAPL', 1, 2, { fullRnage: true });
  // @ts-expect-error fullRange takes a boolean
  stocks.getAggregateBars('AAPL', 1, 2, { fullRange: 'yes' });
  // @ts-expect-error the symbol is required
  stocks.getAggregateBars();

  const trades = options.getTrades('O:SPY251219C00650000', { allPages: true, mergeAllPages: false });
  const tradesRaw = options.getTrades('O:SPY251219C00650000', { rawResponse: true });
  const tradesPage = options.getTrades('O:SPY251219C00650000', { limit: 10 });
  const optionBars = options.getAggregateBars('O:SPY251219C00650000', 1, 2, { fullRange: true });
  const tickers = reference.getTickers({ allPages: true, mergeAllPages: false, rawPageResponses: true });
  const tickersPage = reference.getTickers({ allPages: true });
  checks.push(
    true satisfies Equal<typeof trades, ListResponse<OptionTrade>[]>,
    true satisfies Equal<typeof tradesRaw, SyncRawResponse>,
    true satisfies Equal<typeof tradesPage, ListResponse<OptionTrade> & Iterable<OptionTrade>>,
    true satisfies Equal<typeof optionBars, Aggregate[]>,
    true satisfies Equal<typeof tickers, SyncRawResponse[]>,
    true satisfies Equal<typeof tickersPage, TickersResponse & Iterable<TickerInfo>>,
  );
  // @ts-expect-error a list of pages is not one page
  trades.results;
  // @ts-expect-error no such option on option trades
  options.getTrades('O:SPY251219C00650000', { fullRange: true });
  return checks;
}

const MINUTE = 60_000;
const FROM = Date.parse('2024-01-02T14:30:00Z');

describe('the synchronous client returns what its types say', () => {
  const server = new RecordingServer();
  before(async () => {
    await server.start();
    await server.use('minuteBars', { stepMinutes: 1, dataStart: FROM, dataEnd: FROM + 10 * MINUTE, cap: 4 });
  });
  after(() => server.stop());

  test('fullRange: a list of bars; rawResponse: a plain response; pages: a list of pages', () => {
    const stocks = StocksClient('sync-types-key', { baseUrl: server.url });
    try {
      const to = FROM + 10 * MINUTE - 1;
      const bars: Aggregate[] = stocks.getAggregateBars('AAPL', FROM, to, {
        timespan: 'minute',
        fullRange: true,
      });
      const expected = Array.from({ length: 10 }, (_, i) => minuteBarAt(FROM + i * MINUTE));
      assert.deepEqual(
        bars.map((b) => b.t),
        expected.map((b) => b.t),
      );
      const raw: SyncRawResponse = stocks.getAggregateBars('AAPL', FROM, to, {
        timespan: 'minute',
        rawResponse: true,
      });
      assert.equal(raw.status, 200);
      assert.equal(typeof raw.body, 'string');
      const pages: AggregatesResponse[] = stocks.getAggregateBars('AAPL', FROM, to, {
        timespan: 'minute',
        allPages: true,
        mergeAllPages: false,
      });
      // Four bars a page: ten bars take three pages.
      assert.deepEqual(
        pages.map((p) => p.results?.length),
        [4, 4, 2],
      );
    } finally {
      stocks.close();
    }
  });
});
