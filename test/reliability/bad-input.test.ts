/**
 * Bad input, every parameter type: a table of malformed values through the library (async and sync)
 * through the server over HTTP and through the CLI; each gets a clear error naming the parameter and
 * the value, and nothing is sent. Then property-based fuzzing of the server's query parsing, over
 * every operation's declared path and query parameters: no 500, no crash.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import {
  buildOptionSymbol,
  cryptoOperations,
  ForexClient,
  forexOperations,
  IndexClient,
  InvalidParameterError,
  indicesOperations,
  type OperationSpec,
  OptionsClient,
  optionsOperations,
  parseOptionSymbol,
  referenceOperations,
  StocksClient,
  stocksOperations,
} from '../../src/index.js';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { DuckDbStore } from '../../src/server/store/duckdb-store.js';
import { type FaultServer, startFaultServer } from '../support/fault-server.js';
import { runCliCaptured } from './cli-capture.js';
import { SYNTHETIC_TICKER, writeSyntheticMinuteBars } from './synthetic-store.js';

let recorder: FaultServer;
let store: DuckDbStore;
let server: RunningServer;

before(async () => {
  recorder = await startFaultServer([{}]);
  store = await DuckDbStore.open(':memory:');
  await writeSyntheticMinuteBars(store, '2023-03-01', '2023-03-03');
  await store.run(
    `INSERT INTO trades (ticker, sip_timestamp, sequence_number, price, size, exchange, conditions)
     SELECT $1, 1677850000000000000 + i * 1000000, i + 1, 100 + i / 100, 100, 4, [12] FROM range(200) r(i)`,
    [SYNTHETIC_TICKER],
  );
  server = await startServer({ store, port: 0, log: () => {}, now: '2023-03-03' });
});
after(async () => {
  await recorder?.close();
  await server?.close();
  store?.close();
});

type Call = (clients: {
  stocks: ReturnType<typeof asyncClients>['stocks'];
  options: ReturnType<typeof asyncClients>['options'];
  indices: ReturnType<typeof asyncClients>['indices'];
  forex: ReturnType<typeof asyncClients>['forex'];
}) => unknown;

function asyncClients(baseUrl: string) {
  const o = { useAsync: true as const, baseUrl, maxRetries: 0 };
  return {
    stocks: StocksClient('k', o),
    options: OptionsClient('k', o),
    indices: IndexClient('k', o),
    forex: ForexClient('k', o),
  };
}

/** [parameter type, case, call, the parameter the error must name, text the message must show]. */
const LIBRARY_CASES: [string, string, Call, string, string][] = [
  ['date', 'month 13', (c) => c.stocks.getDailyOpenClose('AAPL', '2024-13-01'), 'date', '"2024-13-01"'],
  ['date', 'February 30', (c) => c.stocks.getDailyOpenClose('AAPL', '2024-02-30'), 'date', '"2024-02-30"'],
  ['date', 'a word', (c) => c.stocks.getDailyOpenClose('AAPL', 'yesterday'), 'date', '"yesterday"'],
  [
    'date',
    'an invalid Date',
    (c) => c.stocks.getDailyOpenClose('AAPL', new Date('x')),
    'date',
    'Invalid Date',
  ],
  [
    'date',
    'not zero-padded',
    (c) => c.stocks.getAggregateBars('AAPL', '2024-1-5', '2024-01-09'),
    'fromDate',
    '"2024-1-5"',
  ],
  [
    'date',
    'from after to',
    (c) => c.stocks.getAggregateBars('AAPL', '2024-01-05', '2024-01-02'),
    'fromDate',
    'toDate',
  ],
  ['timestamp', 'a word', (c) => c.stocks.getTradesV3('AAPL', { timestamp: 'noon' }), 'timestamp', '"noon"'],
  ['timestamp', 'a fraction', (c) => c.stocks.getTradesV3('AAPL', { timestamp: 1.5 }), 'timestamp', '1.5'],
  [
    'timestamp',
    'NaN',
    (c) => c.stocks.getTradesV3('AAPL', { timestampGte: Number.NaN }),
    'timestampGte',
    'NaN',
  ],
  ['timestamp', 'negative', (c) => c.stocks.getTradesV3('AAPL', { timestampLt: -5 }), 'timestampLt', '-5'],
  [
    'timestamp',
    'indicator, a word',
    (c) => c.stocks.getSma('AAPL', { timestamp: 'tomorrow' }),
    'timestamp',
    '"tomorrow"',
  ],
  [
    'timestamp',
    'offset, a word',
    (c) => c.stocks.getTrades('AAPL', '2024-01-02', { timestamp: 'abc' as never }),
    'timestamp',
    '"abc"',
  ],
  ['limit', 'zero', (c) => c.stocks.getTradesV3('AAPL', { limit: 0 }), 'limit', '0'],
  ['limit', 'above the maximum', (c) => c.stocks.getTradesV3('AAPL', { limit: 50001 }), 'limit', '50000'],
  ['limit', 'a fraction', (c) => c.stocks.getTradesV3('AAPL', { limit: 2.5 }), 'limit', '2.5'],
  ['limit', 'a string', (c) => c.stocks.getTradesV3('AAPL', { limit: '10' as never }), 'limit', '"10"'],
  ['limit', 'indicator above 5000', (c) => c.stocks.getSma('AAPL', { limit: 5001 }), 'limit', '5000'],
  [
    'limit',
    'maxPages zero',
    (c) => c.stocks.getTradesV3('AAPL', { allPages: true, maxPages: 0 }),
    'maxPages',
    '0',
  ],
  [
    'multiplier',
    'zero',
    (c) => c.stocks.getAggregateBars('AAPL', '2024-01-02', '2024-01-05', { multiplier: 0 }),
    'multiplier',
    '0',
  ],
  [
    'multiplier',
    'a fraction',
    (c) => c.stocks.getAggregateBars('AAPL', '2024-01-02', '2024-01-05', { multiplier: 1.5 }),
    'multiplier',
    '1.5',
  ],
  [
    'enum',
    'timespan',
    (c) => c.stocks.getAggregateBars('AAPL', '2024-01-02', '2024-01-05', { timespan: 'fortnight' as never }),
    'timespan',
    '"fortnight"',
  ],
  [
    'enum',
    'sort',
    (c) => c.stocks.getAggregateBars('AAPL', '2024-01-02', '2024-01-05', { sort: 'up' as never }),
    'sort',
    '"asc"',
  ],
  [
    'enum',
    'order',
    (c) => c.stocks.getTradesV3('AAPL', { order: 'sideways' as never }),
    'order',
    '"sideways"',
  ],
  [
    'enum',
    'direction',
    (c) => c.stocks.getGainersAndLosers({ direction: 'up' as never }),
    'direction',
    '"gainers"',
  ],
  [
    'enum',
    'series type',
    (c) => c.stocks.getSma('AAPL', { seriesType: 'volume' as never }),
    'seriesType',
    '"volume"',
  ],
  [
    'boolean',
    'a string',
    (c) => c.stocks.getPreviousClose('AAPL', { adjusted: 'yes' as never }),
    'adjusted',
    '"yes"',
  ],
  ['symbol', 'empty', (c) => c.stocks.getLastTrade(''), 'symbol', '""'],
  ['symbol', 'with a space', (c) => c.stocks.getLastTrade('AA PL'), 'symbol', '"AA PL"'],
  ['symbol', 'a path', (c) => c.stocks.getLastTrade('../admin'), 'symbol', '"../admin"'],
  ['symbol', 'a number', (c) => c.stocks.getLastTrade(42 as never), 'symbol', '42'],
  ['symbol', 'missing', (c) => c.stocks.getLastTrade(undefined as never), 'symbol', 'requires'],
  ['symbol', 'forex code with a space', (c) => c.forex.getLastQuote('EU R', 'USD'), 'fromSymbol', '"EU R"'],
  ['option symbol', 'a stock ticker', (c) => c.options.getLastTrade('SPY'), 'ticker', '"SPY"'],
  ['option symbol', 'month 13', (c) => c.options.getLastTrade('O:SPY231301C00430000'), 'ticker', '"231301"'],
  [
    'option symbol',
    'garbage contract',
    (c) => c.options.getSnapshot('SPY', 'garbage'),
    'optionSymbol',
    '"garbage"',
  ],
  [
    'option symbol',
    'parse, short form',
    () => parseOptionSymbol('SPY2308C430'),
    'optionSymbol',
    '"SPY2308C430"',
  ],
  [
    'option symbol',
    'build, bad expiry',
    () => buildOptionSymbol('SPY', '2023-13-01', 'c', 430),
    'expiry',
    '"2023-13-01"',
  ],
  [
    'option symbol',
    'build, bad side',
    () => buildOptionSymbol('SPY', '230803', 'x', 430),
    'callOrPut',
    '"x"',
  ],
  [
    'option symbol',
    'build, 4 decimals',
    () => buildOptionSymbol('SPY', '230803', 'c', 1.2345),
    'strikePrice',
    '1.2345',
  ],
  ['list', 'a number', (c) => c.stocks.getSnapshotAll({ symbols: 42 as never }), 'symbols', '42'],
  ['list', 'an empty item', (c) => c.stocks.getSnapshotAll({ symbols: ['AAPL', ''] }), 'symbols', 'ticker'],
  [
    'list',
    '251 index tickers',
    (c) => c.indices.getSnapshot({ symbols: Array.from({ length: 251 }, (_, k) => `I:X${k}`) }),
    'symbols',
    '250',
  ],
  [
    'options',
    'an unknown option',
    (c) => c.stocks.getLastTrade('AAPL', { limt: 5 } as never),
    'limt',
    'has no option',
  ],
];

async function thrown(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (e) {
    return e;
  }
  return assert.fail('expected an error');
}

describe('bad input: the library', () => {
  test(`${LIBRARY_CASES.length} malformed values: InvalidParameterError naming the parameter and value, nothing sent`, async () => {
    const clients = asyncClients(recorder.url);
    const before = recorder.requests.length;
    try {
      for (const [type, label, call, parameter, shows] of LIBRARY_CASES) {
        const error = await thrown(() => call(clients));
        const what = `${type}, ${label}`;
        assert.ok(error instanceof InvalidParameterError, `${what}: ${String(error)}`);
        assert.equal(error.parameter, parameter, what);
        assert.ok(error.message.includes(parameter), `${what}: ${error.message}`);
        assert.ok(error.message.includes(shows), `${what}: ${error.message} should show ${shows}`);
      }
    } finally {
      await Promise.all(Object.values(clients).map((c) => c.close()));
    }
    assert.equal(recorder.requests.length, before, 'a malformed call sent a request');
  });

  test('the sync client throws the same InvalidParameterError', () => {
    const stocks = StocksClient('k', { baseUrl: 'http://127.0.0.1:9', maxRetries: 0 });
    try {
      for (const [call, parameter] of [
        [() => stocks.getDailyOpenClose('AAPL', '2024-02-30'), 'date'],
        [() => stocks.getTradesV3('AAPL', { limit: 0 }), 'limit'],
        [
          () =>
            stocks.getAggregateBars('AAPL', '2024-01-02', '2024-01-05', { timespan: 'fortnight' as never }),
          'timespan',
        ],
        [() => stocks.getLastTrade('AA PL'), 'symbol'],
      ] as const) {
        assert.throws(call, (e: unknown) => e instanceof InvalidParameterError && e.parameter === parameter);
      }
    } finally {
      stocks.close();
    }
  });
});

/** [parameter type, path, the wire parameter the error must name, or undefined where 404 is the answer]. */
const SERVER_CASES: [string, string, string | undefined][] = [
  ['date', '/v1/open-close/AAPL/2024-13-01', 'date'],
  ['date', '/v1/open-close/AAPL/2024-02-30', 'date'],
  ['date', '/v1/open-close/AAPL/yesterday', 'date'],
  ['date', '/v2/aggs/ticker/AAPL/range/1/day/2024-1-5/2024-01-09', 'from'],
  ['date', '/v2/aggs/ticker/AAPL/range/1/day/2024-01-05/2024-01-02', 'from'],
  ['date', '/v3/reference/splits?execution_date.gte=2024-99-01', 'execution_date.gte'],
  ['timestamp', '/v3/trades/AAPL?timestamp=noon', 'timestamp'],
  ['timestamp', '/v3/trades/AAPL?timestamp.gte=-5', 'timestamp.gte'],
  ['timestamp', '/v3/trades/AAPL?timestamp.lt=1.5e3', 'timestamp.lt'],
  ['timestamp', '/v1/indicators/sma/AAPL?timestamp=tomorrow', 'timestamp'],
  ['timestamp', '/v2/ticks/stocks/trades/AAPL/2024-01-02?timestamp=abc', 'timestamp'],
  ['limit', '/v3/trades/AAPL?limit=0', 'limit'],
  ['limit', '/v3/trades/AAPL?limit=abc', 'limit'],
  ['limit', '/v3/trades/AAPL?limit=2.5', 'limit'],
  ['limit', '/v1/indicators/sma/AAPL?limit=-1', 'limit'],
  ['multiplier', '/v2/aggs/ticker/AAPL/range/0/day/2024-01-02/2024-01-05', 'multiplier'],
  ['multiplier', '/v2/aggs/ticker/AAPL/range/1.5/day/2024-01-02/2024-01-05', 'multiplier'],
  ['multiplier', '/v2/aggs/ticker/AAPL/range/x/day/2024-01-02/2024-01-05', 'multiplier'],
  ['enum', '/v2/aggs/ticker/AAPL/range/1/fortnight/2024-01-02/2024-01-05', 'timespan'],
  ['enum', '/v2/aggs/ticker/AAPL/range/1/day/2024-01-02/2024-01-05?sort=up', 'sort'],
  ['enum', '/v3/trades/AAPL?order=sideways', 'order'],
  ['enum', '/v2/snapshot/locale/us/markets/stocks/up', 'direction'],
  ['enum', '/v1/indicators/sma/AAPL?series_type=volume', 'series_type'],
  ['boolean', '/v2/aggs/ticker/AAPL/prev?adjusted=yes', 'adjusted'],
  ['number', '/v1/conversion/EUR/USD?amount=abc', 'amount'],
  ['number', '/v1/conversion/EUR/USD?precision=99', 'precision'],
  ['symbol', '/v2/last/trade/AA%20PL', 'ticker'],
  ['symbol', '/v2/last/trade/%20', 'ticker'],
  ['symbol', '/v1/last_quote/currencies/EU%20R/USD', 'from'],
  ['option symbol', '/v3/snapshot/options/SPY/garbage', undefined],
  ['option symbol', '/v3/snapshot/options/SPY/O:SPY231301C00430000', undefined],
  ['option symbol', '/v3/reference/options/contracts/O:SPY2308C430', undefined],
  ['list', '/v2/snapshot/locale/us/markets/stocks/tickers?tickers=,,', 'tickers'],
  [
    'list',
    `/v3/snapshot/indices?ticker.any_of=${Array.from({ length: 251 }, (_, k) => `I:X${k}`).join(',')}`,
    'ticker.any_of',
  ],
];

describe('bad input: the server', () => {
  test(`${SERVER_CASES.length} malformed requests: 400 in the API's shape naming the parameter (404 for unknown contracts)`, async () => {
    for (const [type, path, parameter] of SERVER_CASES) {
      const res = await fetch(`${server.url}${path}`, { headers: { authorization: 'Bearer k' } });
      const body = (await res.json()) as {
        status: string;
        error?: string;
        message?: string;
        request_id?: string;
      };
      const what = `${type}: ${path.slice(0, 80)}`;
      assert.ok(typeof body.request_id === 'string' && body.request_id.length > 0, what);
      if (parameter === undefined) {
        assert.ok([400, 404].includes(res.status), `${what}: ${res.status}`);
        assert.ok(['ERROR', 'NOT_FOUND'].includes(body.status), what);
        continue;
      }
      assert.equal(res.status, 400, `${what}: ${JSON.stringify(body)}`);
      assert.equal(body.status, 'ERROR', what);
      const message = body.error ?? body.message ?? '';
      assert.ok(message.includes(parameter) || message.includes(`'${parameter}'`), `${what}: ${message}`);
    }
  });

  test('fuzzed path segments and query values of every operation: never a 500, the server keeps serving', async () => {
    const operations = new Map<string, OperationSpec>();
    for (const group of [
      stocksOperations,
      optionsOperations,
      indicesOperations,
      forexOperations,
      cryptoOperations,
      referenceOperations,
    ]) {
      for (const op of Object.values(group) as OperationSpec[]) operations.set(op.path, op);
    }
    const ops = [...operations.values()];
    const sample: Record<string, string> = {
      ticker: SYNTHETIC_TICKER,
      optionContract: 'O:SYNTH230317C00100000',
      options_ticker: 'O:SYNTH230317C00100000',
      underlyingAsset: SYNTHETIC_TICKER,
      date: '2023-03-02',
      from: '2023-03-01',
      to: '2023-03-03',
      multiplier: '1',
      timespan: 'minute',
      direction: 'gainers',
    };
    const junk = fc.oneof(
      fc.string({ maxLength: 16 }),
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc.constantFrom(
        '',
        '-1',
        '0',
        '1e309',
        'NaN',
        '99999999999999999999999',
        '1677850000000000000',
        '2023-02-29',
        '2023-03-02T10:00:00Z',
        '%',
        '%00',
        '..',
        'null',
        'true',
        '[]',
        'O:',
        'a,b,,c',
        'x'.repeat(5000),
      ),
      fc.integer().map(String),
      fc.double().map(String),
    );
    let served = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: ops.length - 1 }),
        fc.array(fc.tuple(fc.nat(), junk), { maxLength: 4 }),
        fc.option(junk, { nil: undefined }),
        fc.nat(),
        async (opIndex, queryPicks, pathJunk, pathPick) => {
          const op = ops[opIndex] as OperationSpec;
          const holes = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
          const spoiled =
            holes.length > 0 && pathJunk !== undefined ? holes[pathPick % holes.length] : undefined;
          const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
            encodeURIComponent(name === spoiled ? (pathJunk as string) || 'x' : (sample[name] ?? 'X')),
          );
          const wires = op.params.filter((p) => p.in === 'query').map((p) => p.wire);
          const query = new URLSearchParams();
          for (const [k, v] of queryPicks)
            query.append(wires.length ? (wires[k % wires.length] as string) : 'limit', v);
          const url = `${server.url}${path}${query.size ? `?${query}` : ''}`;
          const res = await fetch(url, { headers: { authorization: 'Bearer k' } });
          const text = await res.text();
          assert.ok(
            [200, 400, 404].includes(res.status),
            `${res.status} for ${url.slice(0, 300)}: ${text.slice(0, 300)}`,
          );
          const body = JSON.parse(text) as { status?: string };
          if (res.status !== 200) {
            assert.ok(
              ['ERROR', 'NOT_FOUND'].includes(body.status as string),
              `${url.slice(0, 300)}: ${text}`,
            );
          }
          served++;
        },
      ),
      { numRuns: 400 },
    );
    assert.equal(served, 400);
    const health = await fetch(`${server.url}/v1/marketstatus/now`, {
      headers: { authorization: 'Bearer k' },
    });
    assert.equal(health.status, 200);
  });
});

/** [parameter type, argv, text the error line must show]. */
const CLI_CASES: [string, string[], string[]][] = [
  ['date', ['stocks', 'get-daily-open-close', 'AAPL', '2024-02-30'], ['date', '"2024-02-30"']],
  ['date', ['stocks', 'get-aggregate-bars', 'AAPL', '2024-01-05', '2024-01-02'], ['fromDate', 'toDate']],
  ['timestamp', ['stocks', 'get-trades-v3', 'AAPL', '--timestamp', 'noon'], ['timestamp', '"noon"']],
  ['limit', ['stocks', 'get-trades-v3', 'AAPL', '--limit', '0'], ['limit', '0']],
  ['limit', ['stocks', 'get-trades-v3', 'AAPL', '--limit', 'abc'], ['limit', '"abc"']],
  ['limit', ['stocks', 'get-sma', 'AAPL', '--limit', '5001'], ['limit', '5000']],
  [
    'multiplier',
    ['stocks', 'get-aggregate-bars', 'AAPL', '2024-01-02', '2024-01-05', '--multiplier', '0'],
    ['multiplier', '0'],
  ],
  [
    'enum',
    ['stocks', 'get-aggregate-bars', 'AAPL', '2024-01-02', '2024-01-05', '--timespan', 'fortnight'],
    ['timespan', '"fortnight"'],
  ],
  ['enum', ['stocks', 'get-trades-v3', 'AAPL', '--order', 'sideways'], ['order', '"sideways"']],
  ['symbol', ['stocks', 'get-last-trade', 'AA PL'], ['symbol', '"AA PL"']],
  ['option symbol', ['options', 'get-last-trade', 'SPY'], ['ticker', '"SPY"']],
  ['option symbol', ['symbols', 'parse', 'SPY2308C430'], ['optionSymbol', '"SPY2308C430"']],
  ['list', ['stocks', 'get-snapshot-all', '--symbols', 'AAPL,,MSFT'], ['symbols', '"AAPL,,MSFT"']],
  ['unknown option', ['stocks', 'get-last-trade', 'AAPL', '--limt', '5'], ['limt']],
  ['unknown operation', ['stocks', 'get-lats-trade', 'AAPL'], ['get-lats-trade', 'get-last-trade']],
];

describe('bad input: the CLI', () => {
  test(`${CLI_CASES.length} malformed arguments: exit code 2, one error line naming the parameter and value, nothing sent`, async () => {
    const env = { MASSIVE_API_KEY: 'k', MDQ_BASE_URL: recorder.url, NO_COLOR: '1' };
    const before = recorder.requests.length;
    for (const [type, argv, shows] of CLI_CASES) {
      const what = `${type}: mdq ${argv.join(' ')}`;
      const { code, stdout, stderr } = await runCliCaptured(argv, env);
      assert.equal(code, 2, `${what}: exit ${code}\n${stderr}`);
      assert.equal(stdout, '', what);
      const line = stderr.trim().split('\n').at(-1) ?? '';
      assert.match(line, /^mdq: /, `${what}: ${stderr}`);
      for (const text of shows) assert.ok(line.includes(text), `${what}: ${line} should show ${text}`);
    }
    assert.equal(recorder.requests.length, before, 'a malformed command sent a request');
  });

  test('the installed entry point exits with status 2 and one line on standard error', () => {
    const entry = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        entry,
        'stocks',
        'get-aggregate-bars',
        'AAPL',
        '2024-01-02',
        '2024-01-05',
        '--multiplier',
        '0',
      ],
      {
        encoding: 'utf8',
        env: { ...process.env, MASSIVE_API_KEY: 'k', MDQ_BASE_URL: recorder.url },
        timeout: 30_000,
      },
    );
    assert.equal(run.status, 2, run.stderr);
    assert.equal(run.stdout, '');
    assert.match(run.stderr.trim(), /^mdq: Invalid multiplier: 0;/);
  });
});
