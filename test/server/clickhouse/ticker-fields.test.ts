/**
 * The tickers listing's CIK, FIGIs and `last_updated_utc` on ClickHouse: a database written before the
 * `tickers` table had those columns gets them at the next publish, and the listing answers the
 * recorded records field for field, as the DuckDB store does.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createApp } from '../../../src/server/app.js';
import { ingestJson } from '../../../src/server/ingest/json.js';
import { publishToClickHouse } from '../../../src/server/store/clickhouse-publish.js';
import { ClickHouseStore } from '../../../src/server/store/clickhouse-store.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import type { Store } from '../../../src/server/store/store.js';
import { startClickHouse } from '../../support/clickhouse.js';
import { hasShared, recordedDir } from '../../support/shared.js';

const LISTING = `${recordedDir}v3/reference/tickers.json`;

async function answer(
  store: Store,
  path: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const app = createApp({ store, now: async () => Date.parse('2024-03-05T00:00:00Z'), log: () => {} });
  const res = await app.request(path, { headers: { Authorization: 'Bearer k' } });
  const body = (await res.json()) as Record<string, unknown>;
  delete body.request_id;
  return { status: res.status, body };
}

describe('ClickHouse store: the fields of the tickers listing', () => {
  test('a tickers table from before the columns gets them at the next publish and answers every recorded field', {
    timeout: 300_000,
  }, async (t) => {
    if (!hasShared(t, LISTING)) return;
    const servers = await startClickHouse(t);
    if (!servers) return;
    const work = mkdtempSync(join(tmpdir(), 'mdq-ch-tickers-'));
    t.after(() => rmSync(work, { recursive: true, force: true }));
    const clickhouse = await ClickHouseStore.open(servers.urls[0] as string);
    t.after(() => clickhouse.close());
    // The table as mdq wrote it before, holding a ticker.
    await clickhouse.run(
      `CREATE TABLE tickers (ticker String, name Nullable(String), market String, locale String,
        type Nullable(String), active UInt8, primary_exchange Nullable(String), currency_name Nullable(String),
        currency_symbol Nullable(String), base_currency_symbol Nullable(String),
        base_currency_name Nullable(String), list_date Nullable(Date), delisted_utc Nullable(DateTime))
        ENGINE = MergeTree ORDER BY ticker`,
    );
    await clickhouse.run(
      "INSERT INTO tickers (ticker, name, market, locale, active) VALUES ('ZZ', 'Old', 'stocks', 'us', 1)",
    );

    const duck = await DuckDbStore.open(join(work, 'staging.duckdb'));
    t.after(() => duck.close());
    await ingestJson(duck, [LISTING]);
    await publishToClickHouse(duck, clickhouse);

    const recorded = JSON.parse(readFileSync(LISTING, 'utf8')).results as Record<string, unknown>[];
    const path = '/v3/reference/tickers?market=stocks&ticker.lt=B';
    const got = await answer(clickhouse, path);
    assert.equal(got.status, 200, JSON.stringify(got.body));
    const results = got.body.results as Record<string, unknown>[];
    assert.deepEqual(
      results.slice(0, recorded.length).map((r) => Object.entries(r)),
      recorded.map((r) => Object.entries(r)),
    );
    // The row written before has none of the new fields: its last_updated_utc is the server's day.
    const zz = await answer(clickhouse, '/v3/reference/tickers?ticker=ZZ');
    assert.deepEqual((zz.body.results as Record<string, unknown>[])[0], {
      ticker: 'ZZ',
      name: 'Old',
      market: 'stocks',
      locale: 'us',
      active: true,
      last_updated_utc: '2024-03-05T00:00:00Z',
    });
    for (const p of [path, '/v3/reference/tickers?ticker.lt=B&sort=cik&order=desc'])
      assert.deepEqual(await answer(clickhouse, p), await answer(duck, p), p);
  });
});
