/**
 * Requests over decades of daily bars, and ticker events from the Lean map files, answered by the
 * ClickHouse store as by the DuckDB store: a range of 28 years spells each New York offset change in
 * its time expressions (a query beyond ClickHouse's default 256 KiB), and the map files' history
 * is read with the store's own date text.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { createApp } from '../../../src/server/app.js';
import { ingestLean } from '../../../src/server/ingest/lean.js';
import { publishToClickHouse } from '../../../src/server/store/clickhouse-publish.js';
import { ClickHouseStore } from '../../../src/server/store/clickhouse-store.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import type { Store } from '../../../src/server/store/store.js';
import { startClickHouse } from '../../support/clickhouse.js';
import { type RecordedQuery, recordingStore } from '../../support/recording-store.js';
import { hasShared, leanDir } from '../../support/shared.js';
import { leanSubset } from '../ingest/helpers.js';

const FILES = [
  'equity/usa/daily/spy.zip',
  'equity/usa/tick/spy/20131007_trade.zip',
  'equity/usa/daily/aapl.zip',
  'equity/usa/factor_files/aapl.csv',
  'equity/usa/map_files/aapl.csv',
];

const REQUESTS = [
  '/v2/aggs/ticker/SPY/range/1/day/1998-01-01/2025-12-31?limit=50000',
  '/v2/aggs/ticker/SPY/range/1/month/1998-01-01/2025-12-31',
  '/v2/aggs/ticker/AAPL/range/1/week/1998-01-01/2025-12-31?adjusted=false',
  // An indicator's default window: every day stored before "now".
  '/v1/indicators/ema/SPY?limit=5',
  '/v1/indicators/macd/SPY?limit=5',
  '/v1/indicators/rsi/AAPL?limit=5',
  '/vX/reference/tickers/AAPL/events',
];

const NOW = Date.parse('2026-01-01T00:00:00Z');

type Answer = { status: number; body: unknown };

async function answer(store: Store, path: string): Promise<Answer> {
  const app = createApp({ store, now: async () => NOW, log: () => {} });
  const res = await app.request(path, { headers: { Authorization: 'Bearer k' } });
  const body = (await res.json()) as Record<string, unknown>;
  delete body.request_id;
  return { status: res.status, body };
}

describe('the ClickHouse store over decades of daily bars', () => {
  test('long ranges, indicators and ticker events answer as on DuckDB', { timeout: 300_000 }, async (t) => {
    if (!hasShared(t, leanDir)) return;
    const servers = await startClickHouse(t);
    if (!servers) return;
    const work = mkdtempSync(join(tmpdir(), 'mdq-decades-'));
    t.after(() => rmSync(work, { recursive: true, force: true }));
    const lean = leanSubset(FILES);
    t.after(lean.cleanup);
    const duck = await DuckDbStore.open(join(work, 'store.duckdb'));
    t.after(() => duck.close());
    await ingestLean(duck, lean.dir);
    const clickhouse = await ClickHouseStore.open(servers.urls[0] as string, { readOnly: true });
    t.after(() => clickhouse.close());
    await publishToClickHouse(duck, clickhouse);

    const duckQueries = recordingStore(duck);
    const clickhouseQueries = recordingStore(clickhouse);
    for (const path of REQUESTS) {
      duckQueries.clear();
      clickhouseQueries.clear();
      const expected = await answer(duckQueries.store, path);
      assert.equal(expected.status, 200, `${path} on DuckDB: ${JSON.stringify(expected.body).slice(0, 300)}`);
      const actual = await answer(clickhouseQueries.store, path);
      assert.equal(actual.status, 200, `${path} on ClickHouse: ${JSON.stringify(actual.body).slice(0, 300)}`);
      if (isDeepStrictEqual(actual, expected)) continue;
      // A difference seen once is hard to see again: say everything each store was asked and answered.
      const again = await answer(duck, path);
      assert.fail(
        [
          `${path}: the stores answer differently at ${firstDifference(expected, actual)}`,
          `asked again, DuckDB answers ${isDeepStrictEqual(again, expected) ? 'the same' : isDeepStrictEqual(again, actual) ? 'as ClickHouse' : 'a third answer'}`,
          ...described('DuckDB', duckQueries.queries(), expected, actual),
          ...described('ClickHouse', clickhouseQueries.queries(), actual, expected),
        ].join('\n'),
      );
    }
  });
});

/** Where two JSON values first differ (`body.results[1290].t`), with both values. */
function firstDifference(a: unknown, b: unknown, at = ''): string {
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const key of keys) {
      const x = (a as Record<string, unknown>)[key];
      const y = (b as Record<string, unknown>)[key];
      if (!isDeepStrictEqual(x, y))
        return firstDifference(x, y, Array.isArray(a) ? `${at}[${key}]` : `${at}.${key}`);
    }
  }
  return `${at || '(top)'}: DuckDB ${JSON.stringify(a)}, ClickHouse ${JSON.stringify(b)}`;
}

/** The first index at which two answers' `results` lists differ. */
function firstDifferentResult(mine: Answer, other: Answer): number | undefined {
  const list = (x: Answer) => (x.body as { results?: unknown }).results;
  const a = list(mine);
  const b = list(other);
  if (!Array.isArray(a) || !Array.isArray(b)) return undefined;
  const i = a.findIndex((x, k) => !isDeepStrictEqual(x, b[k]));
  return i < 0 ? undefined : i;
}

const text = (x: unknown) =>
  JSON.stringify(x, (_key, v) => (typeof v === 'bigint' ? `${v}n` : v instanceof Error ? v.message : v));

/**
 * Every query `store` was asked for one answer (`mine`, which differs from `other`): its SQL, its
 * parameters, and the raw rows around the first result that differs (rows as the store returned them,
 * before any of the server's arithmetic), so that one failure says where the wrong value came from.
 */
function described(store: string, queries: readonly RecordedQuery[], mine: Answer, other: Answer): string[] {
  const at = firstDifferentResult(mine, other);
  const results = (mine.body as { results?: unknown[] }).results;
  const lines = [
    `--- ${store}: ${queries.length} queries; its result ${at ?? '?'}: ${text(at === undefined ? undefined : results?.[at])}`,
  ];
  queries.forEach((q, n) => {
    lines.push(`[${store} query ${n + 1}] ${q.kind}(${text(q.params)})`, q.sql.trim());
    if (q.error !== undefined) lines.push(`  failed: ${text(q.error)}`);
    else if (q.kind === 'all') {
      const rows = q.result as unknown[];
      lines.push(`  ${rows.length} rows, the first: ${text(rows.slice(0, 3))}`);
    } else {
      const columns = q.result as Record<string, unknown[]>;
      const count = Object.values(columns)[0]?.length ?? 0;
      lines.push(`  ${count} rows`);
      // A page of day bars has a row per bar; other answers show their first rows.
      const around = at === undefined ? [0, 1, 2] : [at - 1, at, at + 1];
      for (const i of around.filter((i) => i >= 0 && i < count)) {
        lines.push(
          `  row ${i}: ${text(Object.fromEntries(Object.entries(columns).map(([k, v]) => [k, v[i]])))}`,
        );
      }
    }
  });
  return lines;
}
