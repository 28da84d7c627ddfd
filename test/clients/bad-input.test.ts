import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  fullRangeOptionGroup,
  paginationOptionGroup,
  requestOptionGroup,
} from '../../src/core/call-options.js';
import type { OptionSpec, OptionType } from '../../src/core/option-group.js';
import {
  CryptoClient,
  ForexClient,
  IndexClient,
  isMdqError,
  OptionsClient,
  ReferenceClient,
  StocksClient,
} from '../../src/index.js';
import { RecordingServer } from '../support/recording-server.js';

const KEY = 'bad-input-key-7';
const factories = {
  stocks: StocksClient,
  options: OptionsClient,
  indices: IndexClient,
  forex: ForexClient,
  crypto: CryptoClient,
  reference: ReferenceClient,
} as const;
type ClientName = keyof typeof factories;

/** A malformed call and the parameter its error must name. */
interface BadCase {
  client: ClientName;
  method: string;
  args: unknown[];
  parameter: string;
}

const CONTRACT = 'SPY251219C00650000';
const bad = (client: ClientName, method: string, parameter: string, ...args: unknown[]): BadCase => ({
  client,
  method,
  args,
  parameter,
});

const cases: BadCase[] = [
  // Dates and their order.
  bad('stocks', 'getAggregateBars', 'fromDate', 'AAPL', '2024-02-30', '2024-03-01'),
  bad('stocks', 'getAggregateBars', 'toDate', 'AAPL', '2024-03-01', '2024-3-5'),
  bad('stocks', 'getAggregateBars', 'fromDate', 'AAPL', '2024-03-02', '2024-03-01'),
  bad('stocks', 'getAggregateBars', 'fromDate', 'AAPL', 1709337600000, 1709251200000),
  bad('stocks', 'getAggregateBars', 'toDate', 'AAPL', '2024-03-01', new Date(Number.NaN)),
  bad('stocks', 'getTrades', 'date', 'AAPL', '2024-02-30'),
  bad('stocks', 'getTradesV3', 'timestampGte', 'AAPL', { timestampGte: '2024-13-01' }),
  bad('stocks', 'getTradesV3', 'timestamp', 'AAPL', { timestamp: 1.5 }),
  bad('crypto', 'getDailyOpenClose', 'date', 'BTC', 'USD', '2023-02-29'),
  bad('reference', 'getOptionContracts', 'expirationDateGte', { expirationDateGte: '2024-02-30' }),
  bad('reference', 'getTickers', 'date', { date: 20240102 }),
  // Limits above the maximum, non-positive sizes.
  bad('stocks', 'getAggregateBars', 'limit', 'AAPL', '2024-01-02', '2024-01-03', { limit: 50001 }),
  bad('stocks', 'getAggregateBars', 'multiplier', 'AAPL', '2024-01-02', '2024-01-03', { multiplier: 0 }),
  bad('stocks', 'getAggregateBars', 'multiplier', 'AAPL', '2024-01-02', '2024-01-03', { multiplier: 1.5 }),
  bad('stocks', 'getSma', 'limit', 'AAPL', { limit: 5001 }),
  bad('stocks', 'getSma', 'windowSize', 'AAPL', { windowSize: 0 }),
  bad('options', 'getTrades', 'limit', CONTRACT, { limit: 50001 }),
  bad('indices', 'getSnapshot', 'limit', { limit: 251 }),
  bad('forex', 'getHistoricForexTicks', 'limit', 'EUR', 'USD', '2024-01-02', { limit: 10001 }),
  bad('forex', 'realTimeCurrencyConversion', 'precision', 'EUR', 'USD', 1, { precision: 5 }),
  bad('reference', 'getOptionContracts', 'limit', { limit: 1001 }),
  bad('reference', 'getStockFinancialsVx', 'limit', { limit: 101 }),
  bad('reference', 'getStockFinancialsVx', 'timeFrame', { timeFrame: 'monthly' }),
  // The v1 IPOs listing: sort columns and directions, limit, and the .any_of lists.
  bad('reference', 'getIposV1', 'sort', { sort: 'bogus.asc' }),
  bad('reference', 'getIposV1', 'sort', { sort: 'ticker.up' }),
  bad('reference', 'getIposV1', 'sort', { sort: 'ticker.asc,,listing_date' }),
  bad('reference', 'getIposV1', 'limit', { limit: 0 }),
  bad('reference', 'getIposV1', 'limit', { limit: 1001 }),
  bad('reference', 'getIposV1', 'tickerAnyOf', { tickerAnyOf: 'AAPL,,MSFT' }),
  bad('reference', 'getIposV1', 'usCodeAnyOf', { usCodeAnyOf: [] }),
  bad('reference', 'getIposV1', 'ipoStatusAnyOf', { ipoStatusAnyOf: 'history,bogus' }),
  bad('reference', 'getIposV1', 'ipoStatusAnyOf', { ipoStatusAnyOf: 'history,' }),
  bad('reference', 'getBulkTickerDetails', 'sort', 'AAPL', { customDates: ['2022-06-20'], sort: 'up' }),
  bad('reference', 'getBulkTickerDetails', 'maxConcurrentWorkers', 'AAPL', {
    customDates: ['2022-06-20'],
    maxConcurrentWorkers: 0,
  }),
  bad('stocks', 'getTradesV3', 'maxPages', 'AAPL', { allPages: true, maxPages: 0 }),
  // Unknown enumeration values.
  bad('stocks', 'getAggregateBars', 'timespan', 'AAPL', '2024-01-02', '2024-01-03', {
    timespan: 'fortnight',
  }),
  bad('stocks', 'getAggregateBars', 'sort', 'AAPL', '2024-01-02', '2024-01-03', { sort: 'up' }),
  bad('stocks', 'getTradesV3', 'order', 'AAPL', { order: 'sideways' }),
  bad('stocks', 'getTradesV3', 'sort', 'AAPL', { sort: 'price' }),
  bad('stocks', 'getSma', 'seriesType', 'AAPL', { seriesType: 'median' }),
  bad('stocks', 'getRsi', 'timespan', 'AAPL', { timespan: 'second' }),
  bad('stocks', 'getGainersAndLosers', 'direction', { direction: 'up' }),
  bad('indices', 'getSnapshot', 'order', { order: 'random' }),
  bad('indices', 'getSnapshot', 'sort', { sort: 'name' }),
  bad('reference', 'getOptionContracts', 'contractType', { contractType: 'straddle' }),
  bad('reference', 'getTickers', 'market', { market: 'bonds' }),
  // Wrong types: strings are never coerced to numbers or booleans.
  bad('stocks', 'getAggregateBars', 'adjusted', 'AAPL', '2024-01-02', '2024-01-03', { adjusted: 'true' }),
  bad('stocks', 'getTradesV3', 'limit', 'AAPL', { limit: '10' }),
  bad('forex', 'realTimeCurrencyConversion', 'amount', 'EUR', 'USD', '100'),
  bad('crypto', 'getHistoricTrades', 'offset', 'BTC', 'USD', '2024-01-02', { offset: 'soon' }),
  bad('reference', 'getOptionContracts', 'expired', { expired: 'yes' }),
  bad('reference', 'getStockSplits', 'reverseSplit', { reverseSplit: 1 }),
  bad('stocks', 'getLastTrade', 'symbol', 42),
  bad('stocks', 'getTradesV3', 'bogus', 'AAPL', { bogus: 1 }),
  bad('stocks', 'getLastTrade', 'rawResponse', 'AAPL', { rawResponse: 'yes' }),
  bad('crypto', 'getLevel2Book', 'rawResponse', 'BTCUSD', { rawResponse: 1 }),
  // Lists.
  bad('stocks', 'getSnapshotAll', 'symbols', { symbols: 42 }),
  bad('stocks', 'getSnapshotAll', 'symbols', { symbols: { AAPL: true } }),
  bad('stocks', 'getSnapshotAll', 'symbols', { symbols: ['AAPL', 7] }),
  bad('forex', 'getSnapshotAll', 'symbols', { symbols: true }),
  bad('indices', 'getSnapshot', 'symbols', { symbols: 5 }),
  bad('indices', 'getSnapshot', 'symbols', { symbols: Array.from({ length: 251 }, (_, i) => `IX${i}`) }),
  // Symbols: empty, path characters, malformed pairs and option symbols.
  bad('stocks', 'getLastTrade', 'symbol', ''),
  bad('stocks', 'getLastTrade', 'symbol', 'AA/PL'),
  bad('forex', 'getQuotes', 'symbol', 'C:EUR/USD'),
  bad('crypto', 'getLevel2Book', 'symbol', 'BTC/USD'),
  bad('forex', 'realTimeCurrencyConversion', 'fromSymbol', 'EURO-', 'USD', 1),
  bad('forex', 'getHistoricForexTicks', 'toSymbol', 'EUR', 'U', '2024-01-02'),
  bad('forex', 'getLastQuote', 'fromSymbol', 'EUR/USD', 'USD'),
  bad('crypto', 'getLastTrade', 'fromSymbol', 'BTC USD', 'USD'),
  bad('options', 'getTrades', 'optionSymbol', 'SPY251319C00650000'),
  bad('options', 'getTrades', 'optionSymbol', 'SPY'),
  bad('options', 'getQuotes', 'optionSymbol', 'SPY251219C0065000'),
  bad('options', 'getLastTrade', 'ticker', 'SPY251219X00650000'),
  bad('options', 'getSnapshot', 'optionSymbol', 'AAPL', 'AAPL230631C00150000'),
  bad('options', 'getAggregateBars', 'symbol', 'SPY', '2024-01-02', '2024-01-03'),
  bad('reference', 'getOptionContract', 'ticker', 'EVRI'),
];

// The aggregate and indicator parameters, through every market client.
const symbols: [ClientName, string][] = [
  ['stocks', 'AAPL'],
  ['options', CONTRACT],
  ['indices', 'SPX'],
  ['forex', 'EURUSD'],
  ['crypto', 'BTCUSD'],
];
for (const [client, symbol] of symbols) {
  const bars = (parameter: string, from: unknown, to: unknown, options?: object) =>
    cases.push(bad(client, 'getAggregateBars', parameter, symbol, from, to, ...(options ? [options] : [])));
  bars('fromDate', '2024-02-30', '2024-03-01');
  bars('fromDate', '2024-03-02', '2024-03-01');
  bars('limit', '2024-01-02', '2024-01-03', { limit: 50001 });
  bars('multiplier', '2024-01-02', '2024-01-03', { multiplier: 0 });
  bars('timespan', '2024-01-02', '2024-01-03', { timespan: 'fortnight' });
  bars('sort', '2024-01-02', '2024-01-03', { sort: 'descending' });
  bars('fullRange', '2024-01-02', '2024-01-03', { fullRange: 'yes' });
  bars('runParallel', '2024-01-02', '2024-01-03', { fullRange: true, runParallel: 1 });
  cases.push(bad(client, 'getFullRangeAggregateBars', 'toDate', symbol, '2024-01-02', '2024-13-01'));
  cases.push(
    bad(client, 'getFullRangeAggregateBars', 'maxConcurrentWorkers', symbol, '2024-01-02', '2024-01-03', {
      maxConcurrentWorkers: 0,
    }),
  );
  cases.push(bad(client, 'getSma', 'windowSize', symbol, { windowSize: 0 }));
  cases.push(bad(client, 'getEma', 'limit', symbol, { limit: 5001 }));
  cases.push(bad(client, 'getRsi', 'seriesType', symbol, { seriesType: 'median' }));
  cases.push(bad(client, 'getMacd', 'order', symbol, { order: 'sideways' }));
  cases.push(bad(client, 'getMacd', 'timestampGte', symbol, { timestampGte: '2024-02-30' }));
}
cases.push(
  bad('indices', 'getSnapshot', 'symbols', {
    symbols: Array.from({ length: 251 }, (_, i) => `IX${i}`).join(','),
  }),
);

// Every option of the option groups, from their declarations, through an operation that takes the group.
const badValue = (type: OptionType): unknown =>
  type.kind === 'int' ? 0 : type.kind === 'boolean' ? 'yes' : `not a ${type.kind}`;
for (const [group, method, args] of [
  [requestOptionGroup, 'getLastTrade', ['AAPL']],
  [paginationOptionGroup, 'getTradesV3', ['AAPL']],
  [fullRangeOptionGroup, 'getAggregateBars', ['AAPL', '2024-01-02', '2024-01-03']],
] as const) {
  for (const spec of group.options as readonly OptionSpec[]) {
    cases.push(bad('stocks', method, spec.name, ...args, { [spec.name]: badValue(spec.type) }));
  }
}

const show = (a: unknown) => (Array.isArray(a) && a.length > 5 ? `[${a.length} items]` : JSON.stringify(a));

async function errorOf(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('bad input is an InvalidParameterError naming the parameter, before any request', () => {
  const server = new RecordingServer();
  const sync = new Map<ClientName, Record<string, (...a: unknown[]) => unknown> & { close(): void }>();
  const asyncClients = new Map<
    ClientName,
    Record<string, (...a: unknown[]) => unknown> & { close(): Promise<void> }
  >();
  before(async () => {
    await server.start();
    await server.respond('{"status":"OK","request_id":"x","results":[]}');
    for (const [name, factory] of Object.entries(factories) as [
      ClientName,
      (typeof factories)[ClientName],
    ][]) {
      asyncClients.set(name, (factory as any)(KEY, { useAsync: true, baseUrl: server.url }));
      sync.set(name, (factory as any)(KEY, { baseUrl: server.url }));
    }
  });
  after(async () => {
    for (const c of asyncClients.values()) await c.close();
    for (const c of sync.values()) c.close();
    await server.stop();
  });

  for (const variant of ['async', 'sync'] as const) {
    for (const c of cases) {
      test(`${variant} ${c.client}.${c.method}(${c.args.map(show).join(', ')}) → ${c.parameter}`, async () => {
        const client = (variant === 'async' ? asyncClients : sync).get(c.client)!;
        assert.equal(typeof client[c.method], 'function');
        const error = await errorOf(() => client[c.method]!(...c.args));
        assert.ok(isMdqError(error), `expected an mdq error, got ${String(error)}`);
        assert.equal((error as Error).name, 'InvalidParameterError', (error as Error).message);
        assert.equal((error as { parameter?: string }).parameter, c.parameter, (error as Error).message);
        assert.ok((error as Error).message.includes(c.parameter), 'the message names the parameter');
        assert.ok(!(error as Error).message.includes(KEY), 'the message never holds the key');
        assert.deepEqual(await server.take(), [], 'no request reached the server');
      });
    }
  }
});
