/**
 * The replay's bar channels (forex `CA`, crypto `XA`, index `AM`/`V`, futures and options `AM`) read
 * from a ClickHouse store the same bars, in the same order, as from a DuckDB store holding the same Lean
 * files; futures `AM` reads every contract's bars of a day in one query.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { startServer } from '../../src/server/index.js';
import { ingestLean } from '../../src/server/ingest/lean.js';
import { type FuturesCandle, queryFuturesAggs } from '../../src/server/market/futures.js';
import { publishToClickHouse } from '../../src/server/store/clickhouse-publish.js';
import { ClickHouseStore } from '../../src/server/store/clickhouse-store.js';
import { DuckDbStore } from '../../src/server/store/duckdb-store.js';
import type { Store } from '../../src/server/store/store.js';
import { FEEDS } from '../../src/server/stream/feeds.js';
import { type Tick, type TickKey, TickSource, tickKey } from '../../src/server/stream/tick-source.js';
import type { StreamMarket } from '../../src/stream/channels.js';
import { leanSubset } from '../server/ingest/helpers.js';
import { startClickHouse } from '../support/clickhouse.js';
import { countingStore } from '../support/counting-store.js';
import { hasShared, leanDir, sharedDir } from '../support/shared.js';
import { KEY } from './fixture.js';
import { assertOptionMinutes } from './option-minutes.js';

const FILES = [
  'forex/oanda/minute/eurusd/20140501_quote.zip',
  'crypto/coinbase/minute/btcusd/20180404_trade.zip',
  'index/usa/minute/spx/20210104_trade.zip',
  'option/usa/minute/goog/20151223_trade_american.zip',
  'option/usa/minute/goog/20151224_trade_american.zip',
];
const FUTURES = 'future/cme/minute/es/20131007_trade.zip';
/** Three days of gold: many contracts a day. */
const GOLD = [7, 8, 9].map((d) => `future/comex/minute/gc/2013100${d}_trade.zip`);
const futuresDir = `${sharedDir}marketdata-futures/lean/`;

/** Per market: where its replay starts and a wildcard of its bar channel. */
const REPLAYS: readonly [StreamMarket, string][] = [
  ['forex', '2014-05-01T00:00:00Z'],
  ['crypto', '2018-04-04T00:00:00Z'],
  ['indices', '2021-01-04T14:00:00Z'],
  ['futures', '2013-10-07T00:00:00Z'],
  ['options', '2015-12-23T05:00:00Z'],
];

/** The first batches of bar ticks a replay of every ticker's minute bars reads, with their days so far. */
async function replayed(store: Store, market: StreamMarket, from: string): Promise<unknown[]> {
  const source = new TickSource(store, market, FEEDS[market]);
  const all = { all: true, tickers: [] };
  const fromNs = BigInt(Date.parse(from)) * 1_000_000n;
  const out: unknown[] = [];
  let after: TickKey | undefined;
  for (let i = 0; i < 3; i++) {
    const batch: Tick[] = await source.next(undefined, undefined, fromNs, after, 500, { minute: all });
    const last = batch.at(-1);
    if (!last) break;
    out.push(...batch.map((x) => [tickKey(x), 'bar' in x ? [x.bar, x.day] : undefined]));
    after = tickKey(last);
  }
  return out;
}

describe('the replay of bar channels from a ClickHouse store', () => {
  test('forex, crypto, indices, futures and options bars as from DuckDB', { timeout: 300_000 }, async (t) => {
    if (!hasShared(t, leanDir) || !hasShared(t, futuresDir)) return;
    const servers = await startClickHouse(t);
    if (!servers) return;
    const work = mkdtempSync(join(tmpdir(), 'mdq-replay-bars-'));
    t.after(() => rmSync(work, { recursive: true, force: true }));
    const lean = leanSubset(FILES);
    t.after(lean.cleanup);
    const futures = leanSubset([FUTURES, ...GOLD], futuresDir);
    t.after(futures.cleanup);
    const duck = await DuckDbStore.open(join(work, 'store.duckdb'));
    t.after(() => duck.close());
    await ingestLean(duck, lean.dir);
    await ingestLean(duck, futures.dir);
    const clickhouse = await ClickHouseStore.open(servers.urls[0] as string, { readOnly: true });
    t.after(() => clickhouse.close());
    await publishToClickHouse(duck, clickhouse);

    for (const [market, from] of REPLAYS) {
      const expected = await replayed(duck, market, from);
      assert.ok(expected.length > 0, `${market}: bars replayed from DuckDB`);
      assert.deepEqual(await replayed(clickhouse, market, from), expected, market);
    }

    // Options `AM.*` over a WebSocket of `mdq serve` on the ClickHouse store: every contract's REST
    // minute bars of the first day, with their days so far (the contracts of the second day have none
    // before it ends).
    const server = await startServer({
      store: clickhouse,
      port: 0,
      apiKeys: [KEY],
      replayFrom: Date.UTC(2015, 11, 23, 5),
      replaySpeed: 'max',
      log: () => {},
    });
    t.after(() => server.close());
    const firstDay = "ticker LIKE 'O:%' AND resolution = 'minute' AND t < $1";
    const secondDay = [BigInt(Date.UTC(2015, 11, 24))];
    const contracts = await duck.all<{ ticker: string }>(
      `SELECT DISTINCT ticker FROM bars WHERE ${firstDay} ORDER BY ticker`,
      secondDay,
    );
    const [minutes] = await duck.all<{ n: number }>(
      `SELECT count(*)::DOUBLE AS n FROM bars WHERE ${firstDay}`,
      secondDay,
    );
    assert.ok(contracts.length > 10 && (minutes?.n as number) > 100, 'a day of many contracts');
    await assertOptionMinutes(
      server,
      Date.UTC(2015, 11, 23, 5),
      ['AM.*'],
      contracts.map((c) => c.ticker),
      minutes?.n as number,
    );

    // Futures `AM.*` over the whole stored week: each bar the REST `1min` candle of its contract and
    // window, in a number of queries that grows neither with the contracts nor beyond two a UTC day: one
    // finds the day, one reads every contract's candles of it (a day cost four before: the windows
    // ending at its midnight were found and read again as a stretch of their own).
    const window = { source: 'minute', unit: 'ms', size: 60_000, offset: 0 } as const;
    for (const store of [duck, clickhouse]) {
      const counting = countingStore(store);
      const source = new TickSource(counting.store, 'futures', FEEDS.futures);
      const all = { all: true, tickers: [] };
      let after: TickKey | undefined;
      const bars: Tick[] = [];
      for (;;) {
        const batch = await source.next(undefined, undefined, 0n, after, 500, { minute: all });
        const last = batch.at(-1);
        if (!last) break;
        bars.push(...batch);
        after = tickKey(last);
      }
      const days = new Set(
        bars.map((b) => Math.floor(Number(b.sip_timestamp / 1_000_000n - 1n) / 86_400_000)),
      ).size;
      assert.ok(days >= 3 && new Set(bars.map((b) => b.ticker)).size >= 10, 'several days of many contracts');
      // The contracts' list, two a day, and at the end the windows of the last instant, read again,
      // and where none are left.
      assert.ok(
        counting.queries() <= 2 * days + 4,
        `${store.dialect.name}: ${counting.queries()} queries, ${days} days`,
      );
      const candles = new Map<string, Map<number, unknown>>();
      for (const ticker of new Set(bars.map((b) => b.ticker))) {
        const rest = await queryFuturesAggs(store, { ticker, window, asc: true, limit: 1_000_000 });
        candles.set(ticker, new Map(rest.map((c) => [Number(c.window_start / 1_000_000n), c])));
      }
      const sent = bars.map((b) =>
        'bar' in b ? [b.ticker, b.bar.t, b.bar.o, b.bar.c, b.bar.v, b.bar.vw] : b,
      );
      const rest = bars.map((b) => {
        const c = 'bar' in b ? (candles.get(b.ticker)?.get(b.bar.t) as FuturesCandle | undefined) : undefined;
        return [
          b.ticker,
          c && Number(c.window_start / 1_000_000n),
          c?.open,
          c?.close,
          c?.volume,
          c?.dollar_volume,
        ];
      });
      assert.deepEqual(sent, rest, store.dialect.name);
      assert.equal(
        bars.length,
        [...candles.values()].reduce((n, m) => n + m.size, 0),
        'every candle replayed once',
      );
    }
  });
});
