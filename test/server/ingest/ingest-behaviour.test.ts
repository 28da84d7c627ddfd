import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { isIngestError } from '../../../src/server/ingest/ingest-error.js';
import { ingestLean } from '../../../src/server/ingest/lean.js';
import type { IngestProgress } from '../../../src/server/ingest/run-jobs.js';
import type { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { hasShared, leanDir } from '../../support/shared.js';
import { leanSubset, n, tempStore } from './helpers.js';

/** Writes a Lean-style zip with one entry under `root`. */
function writeZip(root: string, path: string, entry: string, text: string): string {
  const full = join(root, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, zipSync({ [entry]: strToU8(text) }));
  return full;
}

async function tableCounts(store: DuckDbStore): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of [
    'trades',
    'quotes',
    'bars',
    'quote_bars',
    'open_interest',
    'splits',
    'ticker_history',
    'tickers',
    'option_contracts',
    'ingested_files',
  ]) {
    const [row] = await store.all<{ n: bigint }>(`SELECT count(*) AS n FROM ${table}`);
    out[table] = n(row?.n);
  }
  return out;
}

describe('ingest behaviour', () => {
  let store: DuckDbStore;
  let root: string;
  const cleanups: (() => void)[] = [];

  beforeEach(async () => {
    const temp = await tempStore();
    store = temp.store;
    root = mkdtempSync(join(tmpdir(), 'mdq-lean-synthetic-'));
    cleanups.push(temp.cleanup, () => rmSync(root, { recursive: true, force: true }));
  });
  afterEach(() => {
    for (const c of cleanups.splice(0).reverse()) c();
  });

  it('re-ingesting the same folder changes nothing', async (t) => {
    if (!hasShared(t, leanDir)) return;
    const subset = leanSubset([
      'equity/usa/minute/ibm/20131008_trade.zip',
      'equity/usa/tick/ibm/20131011_trade.zip',
      'equity/usa/factor_files/aapl.csv',
      'option/usa/minute/twx/20140605_openinterest_american.zip',
    ]);
    cleanups.push(subset.cleanup);
    const first = await ingestLean(store, subset.dir);
    assert.equal(first.filesIngested, 4);
    const before = await tableCounts(store);
    const second = await ingestLean(store, subset.dir);
    assert.deepEqual([second.filesIngested, second.filesSkipped], [0, 4]);
    assert.ok(Object.values(second.rows).every((v) => v === 0));
    assert.deepEqual(await tableCounts(store), before);
    assert.equal(before.ingested_files, 4);
  });

  it('a malformed row aborts its file with file!entry:line and leaves nothing of it', async () => {
    const good = writeZip(
      root,
      'equity/usa/minute/abc/20131008_trade.zip',
      '20131008_abc_minute_trade.csv',
      '34200000,1000000,1010000,990000,1005000,100\n34260000,1005000,1005000,1005000,1005000,50\n',
    );
    const bad = writeZip(
      root,
      'equity/usa/minute/xyz/20131008_trade.zip',
      '20131008_xyz_minute_trade.csv',
      '34200000,1000000,1010000,990000,1005000,100\r\n34260000,1005000,1005000,1005000,1005000,50\r\n34320000,1005000,oops,1005000,1005000,50\r\n34380000,1005000,1005000,1005000,1005000,50',
    );
    await assert.rejects(ingestLean(store, root), (e: unknown) => {
      assert.ok(isIngestError(e));
      assert.equal(e.file, bad);
      assert.equal(e.entry, '20131008_xyz_minute_trade.csv');
      assert.equal(e.line, 3);
      assert.match(
        e.message,
        /xyz\/20131008_trade\.zip!20131008_xyz_minute_trade\.csv:3: high \(column 3\) is not a number: "oops"/,
      );
      return true;
    });
    const bars = await store.all<{ ticker: string; n: bigint }>(
      'SELECT ticker, count(*) AS n FROM bars GROUP BY ticker',
    );
    assert.deepEqual(
      bars.map((b) => [b.ticker, n(b.n)]),
      [['ABC', 2]],
      'the good file before it landed whole',
    );
    const files = await store.all<{ path: string }>('SELECT path FROM ingested_files');
    assert.deepEqual(
      files.map((f) => f.path),
      [good],
    );
    assert.deepEqual(await store.all("SELECT ticker FROM tickers WHERE ticker = 'XYZ'"), []);
  });

  it('tick files: a bad value, a short row or a bad condition mask is reported at its line', async () => {
    const good = '14400464,1674100,100,P,20002000,0\n14400465,1674100,1400,P,1,0\n';
    const cases: [string, string, RegExp][] = [
      ['aaa', `${good}14400466,16741x0,100,P,1,0\n`, /:3: price is not a number: "16741x0"$/],
      ['bbb', `${good}14400466,1674100,100\n14400467,1674100,100,P,1,0`, /:3: expected 6 columns, found 3/],
      ['ccc', `${good}${good}14400466,1674100,100,P,2000z,0`, /:5: condition is not a hexadecimal mask/],
      ['ddd', `${good}\n${good}`, /:3: empty line/],
    ];
    for (const [name, text, expected] of cases) {
      const path = writeZip(
        root,
        `equity/usa/tick/${name}/20131007_trade.zip`,
        `20131007_${name}_Trade_Tick.csv`,
        text,
      );
      await assert.rejects(ingestLean(store, root), (e: unknown) => {
        assert.ok(isIngestError(e), String(e));
        assert.equal(e.file, path);
        assert.match(e.message, expected);
        return true;
      });
      rmSync(join(root, 'equity'), { recursive: true });
    }
    assert.deepEqual(await tableCounts(store), {
      ...(await tableCounts(store)),
      trades: 0,
      ingested_files: 0,
      tickers: 0,
    });
  });

  it('a folder that does not exist is an IngestError', async () => {
    await assert.rejects(ingestLean(store, join(root, 'missing')), (e: unknown) => {
      assert.ok(isIngestError(e));
      assert.match(e.message, /missing: is not a folder/);
      return true;
    });
  });

  it('with continueOnError the run goes on and lists the failure', async () => {
    writeZip(
      root,
      'equity/usa/minute/xyz/20131008_trade.zip',
      '20131008_xyz_minute_trade.csv',
      '34200000,1,2,3\n',
    );
    writeZip(
      root,
      'equity/usa/minute/zzz/20131008_trade.zip',
      '20131008_zzz_minute_trade.csv',
      '34200000,1000000,1010000,990000,1005000,100',
    );
    mkdirSync(join(root, 'equity/usa/minute/bad'), { recursive: true });
    writeFileSync(join(root, 'equity/usa/minute/bad/20131008_trade.zip'), 'not a zip at all');
    writeFileSync(join(root, 'readme.md'), 'not data');
    const summary = await ingestLean(store, root, { continueOnError: true });
    assert.deepEqual([summary.filesSeen, summary.filesIngested, summary.filesFailed], [3, 1, 2]);
    assert.deepEqual(summary.unrecognised, [join(root, 'readme.md')]);
    const messages = summary.errors.map((e) => e.message).sort();
    assert.match(messages[0] as string, /bad\/20131008_trade\.zip: not a readable zip archive/);
    assert.match(
      messages[1] as string,
      /xyz\/20131008_trade\.zip!20131008_xyz_minute_trade\.csv:1: expected 6 columns, found 4/,
    );
    assert.equal(summary.rows.bars, 1);
  });

  it('changed content for the same bars replaces them instead of adding rows', async () => {
    const path = 'equity/usa/minute/abc/20131008_trade.zip';
    const entry = '20131008_abc_minute_trade.csv';
    writeZip(root, path, entry, '34200000,1000000,1010000,990000,1005000,100\n');
    await ingestLean(store, root);
    writeZip(root, path, entry, '34200000,1000000,1010000,990000,1007000,120\n34260000,1,1,1,1,1\n');
    const summary = await ingestLean(store, root);
    assert.equal(summary.filesIngested, 1);
    const rows = await store.all<{ c: number; v: number }>(
      "SELECT c, v FROM bars WHERE ticker = 'ABC' ORDER BY t",
    );
    assert.deepEqual(
      rows.map((r) => [r.c, r.v]),
      [
        [100.7, 120],
        [0.0001, 1],
      ],
    );
  });

  it('reports progress per file and stops between files when aborted', async () => {
    for (const name of ['aaa', 'bbb', 'ccc']) {
      writeZip(
        root,
        `equity/usa/minute/${name}/20131008_trade.zip`,
        `20131008_${name}_minute_trade.csv`,
        '34200000,1000000,1010000,990000,1005000,100',
      );
    }
    const seen: IngestProgress[] = [];
    const controller = new AbortController();
    await assert.rejects(
      ingestLean(store, root, {
        signal: controller.signal,
        onProgress: (p) => {
          seen.push(p);
          if (p.filesDone === 2) controller.abort();
        },
      }),
      { name: 'AbortError' },
    );
    // Each file adds one bar and one new ticker.
    assert.deepEqual(
      seen.map((p) => [p.filesDone, p.filesTotal, p.rows]),
      [
        [1, 3, 2],
        [2, 3, 4],
      ],
    );
    const [count] = await store.all<{ n: bigint }>('SELECT count(*) AS n FROM ingested_files');
    assert.equal(n(count?.n), 2);
  });

  it('an entry named for another ticker or day than its file is refused, naming the zip and the entry; --continue-on-error passes over it', async () => {
    const bar = '34200000,1000000,1010000,990000,1005000,100\n';
    const tick = '14400464,1674100,100,P,20002000,0\n';
    const option = '34200000,21500,21500,21500,21500,3\n';
    const files: [path: string, entries: Record<string, string>, named: RegExp][] = [
      [
        'equity/usa/minute/aapl/20131008_trade.zip',
        { '20131008_msft_minute_trade.csv': bar },
        /named for MSFT, but the file's path is AAPL's \(its entries are named 20131008_aapl…\)/,
      ],
      [
        'equity/usa/minute/ibm/20131008_trade.zip',
        { '20131007_ibm_minute_trade.csv': bar },
        /named for 20131007, but the file's path is of 20131008/,
      ],
      [
        'equity/usa/daily/aapl.zip',
        { 'msft.csv': '20131008 00:00,1000000,1010000,990000,1005000,100' },
        /named for MSFT/,
      ],
      ['equity/usa/tick/aapl/20131007_trade.zip', { '20131007_msft_Trade_Tick.csv': tick }, /named for MSFT/],
      [
        'forex/oanda/minute/eurusd/20131007_quote.zip',
        { '20131007_gbpusd_minute_quote.csv': '0,1,1,1,1,0,1,1,1,1,0' },
        /named for GBPUSD, but the file's path is EURUSD's/,
      ],
      [
        'option/usa/minute/spy/20230803_trade_american.zip',
        {
          '20230803_spy_minute_trade_american_call_4300000_20230901.csv': option,
          '20230803_qqq_minute_trade_american_call_3600000_20230901.csv': option,
        },
        /!20230803_qqq_minute_trade_american_call_3600000_20230901\.csv: the entry is named for QQQ, but the file's path is SPY's/,
      ],
      [
        'future/cme/minute/es/20131007_trade.zip',
        {
          '20131007_es_minute_trade_201312.csv': '0,1,1,1,1,1\n',
          '20131007_gc_minute_trade_201312.csv': '0,1,1,1,1,1\n',
        },
        /!20131007_gc_minute_trade_201312\.csv: the entry is named for GC, but the file's path is ES's/,
      ],
      [
        'equity/usa/minute/abc/20131008_trade.zip',
        { 'bars.csv': bar },
        /does not begin with the file's date and ticker \(20131008_abc_…\)/,
      ],
    ];
    const paths = files.map(([path, entries]) => {
      const full = join(root, path);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(
        full,
        zipSync(Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, strToU8(v)]))),
      );
      return full;
    });
    // Entries named as their files, the case aside, are stored under the path's ticker.
    writeZip(root, 'equity/usa/minute/xyz/20131008_trade.zip', '20131008_XYZ_minute_trade.csv', bar);
    writeZip(
      root,
      'equity/usa/daily/xyz.zip',
      'xyz.csv',
      '20131008 00:00,1000000,1010000,990000,1005000,100',
    );

    // Without --continue-on-error the first such file (in the walk's order) ends the run.
    await assert.rejects(ingestLean(store, root), (e: unknown) => {
      assert.ok(isIngestError(e), String(e));
      const i = paths.indexOf(e.file);
      assert.ok(i >= 0, e.message);
      assert.ok(Object.keys(files[i]?.[1] ?? {}).includes(e.entry as string), e.message);
      assert.match(e.message, files[i]?.[2] as RegExp);
      return true;
    });
    const summary = await ingestLean(store, root, { continueOnError: true });
    assert.deepEqual([summary.filesIngested, summary.filesFailed], [2, files.length]);
    files.forEach(([, entries, named], i) => {
      const error = summary.errors.find((e) => e.file === paths[i]);
      assert.ok(error, `${paths[i]} is listed`);
      assert.ok(Object.keys(entries).includes(error.entry as string), error.message);
      assert.match(error.message, named);
    });
    assert.match(
      summary.errors.find((e) => e.file === paths[0])?.message ?? '',
      /aapl\/20131008_trade\.zip!20131008_msft_minute_trade\.csv: the entry is named for MSFT/,
    );
    const stored = await store.all<{ ticker: string }>('SELECT DISTINCT ticker FROM bars ORDER BY ticker');
    assert.deepEqual(
      stored.map((r) => r.ticker),
      ['XYZ'],
      'nothing of a refused file under either ticker',
    );
    assert.equal(n((await store.all<{ n: bigint }>('SELECT count(*) AS n FROM trades'))[0]?.n), 0);
  });
});
