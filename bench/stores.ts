/**
 * `node --import tsx bench/stores.ts`: the same requests answered from the DuckDB store, a ClickHouse
 * server and a two-shard ClickHouse cluster (servers started here, on loopback, as the tests start
 * them), over the intraday part of the test store (`.tmp/test-store.duckdb`, built by the test runner
 * from ../shared/marketdata: ticks, second, minute and hour bars; daily bars left out, as their 440
 * months would make the cluster's per-month publish dominate). Prints markdown.
 *
 * Environment: BENCH_ROUNDS (timed calls per request and store, default 7).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../src/server/app.js';
import { publishToClickHouse } from '../src/server/store/clickhouse-publish.js';
import { ClickHouseStore } from '../src/server/store/clickhouse-store.js';
import { DuckDbStore } from '../src/server/store/duckdb-store.js';
import type { Store } from '../src/server/store/store.js';
import { launchClickHouse } from '../test/support/clickhouse.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const source = fileURLToPath(new URL('../.tmp/test-store.duckdb', import.meta.url));
const NOW = Date.parse('2013-10-07T23:00:00Z');

const REQUESTS = [
  [
    '1-minute bars of a day of SPY ticks (1.9 M trades)',
    '/v2/aggs/ticker/SPY/range/1/minute/2013-10-07/2013-10-07',
  ],
  ['5-minute bars, same day', '/v2/aggs/ticker/SPY/range/5/minute/2013-10-07/2013-10-07'],
  ['day bar from the same ticks', '/v2/aggs/ticker/SPY/range/1/day/2013-10-07/2013-10-07'],
  [
    '1-minute bars of GCZ3 from minute bars, a month',
    '/v2/aggs/ticker/GCZ3/range/1/minute/2013-10-01/2013-10-31',
  ],
  ['50 000 SPY trades', '/v3/trades/SPY?timestamp=2013-10-07&limit=50000'],
  ['1 000 IBM trades from 14:00', '/v3/trades/IBM?timestamp.gte=2013-10-07T14:00:00Z&limit=1000'],
  ['last trade', '/v2/last/trade/SPY'],
] as const;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

async function timeRequest(store: Store, path: string): Promise<number> {
  const app = createApp({ store, now: async () => NOW, log: () => {} });
  const get = async () => {
    const res = await app.request(path, { headers: { Authorization: 'Bearer k' } });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
  await get();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    await get();
    times.push(performance.now() - started);
  }
  return median(times);
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'mdq-bench-stores-'));
  const single = await launchClickHouse(1);
  const cluster = await launchClickHouse(2);
  try {
    // The intraday subset, as a DuckDB store of its own.
    const duck = await DuckDbStore.open(join(work, 'intraday.duckdb'));
    await duck.run(`ATTACH '${source}' AS src (READ_ONLY)`);
    for (const table of [
      'trades',
      'quotes',
      'open_interest',
      'splits',
      'ticker_history',
      'tickers',
      'option_contracts',
    ]) {
      await duck.run(`INSERT INTO ${table} SELECT * FROM src.${table}`);
    }
    for (const table of ['bars', 'quote_bars']) {
      await duck.run(`INSERT INTO ${table} SELECT * FROM src.${table} WHERE resolution <> 'day'`);
    }
    await duck.run('DETACH src');
    const [rowsRow] = await duck.all<{ n: bigint }>(
      'SELECT (SELECT count(*) FROM trades) + (SELECT count(*) FROM quotes) + (SELECT count(*) FROM bars) + (SELECT count(*) FROM quote_bars) AS n',
    );
    const rows = Number(rowsRow?.n);

    const targets: [string, ClickHouseStore][] = [
      ['ClickHouse, 1 server', await ClickHouseStore.open(single.urls[0] as string, { readOnly: true })],
      [
        'ClickHouse, 2 shards',
        await ClickHouseStore.open(cluster.urls[0] as string, {
          cluster: cluster.cluster as string,
          readOnly: true,
        }),
      ],
    ];
    console.log(`| publish (${rows.toLocaleString('en-US')} tick and bar rows) | seconds | rows/s |`);
    console.log('|---|---|---|');
    for (const [name, store] of targets) {
      const started = performance.now();
      await publishToClickHouse(duck, store);
      const s = (performance.now() - started) / 1000;
      console.log(`| ${name} | ${s.toFixed(1)} | ${Math.round(rows / s).toLocaleString('en-US')} |`);
    }
    duck.close();
    const reader = await DuckDbStore.open(join(work, 'intraday.duckdb'), { readOnly: true });
    const stores: [string, Store][] = [['DuckDB', reader], ...targets];
    console.log('');
    console.log(`| request (median of ${rounds}, ms) | ${stores.map(([n]) => n).join(' | ')} |`);
    console.log(`|---|${stores.map(() => '---').join('|')}|`);
    for (const [label, path] of REQUESTS) {
      const cells: string[] = [];
      for (const [, store] of stores) cells.push((await timeRequest(store, path)).toFixed(1));
      console.log(`| ${label} | ${cells.join(' | ')} |`);
    }
    reader.close();
    for (const [, store] of targets) await store.close();
  } finally {
    await single.close();
    await cluster.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
