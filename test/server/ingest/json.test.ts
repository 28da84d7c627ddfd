/**
 * `ingestJson`: saved API responses (real recorded bodies from ../shared/reference) load into the store
 * atomically per file and idempotently, in any of the layouts the CLI writes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ingestJson } from '../../../src/server/ingest/json.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { hasShared, recordedDir } from '../../support/shared.js';

const DIVIDENDS = `${recordedDir}v3/reference/dividends.json`;
const NEWS = `${recordedDir}v2/reference/news&ticker=NFLX.json`;
const FINANCIALS = `${recordedDir}vX/reference/financials.json`;
const DETAILS = `${recordedDir}v3/reference/tickers/AAPL.json`;
const EVENTS = `${recordedDir}vX/reference/tickers/META/events&types=ticker_change.json`;
const SPLITS = `${recordedDir}v3/reference/splits.json`;

const resultsOf = (file: string) => JSON.parse(readFileSync(file, 'utf8')).results;

async function withStore(fn: (store: DuckDbStore, dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'mdq-json-'));
  const store = await DuckDbStore.open(join(dir, 'db.duckdb'));
  try {
    await fn(store, dir);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const count = async (store: DuckDbStore, kind: string) =>
  Number(
    (await store.all<{ n: bigint }>('SELECT count(*) AS n FROM reference_records WHERE kind = $1', [kind]))[0]
      ?.n,
  );

describe('mdq ingest json', () => {
  test('recorded responses of each kind load, the kind inferred from the content', async (t) => {
    if (!hasShared(t, DIVIDENDS)) return;
    await withStore(async (store) => {
      const summary = await ingestJson(store, [DIVIDENDS, NEWS, FINANCIALS, DETAILS, EVENTS, SPLITS]);
      assert.equal(summary.filesIngested, 6);
      assert.equal(await count(store, 'dividends'), resultsOf(DIVIDENDS).length);
      assert.equal(await count(store, 'news'), resultsOf(NEWS).length);
      assert.equal(await count(store, 'financials'), resultsOf(FINANCIALS).length);
      assert.equal(await count(store, 'ticker_details'), 1);
      assert.equal(await count(store, 'ticker_events'), 1);
      const splits = resultsOf(SPLITS) as { ticker: string; execution_date: string }[];
      assert.equal(summary.rows.splits, splits.length);
      const stored = await store.all<{ n: bigint }>('SELECT count(*) AS n FROM splits');
      assert.equal(Number(stored[0]?.n), new Set(splits.map((s) => `${s.ticker}|${s.execution_date}`)).size);
      assert.equal(
        summary.rows.reference_records,
        (await store.all('SELECT * FROM reference_records')).length,
      );
    });
  });

  test('the same records again, as the same file, as ndjson or as a list of pages, leave one copy', async (t) => {
    if (!hasShared(t, DIVIDENDS)) return;
    await withStore(async (store, dir) => {
      await ingestJson(store, [DIVIDENDS]);
      const n = await count(store, 'dividends');
      const again = await ingestJson(store, [DIVIDENDS]);
      assert.equal(again.filesSkipped, 1);
      const records = resultsOf(DIVIDENDS) as object[];
      const ndjson = join(dir, 'dividends.ndjson');
      writeFileSync(ndjson, records.map((r) => JSON.stringify(r)).join('\n'));
      const pages = join(dir, 'pages.json');
      const half = Math.ceil(records.length / 2);
      writeFileSync(
        pages,
        JSON.stringify([{ results: records.slice(0, half) }, { status: 'OK', results: records.slice(half) }]),
      );
      const more = await ingestJson(store, [ndjson, pages]);
      assert.equal(more.filesIngested, 2);
      assert.equal(more.rows.reference_records, records.length * 2);
      assert.equal(await count(store, 'dividends'), n);
    });
  });

  test('a file with a record of no known kind is refused whole, naming --kind', async (t) => {
    if (!hasShared(t, DIVIDENDS)) return;
    await withStore(async (store, dir) => {
      const mixed = join(dir, 'mixed.ndjson');
      const [first] = resultsOf(DIVIDENDS) as object[];
      writeFileSync(mixed, `${JSON.stringify(first)}\n${JSON.stringify({ foo: 1 })}\n`);
      await assert.rejects(ingestJson(store, [mixed]), (e: Error) => {
        assert.match(e.message, /mixed\.ndjson/);
        assert.match(e.message, /--kind/);
        assert.match(e.message, /foo/);
        return true;
      });
      assert.equal((await store.all('SELECT * FROM reference_records')).length, 0, 'nothing of the file');
      const summary = await ingestJson(store, [mixed, DIVIDENDS], { continueOnError: true });
      assert.equal(summary.filesFailed, 1);
      assert.equal(summary.filesIngested, 1);
    });
  });

  test('--kind refuses a file whose records lack the fields of that kind, naming file, record and fields', async (t) => {
    if (!hasShared(t, NEWS)) return;
    await withStore(async (store, dir) => {
      await assert.rejects(ingestJson(store, [NEWS], { kind: 'dividends' }), (e: Error) => {
        assert.match(e.message, /news&ticker=NFLX\.json/);
        assert.match(e.message, /record 1 of 1/);
        assert.match(e.message, /lacks ticker, cash_amount/);
        assert.match(e.message, /dividends record needs/);
        return true;
      });
      const mixed = join(dir, 'mixed.ndjson');
      const [first] = resultsOf(DIVIDENDS) as object[];
      writeFileSync(mixed, `${JSON.stringify(first)}\n${JSON.stringify({ foo: 1 })}\n`);
      await assert.rejects(
        ingestJson(store, [mixed], { kind: 'dividends' }),
        /mixed\.ndjson: record 2 of 2 \(fields foo\)/,
      );
      assert.equal((await store.all('SELECT * FROM reference_records')).length, 0, 'nothing of either file');
      assert.equal((await store.all('SELECT * FROM ingested_files')).length, 0);
    });
  });

  test('content already stored is refused, not skipped, when given as a kind its records are not', async (t) => {
    if (!hasShared(t, NEWS)) return;
    await withStore(async (store) => {
      assert.equal((await ingestJson(store, [NEWS])).filesIngested, 1);
      await assert.rejects(ingestJson(store, [NEWS], { kind: 'dividends' }), (e: Error) => {
        assert.match(e.message, /news&ticker=NFLX\.json: record 1 of 1 .*lacks ticker, cash_amount/);
        return true;
      });
      assert.equal((await ingestJson(store, [NEWS], { kind: 'news' })).filesSkipped, 1);
      assert.equal(await count(store, 'dividends'), 0);
    });
  });

  test('--kind loads records of that kind with fields beyond those it needs, kept in the body', async () => {
    await withStore(async (store, dir) => {
      // Neither article_url nor publisher: the kind cannot be told from the fields, --kind tells it.
      const item = { title: 'Note', published_utc: '2024-01-02T10:00:00Z', tickers: ['A'], house_note: 7 };
      const file = join(dir, 'notes.ndjson');
      writeFileSync(file, `${JSON.stringify(item)}\n`);
      await assert.rejects(ingestJson(store, [file]), /--kind/);
      const loaded = await ingestJson(store, [file], { kind: 'news' });
      assert.equal(loaded.rows.reference_records, 1);
      const [row] = await store.all<{ ticker: string; body: string }>(
        "SELECT ticker, body FROM reference_records WHERE kind = 'news'",
      );
      assert.equal(row?.ticker, 'A');
      assert.deepEqual(JSON.parse(row?.body ?? '{}'), item);
    });
  });

  test('a file that is not JSON names its line', async () => {
    await withStore(async (store, dir) => {
      const bad = join(dir, 'bad.json');
      writeFileSync(bad, '{"ticker": "A", "cash_amount": 1, "ex_dividend_date": "2024-01-02"}\n{oops\n');
      await assert.rejects(ingestJson(store, [bad]), /bad\.json:2/);
    });
  });

  test('a response whose results hold something other than records is refused, none of it stored', async () => {
    await withStore(async (store, dir) => {
      const bad = join(dir, 'bad.json');
      const dividend = { ticker: 'A', cash_amount: 1, ex_dividend_date: '2024-01-02', id: 'E1' };
      writeFileSync(bad, JSON.stringify({ status: 'OK', results: [dividend, null, 7] }));
      await assert.rejects(
        ingestJson(store, [bad]),
        /bad\.json: holds results\[1\] = null, not a JSON object/,
      );
      assert.equal(await count(store, 'dividends'), 0);
      const summary = await ingestJson(store, [bad], { continueOnError: true });
      assert.deepEqual([summary.filesIngested, summary.filesFailed], [0, 1]);
    });
  });

  test('a page of the tickers listing fills the tickers table with every field; one without market and locale is refused', async (t) => {
    const listing = `${recordedDir}v3/reference/tickers.json`;
    if (!hasShared(t, listing)) return;
    await withStore(async (store, dir) => {
      const summary = await ingestJson(store, [listing]);
      const records = resultsOf(listing) as Record<string, string>[];
      assert.equal(summary.rows.tickers, records.length);
      assert.equal(await count(store, 'ticker_details'), 0, 'listed records are not ticker details');
      const rows = await store.all<Record<string, unknown>>(
        `SELECT ticker, name, market, locale, primary_exchange, type, active, currency_name, cik,
            composite_figi, share_class_figi, strftime(last_updated_utc, '%Y-%m-%dT%H:%M:%SZ') AS last_updated_utc
          FROM tickers ORDER BY ticker`,
      );
      assert.deepEqual(rows, records);
      const bad = join(dir, 'bad.json');
      writeFileSync(
        bad,
        JSON.stringify({ status: 'OK', results: [{ ticker: 'ZZ', name: 'Z', locale: 'us' }] }),
      );
      await assert.rejects(
        ingestJson(store, [bad], { kind: 'tickers' }),
        /bad\.json: record 1 of 1 \(fields ticker, name, locale\) lacks market; a tickers record needs ticker, market, locale/,
      );
      assert.equal((await store.all("SELECT 1 FROM tickers WHERE ticker = 'ZZ'")).length, 0);
    });
  });
});
