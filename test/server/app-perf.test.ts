/**
 * Server overhead benchmarks. Timings on a shared machine are noisy, so each side is measured several
 * times and the best run compared; the measured ratios are printed.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { describe, type TestContext, test } from 'node:test';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { startServer } from '../../src/server/index.js';
import { Store } from '../../src/server/store/store.js';
import { hasShared, leanDir } from '../support/shared.js';
import { fixtureStorePath } from './app-fixture.js';

/** autocannon ships no type declarations: the part used here. */
type Autocannon = (
  options: { url: string; connections: number; duration: number },
  done: (err: Error | null, result: { requests: { average: number } }) => void,
) => unknown;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const best = async (runs: number, fn: () => Promise<unknown>): Promise<number> => {
  await fn();
  let min = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    min = Math.min(min, performance.now() - t0);
  }
  return min;
};

/**
 * Runs a benchmark up to three times until it meets its target. When it never does on a machine busier
 * than twice its cores, the test is skipped with the measurements printed: the timing says nothing then.
 */
async function benchmark(
  t: TestContext,
  name: string,
  measure: () => Promise<{ ok: boolean; text: string }>,
) {
  const seen: string[] = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    const { ok, text } = await measure();
    console.log(`# ${name}: ${text}`);
    if (ok) return;
    seen.push(text);
  }
  const load = loadavg()[0] as number;
  if (load > 2 * availableParallelism()) {
    t.skip(`load average ${load.toFixed(1)} on ${availableParallelism()} cores: ${seen.join('; ')}`);
    return;
  }
  assert.fail(`${name} missed its target: ${seen.join('; ')}`);
}

const rps = (url: string): Promise<number> =>
  new Promise((resolve, reject) => {
    autocannon({ url, connections: 8, duration: 2 }, (err, result) => {
      if (err) reject(err);
      else resolve(result.requests.average);
    });
  });

describe('performance', () => {
  test('1-minute bars of a day of SPY ticks over HTTP: within 1.5× of the same aggregation run on DuckDB', async (t) => {
    if (!hasShared(t, leanDir)) return;
    const store = await Store.open(await fixtureStorePath(), { readOnly: true });
    // The caller's store: no query cache, every request runs its query.
    const server = await startServer({ store, port: 0, log: () => {} });
    t.after(async () => {
      await server.close();
      store.close();
    });
    const url = `${server.url}/v2/aggs/ticker/SPY/range/1/minute/2013-10-07/2013-10-07?limit=50000&apiKey=k`;
    let bars = 0;
    const from = BigInt(Date.UTC(2013, 9, 7, 4)) * 1_000_000n;
    const viaHttp = async () => {
      const body = (await (await fetch(url)).json()) as { resultsCount: number };
      bars = body.resultsCount;
    };
    const onDuckDb = () =>
      store.all(
        `SELECT sip_timestamp // 60000000000 AS minute, arg_min(price, sequence_number) AS o, max(price) AS h,
                min(price) AS l, arg_max(price, sequence_number) AS c, sum(size) AS v,
                sum(price * size) / sum(size) AS vw, count(*) AS n
           FROM trades WHERE ticker = 'SPY' AND sip_timestamp >= $1 AND sip_timestamp < $2
          GROUP BY minute ORDER BY minute`,
        [from, from + 86_400_000_000_000n],
      );
    await benchmark(t, '1-minute SPY bars, HTTP vs DuckDB', async () => {
      // Interleaved, so that both sides see the same background load; the best of each is compared.
      let http = Infinity;
      let direct = Infinity;
      for (let i = 0; i < 8; i++) {
        http = Math.min(http, await best(1, viaHttp));
        direct = Math.min(direct, await best(1, onDuckDb));
      }
      const ratio = http / direct;
      assert.ok(bars > 800);
      return {
        ok: ratio <= 1.5,
        text: `${bars} bars, HTTP ${http.toFixed(1)} ms, DuckDB ${direct.toFixed(1)} ms, ×${ratio.toFixed(2)} (target ≤ 1.5)`,
      };
    });
  });

  test('a small route serves at least half the requests per second of a bare Hono route', async (t) => {
    if (!hasShared(t, leanDir)) return;
    // Opened by the server itself, read-only: repeated queries come from its cache.
    const server = await startServer({
      db: await fixtureStorePath(),
      port: 0,
      log: () => {},
      now: '2013-10-07',
    });
    t.after(() => server.close());
    const path = '/v2/last/nbbo/IBM';
    const sample = await (await fetch(`${server.url}${path}?apiKey=k`)).text();
    const bare = new Hono();
    bare.get('/v2/last/nbbo/:ticker', (c) => c.body(sample, 200, { 'content-type': 'application/json' }));
    const bareServer = serve({ fetch: bare.fetch, hostname: '127.0.0.1', port: 0 });
    await new Promise((resolve) => bareServer.once('listening', resolve));
    t.after(() => new Promise((resolve) => bareServer.close(resolve)));
    const barePort = (bareServer.address() as AddressInfo).port;
    await benchmark(t, `${path} vs bare Hono`, async () => {
      const theirs = await rps(`http://127.0.0.1:${barePort}${path}`);
      const ours = await rps(`${server.url}${path}?apiKey=k`);
      const ratio = ours / theirs;
      return {
        ok: ratio >= 0.5,
        text: `${ours.toFixed(0)} req/s, bare Hono ${theirs.toFixed(0)} req/s, ×${ratio.toFixed(2)} (target ≥ 0.5)`,
      };
    });
  });
});
