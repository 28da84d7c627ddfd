/**
 * Response bodies against the OpenAPI schemas of the spec (`$ref`s resolved at test time) and against
 * the keys of the recorded real responses. The spec's `required` lists are not reliable for real
 * responses (wire-format §7), so types of present fields are validated against the spec and required
 * keys are taken from the recordings.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { Ajv } from 'ajv';
import { parseJson } from '../../src/core/json.js';
import type { RunningServer } from '../../src/server/index.js';
import { hasShared, recordedDir, referenceDir } from '../support/shared.js';
import { fixtureServer } from './app-fixture.js';

type Json = Record<string, unknown>;

/**
 * Fields the spec types as integer although real responses carry prices with decimals (the recorded
 * open/close has `"preMarket": 123.45`).
 */
const SPEC_INTEGER_BUT_REALLY_NUMBER = ['preMarket', 'afterHours'];

/** Copies a schema with every `$ref` replaced by its target and every `required` list dropped. */
function resolve(spec: Json, node: unknown, seen: Set<string> = new Set()): unknown {
  if (Array.isArray(node)) return node.map((n) => resolve(spec, n, seen));
  if (!node || typeof node !== 'object') return node;
  const obj = node as Json;
  if (typeof obj.$ref === 'string') {
    const ref = obj.$ref;
    if (seen.has(ref)) return {};
    const target = ref
      .slice(2)
      .split('/')
      .reduce<unknown>((o, k) => (o as Json)[k.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
    return resolve(spec, target, new Set([...seen, ref]));
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'required' && Array.isArray(v)) continue;
    if (k === 'example' || k === 'examples') continue;
    out[k] = resolve(spec, v, seen);
  }
  // Spec bug: some bodies are `allOf: [{type: string} /* the status */, {properties…}]`, which no object
  // satisfies; the bare string member describes the `status` field.
  if (Array.isArray(out.allOf) && out.allOf.some((m) => (m as Json).properties)) {
    out.allOf = out.allOf.filter((m) => (m as Json).type !== 'string');
  }
  if (out.properties && typeof out.properties === 'object') {
    const props = out.properties as Json;
    for (const name of SPEC_INTEGER_BUT_REALLY_NUMBER) {
      if (props[name]) props[name] = { ...(props[name] as Json), type: 'number' };
    }
  }
  // JSON has no separate integer type for exact ns timestamps beyond 2^53: both are numbers.
  if (out.type === 'integer' && out.format === 'int64') out.type = ['integer', 'number'];
  return out;
}

/** Keys of an object (or of the first item of an array), for comparing with the recordings. */
const keysOf = (v: unknown): string[] =>
  Array.isArray(v) ? keysOf(v[0]) : v && typeof v === 'object' ? Object.keys(v).sort() : [];

const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** The item of `ours` to compare with a recorded item: an error item with an error item, else by `type`. */
function counterpart(recorded: unknown, ours: unknown[]): unknown {
  if (!isObject(recorded)) return ours[0];
  if ('error' in recorded) return ours.find((o) => isObject(o) && 'error' in o);
  if ('type' in recorded) {
    const same = ours.find((o) => isObject(o) && !('error' in o) && o.type === recorded.type);
    if (same) return same;
  }
  return ours.find((o) => isObject(o) && !('error' in o));
}

/**
 * Where the keys both bodies have come in another order than the recording's, at every depth. Keys
 * that are data (exchange ids of a book level) are left out.
 */
function orderDiffs(recorded: unknown, ours: unknown, path = 'body'): string[] {
  if (Array.isArray(recorded) && Array.isArray(ours)) {
    return recorded.flatMap((r, i) => orderDiffs(r, counterpart(r, ours), `${path}[${i}]`));
  }
  if (!isObject(recorded) || !isObject(ours)) return [];
  const common = Object.keys(recorded).filter((k) => k in ours && !/^\d+$/.test(k));
  const ourOrder = Object.keys(ours).filter((k) => common.includes(k));
  const out =
    common.join() === ourOrder.join() ? [] : [`${path}: ${ourOrder.join(',')}, recorded ${common.join(',')}`];
  for (const k of common) out.push(...orderDiffs(recorded[k], ours[k], `${path}.${k}`));
  return out;
}

interface Case {
  /** Request path on the server. */
  path: string;
  /** The spec's path key. */
  spec: string;
  /** Recorded response of the same endpoint, for its keys. */
  recorded?: string;
  /** Where the records are: the body itself or one of its keys. */
  records?: (body: Json) => unknown;
  /** Keys of the recording the vendor's data cannot supply (documented in the routes). */
  unavailable?: string[];
  /** The recording was made by hand (its key order is not the service's). */
  handMade?: boolean;
  /** The server's "now", when the answer needs another than the default's. */
  now?: string;
}

const CASES: Case[] = [
  {
    path: '/v2/aggs/ticker/SPY/range/5/minute/2013-10-07/2013-10-07?limit=200',
    spec: '/v2/aggs/ticker/{stocksTicker}/range/{multiplier}/{timespan}/{from}/{to}',
    recorded: 'v2/aggs/ticker/AAPL/range/1/day/2005-04-01/2005-04-04.json',
    records: (b) => b.results,
  },
  {
    path: '/v2/aggs/ticker/X:BTCUSD/range/1/hour/2018-04-04/2018-04-04',
    spec: '/v2/aggs/ticker/{cryptoTicker}/range/{multiplier}/{timespan}/{from}/{to}',
  },
  {
    path: '/v2/aggs/ticker/SPY/prev',
    spec: '/v2/aggs/ticker/{stocksTicker}/prev',
    recorded: 'v2/aggs/ticker/AAPL/prev.json',
    records: (b) => b.results,
    // A session without ticks: the vendor's daily bar has no trade count.
    unavailable: ['n'],
  },
  {
    path: '/v2/aggs/grouped/locale/us/market/stocks/2013-10-07',
    spec: '/v2/aggs/grouped/locale/us/market/stocks/{date}',
    recorded: 'v2/aggs/grouped/locale/us/market/stocks/2005-04-04&adjusted=true.json',
    records: (b) => b.results,
    // Daily bars from the vendor's daily file carry no trade count on days without ticks.
    unavailable: ['n'],
  },
  {
    path: '/v1/open-close/SPY/2013-10-07',
    spec: '/v1/open-close/{stocksTicker}/{date}',
    recorded: 'v1/open-close/AAPL/2005-04-01&adjusted=true.json',
  },
  {
    path: '/v3/trades/SPY?timestamp=2013-10-07&limit=50',
    spec: '/v3/trades/{stockTicker}',
    recorded: 'v3/trades/AAPL&limit=2.json',
    records: (b) => b.results,
    unavailable: ['correction', 'participant_timestamp', 'tape', 'trf_id', 'trf_timestamp'],
  },
  {
    path: '/v3/quotes/IBM?timestamp=2013-10-07&limit=50',
    spec: '/v3/quotes/{stockTicker}',
    recorded: 'v3/quotes/AAPL.json',
    records: (b) => b.results,
    unavailable: ['participant_timestamp', 'tape'],
  },
  { path: '/v3/quotes/C:EURUSD?limit=20', spec: '/v3/quotes/{fxTicker}' },
  {
    path: '/v2/ticks/stocks/trades/SPY/2013-10-07?limit=20',
    spec: '/v2/ticks/stocks/trades/{ticker}/{date}',
  },
  { path: '/v2/ticks/stocks/nbbo/IBM/2013-10-07?limit=20', spec: '/v2/ticks/stocks/nbbo/{ticker}/{date}' },
  {
    path: '/v2/last/trade/IBM',
    spec: '/v2/last/trade/{stocksTicker}',
    recorded: 'v2/last/trade/AAPL.json',
    records: (b) => b.results,
    unavailable: ['f', 'r', 'y', 'z'],
  },
  {
    path: '/v2/last/nbbo/IBM',
    spec: '/v2/last/nbbo/{stocksTicker}',
    recorded: 'v2/last/nbbo/AAPL.json',
    records: (b) => b.results,
    unavailable: ['y', 'z'],
  },
  {
    path: '/v1/last_quote/currencies/EUR/USD',
    spec: '/v1/last_quote/currencies/{from}/{to}',
    recorded: 'v1/last_quote/currencies/AUD/USD.json',
    records: (b) => b.last,
  },
  {
    path: '/v1/conversion/EUR/USD?amount=100&precision=2',
    spec: '/v1/conversion/{from}/{to}',
    recorded: 'v1/conversion/AUD/USD&amount=100&precision=2.json',
  },
  { path: '/v1/historic/forex/EUR/USD/2014-05-01?limit=5', spec: '/v1/historic/forex/{from}/{to}/{date}' },
  { path: '/v1/historic/crypto/BTC/USD/2018-04-04?limit=5', spec: '/v1/historic/crypto/{from}/{to}/{date}' },
  { path: '/v1/open-close/crypto/BTC/USD/2018-04-04', spec: '/v1/open-close/crypto/{from}/{to}/{date}' },
  {
    path: '/v1/indicators/sma/SPY?window=5&expand_underlying=true',
    spec: '/v1/indicators/sma/{stockTicker}',
    recorded:
      'v1/indicators/sma/AAPL&window=30&timespan=quarter&timestamp=1483958600&expand_underlying=true.json',
    handMade: true,
  },
  {
    path: '/v1/indicators/ema/SPY?window=5&timespan=minute',
    spec: '/v1/indicators/ema/{stockTicker}',
    recorded:
      'v1/indicators/ema/AAPL&window=5&adjusted=false&timestamp.lte=1478393873000&timestamp.gte=1477972800000.json',
  },
  {
    path: '/v1/indicators/rsi/SPY',
    spec: '/v1/indicators/rsi/{stockTicker}',
    recorded: 'v1/indicators/rsi/AAPL&window=20&timespan=minute&adjusted=true&timestamp.gt=2022-08-18.json',
  },
  {
    path: '/v1/indicators/macd/SPY?order=asc',
    spec: '/v1/indicators/macd/{stockTicker}',
    recorded: 'v1/indicators/macd/SPY&signal_window=10&long_window=20&timestamp.gt=2022-08-09.json',
  },
  {
    path: '/v3/snapshot?ticker.any_of=SPY,C:EURUSD,X:BTCUSD,I:SPX,O:SPY230901C00430000,APx',
    spec: '/v3/snapshot',
    recorded: 'v3/snapshot.json',
  },
  { path: '/v3/snapshot?type=stocks&limit=3', spec: '/v3/snapshot' },
  {
    path: '/v1/summaries?ticker.any_of=SPY,O:SPY230901C00430000,C:EURUSD,X:BTCUSD,APx',
    spec: '/v1/summaries',
    recorded:
      'v1/summaries&ticker.any_of=NCLH%2CO%3ANCLH221014C00005000%2CC%3AEURUSD%2CX%3ABTCUSD%2CAPx.json',
  },
  {
    path: '/vX/reference/tickers/GOOGL/events',
    spec: '/vX/reference/tickers/{id}/events',
    recorded: 'vX/reference/tickers/META/events&types=ticker_change.json',
    records: (b) => b.results,
    // The map files carry no FIGI or CIK.
    unavailable: ['composite_figi', 'cik'],
  },
  { path: '/stocks/v1/splits?ticker=AAPL', spec: '/stocks/v1/splits' },
  { path: '/stocks/v1/dividends', spec: '/stocks/v1/dividends' },
  { path: '/stocks/v1/exchanges', spec: '/stocks/v1/exchanges' },
  { path: '/crypto/v1/exchanges', spec: '/crypto/v1/exchanges' },
  { path: '/forex/v1/exchanges', spec: '/forex/v1/exchanges' },
  { path: '/options/v1/exchanges', spec: '/options/v1/exchanges' },
  {
    path: '/vX/reference/financials',
    spec: '/vX/reference/financials',
    recorded: 'vX/reference/financials.json',
  },
  {
    path: '/v2/reference/news?ticker=NFLX',
    spec: '/v2/reference/news',
    recorded: 'v2/reference/news&ticker=NFLX.json',
  },
  {
    path: '/v3/reference/conditions?asset_class=stocks',
    spec: '/v3/reference/conditions',
    recorded: 'v3/reference/conditions&asset_class=stocks.json',
    records: (b) => b.results,
    // The conditions table holds each condition's mapping, not how it updates bars.
    unavailable: ['update_rules'],
  },
  {
    path: '/v3/reference/exchanges',
    spec: '/v3/reference/exchanges',
    recorded: 'v3/reference/exchanges.json',
    records: (b) => b.results,
  },
  {
    path: '/v3/reference/tickers/types',
    spec: '/v3/reference/tickers/types',
    recorded: 'v3/reference/tickers/types.json',
    records: (b) => b.results,
  },
  {
    path: '/v3/reference/tickers?limit=2',
    spec: '/v3/reference/tickers',
    recorded: 'v3/reference/tickers.json',
    records: (b) => b.results,
    // The tickers table keeps no CIK or FIGIs (the README says so).
    unavailable: ['cik', 'composite_figi', 'share_class_figi'],
  },
  {
    path: '/v3/reference/options/contracts/O:SPY230901C00430000',
    spec: '/v3/reference/options/contracts/{options_ticker}',
    recorded: 'v3/reference/options/contracts/OEVRI240119C00002500.json',
    records: (b) => b.results,
    // Lean's option files name no listing exchange.
    unavailable: ['primary_exchange'],
  },
  {
    path: '/v2/snapshot/locale/us/markets/stocks/tickers/IBM',
    spec: '/v2/snapshot/locale/us/markets/stocks/tickers/{stocksTicker}',
    recorded: 'v2/snapshot/locale/us/markets/stocks/tickers/AAPL.json',
    records: (b) => b.ticker,
    now: '2013-10-08T12:00:00-04:00',
    // The service's fair market value is its own model.
    unavailable: ['fmv'],
  },
  {
    path: '/v2/snapshot/locale/us/markets/stocks/tickers?tickers=IBM',
    spec: '/v2/snapshot/locale/us/markets/stocks/tickers',
    recorded: 'v2/snapshot/locale/us/markets/stocks/tickers/index.json',
    records: (b) => b.tickers,
    now: '2013-10-08T12:00:00-04:00',
    unavailable: ['fmv'],
  },
  {
    path: '/v2/snapshot/locale/global/markets/crypto/tickers/X:BTCUSD/book',
    spec: '/v2/snapshot/locale/global/markets/crypto/tickers/{ticker}/book',
    recorded: 'v2/snapshot/locale/global/markets/crypto/tickers/X;BTCUSD/book.json',
    records: (b) => b.data,
  },
  {
    path: '/v3/snapshot/options/SPY?limit=2',
    spec: '/v3/snapshot/options/{underlyingAsset}',
    recorded: 'v3/snapshot/options/AAPL.json',
    records: (b) => b.results,
    now: '2023-08-03T12:00:00-04:00',
    // No option trade ticks or open interest of that day are stored; the day before is not stored.
    unavailable: ['fmv', 'last_trade', 'open_interest'],
  },
  {
    path: '/v3/snapshot/options/SPY/O:SPY230901C00430000',
    spec: '/v3/snapshot/options/{underlyingAsset}/{optionContract}',
    recorded: 'v3/snapshot/options/AAPL/O;AAPL230616C00150000.json',
    records: (b) => b.results,
    now: '2023-08-03T12:00:00-04:00',
    unavailable: ['fmv', 'last_trade', 'open_interest'],
  },
  {
    path: '/v3/snapshot/indices?ticker.any_of=SPX,APx',
    spec: '/v3/snapshot/indices',
    recorded: 'v3/snapshot/indices&ticker.any_of=SPX%2CAPx%2CAPy.json',
    records: (b) => b.results,
    now: '2023-07-03T12:00:00-04:00',
  },
];

describe('response bodies against the OpenAPI schemas and the recorded responses', () => {
  test('every route’s body validates, and carries the keys real responses have', async (t) => {
    if (!hasShared(t, `${referenceDir}openapi.json`)) return;
    const servers = new Map<string, RunningServer | undefined>();
    const serverAt = async (now = '2018-04-05') => {
      if (!servers.has(now)) servers.set(now, await fixtureServer(t, { now }));
      return servers.get(now);
    };
    if (!(await serverAt())) return;
    const spec = JSON.parse(readFileSync(`${referenceDir}openapi.json`, 'utf8')) as Json;
    const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
    // Key order is collected over every route, so one run lists every difference.
    const orderProblems: string[] = [];
    for (const c of CASES) {
      const server = (await serverAt(c.now)) as RunningServer;
      const res = await fetch(`${server.url}${c.path}${c.path.includes('?') ? '&' : '?'}apiKey=k`);
      assert.equal(res.status, 200, c.path);
      const text = await res.text();
      // Exact ns integers come back as bigint; ajv sees numbers.
      const body = JSON.parse(text) as Json;
      assert.ok(parseJson(text));
      const operation = ((spec.paths as Json)[c.spec] as Json | undefined)?.get as Json | undefined;
      assert.ok(operation, `spec path ${c.spec}`);
      const schema = resolve(
        spec,
        (((operation.responses as Json)['200'] as Json).content as Json)['application/json'],
      ) as Json;
      const validate = ajv.compile(schema.schema as Json);
      assert.ok(validate(body), `${c.path}: ${ajv.errorsText(validate.errors)}`);
      if (c.recorded) {
        const recorded = JSON.parse(readFileSync(`${recordedDir}${c.recorded}`, 'utf8')) as Json;
        for (const k of keysOf(recorded)) {
          if (k === 'next_url') continue;
          assert.ok(k in body, `${c.path} lacks top-level ${k} of the recording`);
        }
        if (!c.handMade) orderProblems.push(...orderDiffs(recorded, body).map((d) => `${c.path}: ${d}`));
        if (c.records) {
          const ours = keysOf(c.records(body));
          for (const k of keysOf(c.records(recorded))) {
            if (c.unavailable?.includes(k)) continue;
            assert.ok(ours.includes(k), `${c.path} records lack ${k} of the recording`);
          }
        }
      }
    }
    assert.deepEqual(orderProblems, [], 'keys in the order of the recorded responses');
  });
});
