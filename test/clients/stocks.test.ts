import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { StocksClient } from '../../src/index.js';
import { RecordingServer } from '../support/recording-server.js';
import { hasShared, recordedDir } from '../support/shared.js';

const KEY = 'test-key-stocks-1234';

/**
 * One Stocks operation: the call, the exact request the real API expects for it, and the recorded
 * real answer (under ../shared/reference/recorded) the server plays back, when one exists.
 */
interface Case {
  method: string;
  args: unknown[];
  path: string;
  query: [string, string][];
  recorded?: string;
}

const cases: Case[] = [
  {
    method: 'getTrades',
    args: [
      'aapl',
      '2024-01-02',
      { timestamp: 1704205800000000001n, timestampLimit: 1704229200000000000n, limit: 10 },
    ],
    path: '/v2/ticks/stocks/trades/AAPL/2024-01-02',
    query: [
      ['timestamp', '1704205800000000001'],
      ['timestampLimit', '1704229200000000000'],
      ['reverse', 'true'],
      ['limit', '10'],
    ],
  },
  {
    method: 'getTradesV3',
    args: ['AAPL', { limit: 2 }],
    path: '/v3/trades/AAPL',
    query: [['limit', '2']],
    recorded: 'v3/trades/AAPL&limit=2.json',
  },
  {
    method: 'getTradesV3',
    args: [
      'AAPL',
      { timestampGte: '2022-06-28', timestampLt: 1656430200000000000n, order: 'desc', sort: 'timestamp' },
    ],
    path: '/v3/trades/AAPL',
    query: [
      ['timestamp.lt', '1656430200000000000'],
      ['timestamp.gte', '2022-06-28'],
      ['order', 'desc'],
      ['sort', 'timestamp'],
      ['limit', '5000'],
    ],
  },
  {
    method: 'getQuotes',
    args: ['IBM', new Date(Date.UTC(2013, 9, 7)), { reverse: false }],
    path: '/v2/ticks/stocks/nbbo/IBM/2013-10-07',
    query: [
      ['reverse', 'false'],
      ['limit', '5000'],
    ],
  },
  {
    method: 'getQuotesV3',
    args: ['AAPL'],
    path: '/v3/quotes/AAPL',
    query: [['limit', '5000']],
    recorded: 'v3/quotes/AAPL.json',
  },
  {
    method: 'getLastTrade',
    args: ['AAPL'],
    path: '/v2/last/trade/AAPL',
    query: [],
    recorded: 'v2/last/trade/AAPL.json',
  },
  {
    method: 'getLastQuote',
    args: ['AAPL'],
    path: '/v2/last/nbbo/AAPL',
    query: [],
    recorded: 'v2/last/nbbo/AAPL.json',
  },
  {
    method: 'getDailyOpenClose',
    args: ['AAPL', '2005-04-01'],
    path: '/v1/open-close/AAPL/2005-04-01',
    query: [['adjusted', 'true']],
    recorded: 'v1/open-close/AAPL/2005-04-01&adjusted=true.json',
  },
  {
    method: 'getAggregateBars',
    args: ['AAPL', '2005-04-01', '2005-04-04'],
    path: '/v2/aggs/ticker/AAPL/range/1/day/2005-04-01/2005-04-04',
    query: [
      ['adjusted', 'true'],
      ['sort', 'asc'],
      ['limit', '5000'],
    ],
    recorded: 'v2/aggs/ticker/AAPL/range/1/day/2005-04-01/2005-04-04.json',
  },
  {
    method: 'getAggregateBars',
    args: [
      'BRK.B',
      1656430200000,
      1656433800000,
      { timespan: 'min', multiplier: 5, adjusted: false, sort: 'desc', limit: 50000 },
    ],
    path: '/v2/aggs/ticker/BRK.B/range/5/minute/1656430200000/1656433800000',
    query: [
      ['adjusted', 'false'],
      ['sort', 'desc'],
      ['limit', '50000'],
    ],
  },
  {
    method: 'getGroupedDailyBars',
    args: ['2005-04-04'],
    path: '/v2/aggs/grouped/locale/us/market/stocks/2005-04-04',
    query: [['adjusted', 'true']],
    recorded: 'v2/aggs/grouped/locale/us/market/stocks/2005-04-04&adjusted=true.json',
  },
  {
    method: 'getPreviousClose',
    args: ['AAPL'],
    path: '/v2/aggs/ticker/AAPL/prev',
    query: [['adjusted', 'true']],
    recorded: 'v2/aggs/ticker/AAPL/prev.json',
  },
  {
    method: 'getSnapshot',
    args: ['AAPL'],
    path: '/v2/snapshot/locale/us/markets/stocks/tickers/AAPL',
    query: [],
    recorded: 'v2/snapshot/locale/us/markets/stocks/tickers/AAPL.json',
  },
  {
    method: 'getSnapshotAll',
    args: [],
    path: '/v2/snapshot/locale/us/markets/stocks/tickers',
    query: [],
    recorded: 'v2/snapshot/locale/us/markets/stocks/tickers/index.json',
  },
  {
    method: 'getSnapshotAll',
    args: [{ symbols: ['AAPL', 'msft'], includeOtc: false }],
    path: '/v2/snapshot/locale/us/markets/stocks/tickers',
    query: [
      ['tickers', 'AAPL,MSFT'],
      ['include_otc', 'false'],
    ],
  },
  {
    method: 'getGainersAndLosers',
    args: [],
    path: '/v2/snapshot/locale/us/markets/stocks/gainers',
    query: [],
    recorded: 'v2/snapshot/locale/us/markets/stocks/gainers.json',
  },
  {
    method: 'getGainersAndLosers',
    args: [{ direction: 'losers' }],
    path: '/v2/snapshot/locale/us/markets/stocks/losers',
    query: [],
  },
  {
    method: 'getSma',
    args: ['AAPL', { windowSize: 30, timespan: 'quarter', timestamp: 1483958600, includeUnderlying: true }],
    path: '/v1/indicators/sma/AAPL',
    query: [
      ['timestamp', '1483958600'],
      ['timespan', 'quarter'],
      ['adjusted', 'true'],
      ['series_type', 'close'],
      ['expand_underlying', 'true'],
      ['order', 'desc'],
      ['limit', '5000'],
      ['window', '30'],
    ],
    recorded:
      'v1/indicators/sma/AAPL&window=30&timespan=quarter&timestamp=1483958600&expand_underlying=true.json',
  },
  {
    method: 'getEma',
    args: [
      'AAPL',
      { windowSize: 5, adjusted: false, timestampLte: 1478393873000, timestampGte: 1477972800000 },
    ],
    path: '/v1/indicators/ema/AAPL',
    query: [
      ['timestamp.lte', '1478393873000'],
      ['timestamp.gte', '1477972800000'],
      ['timespan', 'day'],
      ['adjusted', 'false'],
      ['series_type', 'close'],
      ['expand_underlying', 'false'],
      ['order', 'desc'],
      ['limit', '5000'],
      ['window', '5'],
    ],
    recorded:
      'v1/indicators/ema/AAPL&window=5&adjusted=false&timestamp.lte=1478393873000&timestamp.gte=1477972800000.json',
  },
  {
    method: 'getRsi',
    args: ['AAPL', { windowSize: 20, timespan: 'minute', timestampGt: '2022-08-18' }],
    path: '/v1/indicators/rsi/AAPL',
    query: [
      ['timestamp.gt', '2022-08-18'],
      ['timespan', 'minute'],
      ['adjusted', 'true'],
      ['series_type', 'close'],
      ['expand_underlying', 'false'],
      ['order', 'desc'],
      ['limit', '5000'],
      ['window', '20'],
    ],
    recorded: 'v1/indicators/rsi/AAPL&window=20&timespan=minute&adjusted=true&timestamp.gt=2022-08-18.json',
  },
  {
    method: 'getMacd',
    args: ['SPY', { signalWindowSize: 10, longWindowSize: 20, timestampGt: '2022-08-09' }],
    path: '/v1/indicators/macd/SPY',
    query: [
      ['timestamp.gt', '2022-08-09'],
      ['timespan', 'day'],
      ['adjusted', 'true'],
      ['series_type', 'close'],
      ['expand_underlying', 'false'],
      ['order', 'desc'],
      ['limit', '5000'],
      ['long_window', '20'],
      ['signal_window', '10'],
    ],
    recorded: 'v1/indicators/macd/SPY&signal_window=10&long_window=20&timestamp.gt=2022-08-09.json',
  },
];

/** Replaces every bigint by the number JSON.parse would have produced, to compare with a plain parse. */
function asParsed(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(asParsed);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asParsed(v)]));
  }
  return value;
}

describe('Stocks client: every operation over loopback HTTP', () => {
  const server = new RecordingServer();
  before(() => server.start());
  after(() => server.stop());

  for (const variant of ['async', 'sync'] as const) {
    for (const c of cases) {
      test(`${variant} ${c.method}(${c.args.map((a) => (typeof a === 'bigint' ? `${a}n` : JSON.stringify(a, (_, v) => (typeof v === 'bigint' ? `${v}n` : v)))).join(', ')})`, async (t) => {
        if (c.recorded && !hasShared(t, `${recordedDir}${c.recorded}`)) return;
        const raw = c.recorded
          ? readFileSync(`${recordedDir}${c.recorded}`, 'utf8')
          : '{"status":"OK","request_id":"x","results":[]}';
        await server.respond(raw);
        let result: unknown;
        if (variant === 'async') {
          const client = StocksClient(KEY, { useAsync: true, baseUrl: server.url });
          result = await (client as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[
            c.method
          ]?.(...c.args);
          await client.close();
        } else {
          const client = StocksClient(KEY, { baseUrl: server.url });
          result = (client as unknown as Record<string, (...a: unknown[]) => unknown>)[c.method]?.(...c.args);
          client.close();
        }
        const requests = await server.take();
        assert.equal(requests.length, 1);
        const seen = requests[0]!;
        assert.equal(seen.method, 'GET');
        assert.equal(seen.path, c.path);
        assert.deepEqual(seen.query, c.query);
        assert.equal(seen.headers.authorization, `Bearer ${KEY}`);
        assert.ok(!seen.query.some(([k]) => k === 'apiKey'), 'the key is never in the query string');
        assert.deepEqual(asParsed(result), JSON.parse(raw), 'decoded body equals the recorded body');
      });
    }
  }

  test('nanosecond timestamps decode exactly as bigint', async (t) => {
    const file = `${recordedDir}v3/trades/AAPL&limit=2.json`;
    if (!hasShared(t, file)) return;
    const raw = readFileSync(file, 'utf8');
    const literals = [...raw.matchAll(/"sip_timestamp":\s*(\d+)/g)].map((m) => m[1]);
    await server.respond(raw);
    const client = StocksClient(KEY, { useAsync: true, baseUrl: server.url });
    const page = await client.getTradesV3('AAPL', { limit: 2 });
    await client.close();
    assert.deepEqual(
      page.results.map((r) => r.sip_timestamp.toString()),
      literals,
    );
    assert.equal(typeof page.results[0]?.sip_timestamp, 'bigint');
  });

  test('getCurrentPrice returns the last trade price as a number, sync and async', async (t) => {
    const file = `${recordedDir}v2/last/trade/AAPL.json`;
    if (!hasShared(t, file)) return;
    const raw = readFileSync(file, 'utf8');
    const expected = JSON.parse(raw).results.p;
    await server.respond(raw);
    const a = StocksClient(KEY, { useAsync: true, baseUrl: server.url });
    assert.equal(await a.getCurrentPrice('AAPL'), expected);
    await a.close();
    const s = StocksClient(KEY, { baseUrl: server.url });
    assert.equal(s.getCurrentPrice('AAPL'), expected);
    s.close();
  });
});
