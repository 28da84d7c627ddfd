/**
 * Where a replay of bar channels stopped among the windows ending at a midnight, it goes on with the
 * rest of them and the next day's, in one stretch: the windows of tickers after the last one sent come,
 * but not those of a ticker whose day had trade ticks (its aggregates come from its trades).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FEEDS } from '../../src/server/stream/feeds.js';
import { TickSource } from '../../src/server/stream/tick-source.js';
import { tempStore } from '../server/ingest/helpers.js';

const MIDNIGHT = Date.UTC(2018, 3, 5);
const TICKERS = ['X:AAAUSD', 'X:BBBUSD', 'X:CCCUSD'];

test('a replay stopped among the bars ending at a midnight sends the rest, and the next day, once', async (t) => {
  const { store, cleanup } = await tempStore();
  t.after(cleanup);
  // Every ticker has the minute ending at midnight and the one after it, on two days; X:BBBUSD also
  // traded in the day's last minute.
  for (const ticker of TICKERS) {
    for (const start of [MIDNIGHT - 60_000, MIDNIGHT]) {
      await store.run(
        "INSERT INTO bars (ticker, resolution, t, o, h, l, c, v, vw, n) VALUES ($1, 'minute', $2, 10, 11, 9, 10.5, 3, NULL, NULL)",
        [ticker, BigInt(start)],
      );
    }
  }
  await store.run(
    "INSERT INTO trades (ticker, sip_timestamp, sequence_number, price, size) VALUES ('X:BBBUSD', $1, 1, 10, 3)",
    [BigInt(MIDNIGHT - 30_000) * 1_000_000n],
  );
  const source = new TickSource(store, 'crypto', FEEDS.crypto);
  const ns = BigInt(MIDNIGHT) * 1_000_000n;
  const sent = await source.next(
    undefined,
    undefined,
    ns - 3_600_000_000_000n,
    { ts: ns, kind: -1, ticker: 'X:AAAUSD', seq: 0n },
    500,
    { minute: { all: false, tickers: TICKERS } },
  );
  const end = (ms: number) => BigInt(ms) * 1_000_000n;
  assert.deepEqual(
    sent.map((x) => [x.ticker, x.sip_timestamp]),
    [
      // X:BBBUSD's minute ending at midnight comes from its trades, not its bar.
      ['X:CCCUSD', end(MIDNIGHT)],
      ['X:AAAUSD', end(MIDNIGHT + 60_000)],
      ['X:BBBUSD', end(MIDNIGHT + 60_000)],
      ['X:CCCUSD', end(MIDNIGHT + 60_000)],
    ],
  );
});
