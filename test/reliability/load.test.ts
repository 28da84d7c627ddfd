/**
 * The server under a bounded concurrent load from a second process (autocannon, 100 connections on
 * 127.0.0.1, a fixed number of requests here, however long a loaded machine takes to answer them; the
 * 30-second run is part of `npm run bench`): every request is
 * answered with a 2xx, none errors or times out. Latency percentiles and memory are reported as test
 * diagnostics, never asserted.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadTest } from '../../bench/autocannon.js';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { DuckDbStore } from '../../src/server/store/duckdb-store.js';
import { SYNTHETIC_TICKER, writeSyntheticMinuteBars } from './synthetic-store.js';

const KEY = 'load-key';
const AMOUNT = 300;
let store: DuckDbStore;
let server: RunningServer;

before(async () => {
  store = await DuckDbStore.open(':memory:');
  await writeSyntheticMinuteBars(store, '2023-03-01', '2023-03-10');
  server = await startServer({ store, port: 0, apiKeys: [KEY], log: () => {} });
});
after(async () => {
  await server?.close();
  store?.close();
});

for (const [label, path] of [
  ['5-minute bars of one day', `/v2/aggs/ticker/${SYNTHETIC_TICKER}/range/5/minute/2023-03-02/2023-03-02`],
  ['previous close', `/v2/aggs/ticker/${SYNTHETIC_TICKER}/prev`],
] as const) {
  test(`100 connections, ${AMOUNT} requests on ${label}: every request answered, no error`, async (t) => {
    const rssBefore = process.memoryUsage().rss;
    const result = await loadTest(`${server.url}${path}`, {
      connections: 100,
      amount: AMOUNT,
      // Far above what load adds to an answer: a timeout here is a request the server dropped.
      timeout: 120,
      headers: { authorization: `Bearer ${KEY}` },
    });
    const rssMiB = (process.memoryUsage().rss / 2 ** 20).toFixed(0);
    t.diagnostic(
      `${result.requests} requests, ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, max ${result.max} ms; server RSS ${(rssBefore / 2 ** 20).toFixed(0)} → ${rssMiB} MiB, peak ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`,
    );
    assert.equal(result.requests, AMOUNT, 'requests completed');
    assert.equal(result.errors, 0, 'connection errors');
    assert.equal(result.timeouts, 0, 'timeouts');
    assert.equal(result.non2xx, 0, 'answers other than 2xx');
    // Still serving, and the answer is right after the load.
    const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${KEY}` } });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { results?: unknown[] };
    assert.ok((body.results?.length ?? 0) > 0);
  });
}
