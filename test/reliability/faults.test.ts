/**
 * Reliability under network and server faults: the async client talks to the real local server
 * (real DuckDB, real loopback HTTP) through a seeded fault-injecting proxy. Full-range fetches,
 * all-pages pagination and `for await` walks must return exactly the bars and items of a fault-free
 * run: none lost, none twice. Once the retry budget is spent, the error is typed and names what failed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { failedChunkOf } from '../../src/core/full-range.js';
import {
  type AsyncStocksClient,
  DecodeError,
  InternalServerError,
  RateLimitError,
  ReadTimeout,
  StocksClient,
} from '../../src/index.js';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { DuckDbStore } from '../../src/server/store/duckdb-store.js';
import { FAULT_KINDS, type FaultKind, type FaultProxy, startFaultProxy } from '../support/fault-proxy.js';
import { openTestStore } from '../support/store.js';
import { startFaultStackThread } from './fault-stack-thread.js';
import { SYNTHETIC_TICKER, writeSyntheticMinuteBars } from './synthetic-store.js';

const KEY = 'reliability-key';
const FROM = '2023-01-03';
const TO = '2023-03-31';
const PAGE_FROM = '2023-02-01';
const PAGE_TO = '2023-02-10';

interface Row {
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

let store: DuckDbStore;
let server: RunningServer;
/** Bars of [FROM, TO] and [PAGE_FROM, PAGE_TO], read from the store itself. */
let expectedRange: Row[];
let expectedPage: Row[];
const injectedTotals = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;

async function rowsBetween(fromDay: string, toDay: string): Promise<Row[]> {
  const lo = Date.parse(`${fromDay}T00:00:00-05:00`);
  const hi = Date.parse(`${toDay}T00:00:00-05:00`) + 86_400_000;
  const rows = await store.all<{ t: bigint; o: number; h: number; l: number; c: number; v: number }>(
    `SELECT t, o, h, l, c, v FROM bars WHERE ticker = $1 AND resolution = 'minute' AND t >= $2 AND t < $3 ORDER BY t`,
    [SYNTHETIC_TICKER, BigInt(lo), BigInt(hi)],
  );
  return rows.map((r) => ({ t: Number(r.t), o: r.o, h: r.h, l: r.l, c: r.c, v: r.v }));
}

const pick = (bars: readonly unknown[]): Row[] =>
  (bars as Row[]).map(({ t, o, h, l, c, v }) => ({ t, o, h, l, c, v }));

function client(
  baseUrl: string,
  options: { maxRetries?: number; readTimeout?: number } = {},
): AsyncStocksClient {
  return StocksClient(KEY, {
    useAsync: true,
    baseUrl,
    // Retries and a read timeout enough for a loaded machine's slow answer, still short of the 4 s stall.
    maxRetries: options.maxRetries ?? 6,
    readTimeout: options.readTimeout ?? 2,
    logger: () => {},
  });
}

async function withProxy<T>(
  seed: number,
  run: (proxy: FaultProxy) => Promise<T>,
  options: Partial<Parameters<typeof startFaultProxy>[0]> = {},
): Promise<T> {
  const proxy = await startFaultProxy({ upstream: server.url, seed, stallMs: 4000, ...options });
  try {
    return await run(proxy);
  } finally {
    for (const k of FAULT_KINDS) injectedTotals[k] += proxy.injected[k];
    await proxy.close();
  }
}

before(async () => {
  store = await DuckDbStore.open(':memory:');
  await writeSyntheticMinuteBars(store, FROM, TO);
  server = await startServer({ store, port: 0, apiKeys: [KEY], log: () => {} });
  expectedRange = await rowsBetween(FROM, TO);
  expectedPage = await rowsBetween(PAGE_FROM, PAGE_TO);
});
after(async () => {
  await server?.close();
  store?.close();
});

describe('faults: every bar and item exactly once', () => {
  test('the fault-free run matches the store', async () => {
    const c = client(server.url);
    try {
      const bars = await c.getAggregateBars(SYNTHETIC_TICKER, FROM, TO, {
        timespan: 'minute',
        fullRange: true,
        highVolatility: true,
        info: false,
      });
      assert.equal(bars.length, expectedRange.length);
      assert.deepEqual(pick(bars), expectedRange);
    } finally {
      await c.close();
    }
  });

  for (const seed of [11, 23]) {
    test(`seed ${seed}: full range, all pages and a for-await walk through the fault proxy`, async () => {
      await withProxy(seed, async (proxy) => {
        const c = client(proxy.url);
        try {
          const bars = await c.getAggregateBars(SYNTHETIC_TICKER, FROM, TO, {
            timespan: 'minute',
            fullRange: true,
            highVolatility: true,
            maxConcurrentWorkers: 4,
            info: false,
            warnings: false,
          });
          assert.deepEqual(pick(bars), expectedRange, 'full range');

          const merged = await c.getAggregateBars(SYNTHETIC_TICKER, PAGE_FROM, PAGE_TO, {
            timespan: 'minute',
            limit: 500,
            allPages: true,
          });
          assert.deepEqual(pick(merged.results ?? []), expectedPage, 'all pages');

          const walked: unknown[] = [];
          for await (const bar of c.getAggregateBars(SYNTHETIC_TICKER, PAGE_FROM, PAGE_TO, {
            timespan: 'minute',
            limit: 500,
          })) {
            walked.push(bar);
          }
          assert.deepEqual(pick(walked), expectedPage, 'for await');
        } finally {
          await c.close();
        }
        // The run really met faults, and none was a request the proxy could not forward.
        assert.ok(proxy.totalInjected() >= 5, `only ${proxy.totalInjected()} faults injected`);
        assert.ok(proxy.forwarded > 0);
      });
    });
  }

  test('the sync client: full range and all pages through the fault proxy equal the store', async () => {
    // The sync client blocks this thread, so server and proxy run in a worker thread.
    const stack = await startFaultStackThread({
      from: FROM,
      to: TO,
      apiKey: KEY,
      proxy: { seed: 41, stallMs: 4000 },
    });
    const sync = StocksClient(KEY, {
      baseUrl: stack.proxyUrl,
      maxRetries: 6,
      readTimeout: 2,
      logger: () => {},
    });
    try {
      // SyncOf drops the options' type parameter, so the full-range result is typed as one page.
      const bars = sync.getAggregateBars(SYNTHETIC_TICKER, FROM, TO, {
        timespan: 'minute',
        fullRange: true,
        highVolatility: true,
        maxConcurrentWorkers: 4,
        info: false,
        warnings: false,
      });
      assert.deepEqual(pick(bars as unknown as unknown[]), expectedRange, 'full range');
      const merged = sync.getAggregateBars(SYNTHETIC_TICKER, PAGE_FROM, PAGE_TO, {
        timespan: 'minute',
        limit: 500,
        allPages: true,
      });
      assert.deepEqual(pick(merged.results ?? []), expectedPage, 'all pages');
    } finally {
      sync.close();
      const injected = await stack.injected();
      await stack.close();
      const total = Object.values(injected).reduce((a, b) => a + b, 0);
      assert.ok(total >= 3, `only ${total} faults injected`);
    }
  });

  test('every kind of fault was injected over the seeded runs', () => {
    for (const kind of FAULT_KINDS) assert.ok(injectedTotals[kind] > 0, `${kind} never injected`);
  });
});

describe('faults: real trades, cursor pagination', () => {
  test('IBM trades of 2013-10-07 (10 pages): all pages and a for-await walk equal a fault-free run and the store', async (t) => {
    const real = await openTestStore(t);
    if (!real) return;
    const realServer = await startServer({ store: real, port: 0, apiKeys: [KEY], log: () => {} });
    const proxy = await startFaultProxy({ upstream: realServer.url, seed: 53, stallMs: 4000 });
    const direct = client(realServer.url);
    const faulty = client(proxy.url);
    type Trade = { sip_timestamp: bigint; sequence_number: number };
    const key = (r: Trade) => `${r.sip_timestamp}/${r.sequence_number}`;
    try {
      const rows = await real.all<{ sip_timestamp: bigint; sequence_number: bigint }>(
        `SELECT sip_timestamp, sequence_number FROM trades WHERE ticker = 'IBM'
           AND sip_timestamp >= 1381118400000000000 AND sip_timestamp < 1381204800000000000`,
      );
      const expectedKeys = rows.map((r) => `${r.sip_timestamp}/${r.sequence_number}`).sort();
      const options = { timestamp: '2013-10-07', limit: 2500 } as const;
      const reference = (await direct.getTradesV3('IBM', { ...options, allPages: true })).results as Trade[];
      assert.deepEqual(reference.map(key).sort(), expectedKeys, 'the fault-free run holds every trade once');

      const merged = (await faulty.getTradesV3('IBM', { ...options, allPages: true })).results as Trade[];
      assert.deepEqual(merged, reference, 'all pages');
      const walked: Trade[] = [];
      for await (const trade of faulty.getTradesV3('IBM', options)) walked.push(trade as Trade);
      assert.deepEqual(walked, reference, 'for await');
      assert.ok(proxy.totalInjected() >= 5, `only ${proxy.totalInjected()} faults injected`);
      for (const k of FAULT_KINDS) injectedTotals[k] += proxy.injected[k];
    } finally {
      await direct.close();
      await faulty.close();
      await proxy.close();
      await realServer.close();
      real.close();
    }
  });
});

describe('faults: retry budget exhausted', () => {
  const always = (kinds: FaultKind[]) => ({ rate: 1, kinds, maxConsecutive: Number.POSITIVE_INFINITY });

  test('503 on every attempt: InternalServerError with status, path and attempts', async () => {
    await withProxy(
      1,
      async (proxy) => {
        const c = client(proxy.url, { maxRetries: 2 });
        try {
          const error = await c.getLastTrade('SYNTH').then(
            () => assert.fail('expected an error'),
            (e: unknown) => e,
          );
          assert.ok(error instanceof InternalServerError, String(error));
          assert.equal(error.status, 503);
          assert.equal((error as unknown as { attempts: number }).attempts, 3);
          assert.match(error.message, /HTTP 503 for \/v2\/last\/trade\/SYNTH/);
          assert.match(error.message, /gave up after 3 attempts/);
          assert.equal(proxy.requests, 3);
        } finally {
          await c.close();
        }
      },
      always(['503']),
    );
  });

  test('429 on every attempt: RateLimitError', async () => {
    await withProxy(
      2,
      async (proxy) => {
        const c = client(proxy.url, { maxRetries: 1 });
        try {
          await assert.rejects(
            c.getAggregateBars(SYNTHETIC_TICKER, PAGE_FROM, PAGE_TO, { timespan: 'minute' }),
            (e: unknown) => e instanceof RateLimitError && e.status === 429 && /\/v2\/aggs\//.test(e.message),
          );
          assert.equal(proxy.requests, 2);
        } finally {
          await c.close();
        }
      },
      always(['429-retry-after']),
    );
  });

  test('truncated JSON on every attempt: DecodeError naming the path', async () => {
    await withProxy(
      3,
      async (proxy) => {
        const c = client(proxy.url, { maxRetries: 2 });
        try {
          await assert.rejects(
            c.getAggregateBars(SYNTHETIC_TICKER, PAGE_FROM, PAGE_TO, { timespan: 'minute' }),
            (e: unknown) =>
              e instanceof DecodeError &&
              e.status === 200 &&
              /not valid JSON/.test(e.message) &&
              e.message.includes(`/v2/aggs/ticker/${SYNTHETIC_TICKER}/range/1/minute/`),
          );
          assert.equal(proxy.requests, 3);
        } finally {
          await c.close();
        }
      },
      always(['truncated-json']),
    );
  });

  test('a stall on every attempt: ReadTimeout', async () => {
    await withProxy(
      4,
      async (proxy) => {
        const c = client(proxy.url, { maxRetries: 1, readTimeout: 0.5 });
        try {
          await assert.rejects(c.getLastTrade('SYNTH'), (e: unknown) => e instanceof ReadTimeout);
          assert.equal(proxy.requests, 2);
        } finally {
          await c.close();
        }
      },
      { ...always(['stall']), stallMs: 10_000 },
    );
  });

  test('a full range whose chunks keep failing: the typed error tells which chunk', async () => {
    await withProxy(
      5,
      async (proxy) => {
        const c = client(proxy.url, { maxRetries: 1 });
        try {
          const error = await c
            .getAggregateBars(SYNTHETIC_TICKER, FROM, TO, {
              timespan: 'minute',
              fullRange: true,
              highVolatility: true,
              warnings: false,
              info: false,
            })
            .then(
              () => assert.fail('expected an error'),
              (e: unknown) => e,
            );
          assert.ok(error instanceof InternalServerError, String(error));
          assert.equal(error.status, 502);
          assert.match(error.message, /gave up after 2 attempts/);
          const chunk = failedChunkOf(error);
          assert.ok(chunk, 'the error names its chunk');
          assert.ok(chunk.fromMs >= Date.parse(`${FROM}T00:00:00-05:00`) && chunk.toMs > chunk.fromMs);
          assert.ok(error.message.includes(`/range/1/minute/${chunk.fromMs}/${chunk.toMs}`), error.message);
        } finally {
          await c.close();
        }
      },
      always(['502']),
    );
  });
});
