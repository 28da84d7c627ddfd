/**
 * A ClickHouse database written before reference records had their filtered and sorted fields as
 * columns: its next publish adds the columns and fills them for the records it holds, so that the
 * record listings answer as the DuckDB store holding the same records does, on one server and on a
 * cluster. A server opening such a database brings it up to date itself, before its first answer.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, type TestContext, test } from 'node:test';
import { createApp } from '../../../src/server/app.js';
import { startServer } from '../../../src/server/index.js';
import { ingestJson, parseJsonRecords, recordRows } from '../../../src/server/ingest/json.js';
import { publishToClickHouse } from '../../../src/server/store/clickhouse-publish.js';
import { CLICKHOUSE_TABLES } from '../../../src/server/store/clickhouse-schema.js';
import { ClickHouseStore } from '../../../src/server/store/clickhouse-store.js';
import { upgradeClickHouseSchema } from '../../../src/server/store/clickhouse-upgrade.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import type { Store } from '../../../src/server/store/store.js';
import { startClickHouse } from '../../support/clickhouse.js';
import { hasShared, recordedDir } from '../../support/shared.js';

const article = (id: string, published: string, tickers: string[], title = id) => ({
  id,
  publisher: { name: 'P' },
  title,
  published_utc: published,
  article_url: `https://example.com/${id}`,
  tickers,
});

/** What the database held before. */
const OLD = {
  status: 'OK',
  results: [
    article('a1', '2023-01-05T10:00:00Z', ['AAPL', 'MSFT']),
    article('a2', '2023-01-06T09:30:00Z', ['SPY']),
    article('a3', '2022-12-31T23:59:00Z', ['AAPL']),
  ],
};
/** What the next ingest brings: one article anew, one replaced. */
const NEW = {
  status: 'OK',
  results: [
    article('a2', '2023-01-07T09:30:00Z', ['SPY', 'AAPL'], 'a2, corrected'),
    article('a4', '2023-02-01T12:00:00Z', ['AAPL']),
  ],
};

const NOW = Date.parse('2023-03-01T00:00:00Z');

const REQUESTS = [
  '/v2/reference/news',
  '/v2/reference/news?ticker=AAPL',
  '/v2/reference/news?published_utc.gte=2023-01-06&order=asc',
  '/v2/reference/news?ticker.lt=B',
];

async function answer(store: Store, path: string): Promise<unknown> {
  const app = createApp({ store, now: async () => NOW, log: () => {} });
  const res = await app.request(path, { headers: { Authorization: 'Bearer k' } });
  const body = (await res.json()) as Record<string, unknown>;
  delete body.request_id;
  return { status: res.status, body };
}

/** The table of reference records as mdq wrote it before it had the field columns, holding `files`' records. */
async function writeOldTable(
  store: ClickHouseStore,
  cluster: string | undefined,
  files: readonly { text: string; file: string }[] = [{ text: JSON.stringify(OLD), file: 'old.json' }],
): Promise<void> {
  const columns = 'kind String, id String, ticker Nullable(String), date Nullable(String), body String';
  const engine = 'ENGINE = MergeTree ORDER BY (kind, id)';
  if (cluster) {
    await store.run(`CREATE TABLE reference_records_local ON CLUSTER ${cluster} (${columns}) ${engine}`);
    await store.run(
      `CREATE TABLE reference_records ON CLUSTER ${cluster} AS reference_records_local
        ENGINE = Distributed(${cluster}, default, reference_records_local, cityHash64(kind, id))`,
    );
  } else {
    await store.run(`CREATE TABLE reference_records (${columns}) ${engine}`);
  }
  const rows = files.flatMap(({ text, file }) => recordRows(parseJsonRecords(text, file), file).records);
  const lines = rows.map(({ fields: _f, ...r }) => `${JSON.stringify(r)}\n`);
  await store.insert('reference_records', 'JSONEachRow', Readable.from(lines));
}

async function upgrade(t: TestContext, shards: number): Promise<void> {
  const servers = await startClickHouse(t, shards);
  if (!servers) return;
  const work = mkdtempSync(join(tmpdir(), 'mdq-ch-records-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const [oldFile, newFile] = [join(work, 'old.json'), join(work, 'new.json')];
  writeFileSync(oldFile, JSON.stringify(OLD));
  writeFileSync(newFile, JSON.stringify(NEW));

  const clickhouse = await ClickHouseStore.open(servers.urls[0] as string, {
    ...(servers.cluster !== undefined && { cluster: servers.cluster }),
  });
  t.after(() => clickhouse.close());
  await writeOldTable(clickhouse, servers.cluster);
  // The ingest of the new file, published.
  const staging = await DuckDbStore.open(join(work, 'staging.duckdb'));
  t.after(() => staging.close());
  await ingestJson(staging, [newFile]);
  await publishToClickHouse(staging, clickhouse);

  // What a DuckDB store given both files holds.
  const duck = await DuckDbStore.open(join(work, 'both.duckdb'));
  t.after(() => duck.close());
  await ingestJson(duck, [oldFile, newFile]);
  for (const path of REQUESTS)
    assert.deepEqual(await answer(clickhouse, path), await answer(duck, path), path);
  const aapl = (await answer(clickhouse, '/v2/reference/news?ticker=AAPL')) as { body: { count: number } };
  assert.equal(aapl.body.count, 4, 'the old articles are found by their ticker');

  // Publishing again changes nothing.
  await publishToClickHouse(staging, clickhouse);
  for (const path of REQUESTS)
    assert.deepEqual(await answer(clickhouse, path), await answer(duck, path), path);
}

describe('a ClickHouse database from before the record field columns', () => {
  test('one server: the next publish fills the columns of the records it holds', { timeout: 300_000 }, (t) =>
    upgrade(t, 1),
  );
  test('a cluster: the same, ON CLUSTER', { timeout: 300_000 }, (t) => upgrade(t, 2));

  test('mdq serve brings it up to date when it opens the store: the record routes answer as on DuckDB', {
    timeout: 300_000,
  }, async (t) => {
    if (!hasShared(t, recordedDir)) return;
    const servers = await startClickHouse(t);
    if (!servers) return;
    const work = mkdtempSync(join(tmpdir(), 'mdq-ch-records-'));
    t.after(() => rmSync(work, { recursive: true, force: true }));
    const ipos = join(work, 'ipos.json');
    writeFileSync(ipos, JSON.stringify({ status: 'OK', results: IPOS }));
    const files = [...RECORDED.map((f) => `${recordedDir}${f}`), ipos];

    // The tables an earlier mdq wrote: the same as now, but for the reference records' field columns.
    const clickhouse = await ClickHouseStore.open(servers.urls[0] as string);
    t.after(() => clickhouse.close());
    for (const table of CLICKHOUSE_TABLES) {
      if (table.name !== 'reference_records') await clickhouse.createTable(table, table.name);
    }
    await writeOldTable(
      clickhouse,
      undefined,
      files.map((file) => ({ text: readFileSync(file, 'utf8'), file })),
    );
    const duck = await DuckDbStore.open(join(work, 'store.duckdb'));
    t.after(() => duck.close());
    await ingestJson(duck, files);

    const server = await startServer({ store: servers.urls[0] as string, now: NOW, port: 0, log: () => {} });
    try {
      for (const path of RECORD_REQUESTS) {
        const res = await fetch(`${server.url}${path}`, { headers: { Authorization: 'Bearer k' } });
        const body = (await res.json()) as Record<string, unknown>;
        delete body.request_id;
        assert.deepEqual({ status: res.status, body }, await answer(duck, path), path);
      }
    } finally {
      await server.close();
    }
    // Up to date now: the next open changes nothing.
    assert.equal(await upgradeClickHouseSchema(clickhouse), false);
  });
});

/** Recorded answers of the service, as `mdq ingest json` loads them. */
const RECORDED = [
  'v3/reference/dividends.json',
  'v2/reference/news&ticker=NFLX.json',
  'vX/reference/financials.json',
];

const IPOS = [
  {
    ticker: 'NEWA',
    issuer_name: 'New A Corp',
    ipo_status: 'history',
    listing_date: '2021-03-04',
    us_code: '111111111',
  },
  {
    ticker: 'NEWB',
    issuer_name: 'Another B Inc',
    ipo_status: 'pending',
    listing_date: '2021-06-10',
    us_code: '222222222',
  },
];

/** Each record route, with the filters and sorts that read the field columns. */
const RECORD_REQUESTS = [
  '/v3/reference/dividends',
  '/v3/reference/dividends?cash_amount.gt=0.1&sort=pay_date&order=desc',
  '/stocks/v1/dividends?sort=ex_dividend_date.desc',
  '/v2/reference/news?ticker=NFLX',
  '/v2/reference/news?published_utc.gte=2020-01-01&order=asc',
  '/vX/reference/financials',
  '/vX/reference/financials?timeframe=quarterly&sort=filing_date',
  '/vX/reference/ipos',
  '/vX/reference/ipos?ipo_status=history&sort=issuer_name&order=asc',
  '/vX/reference/ipos?us_code=222222222',
];
