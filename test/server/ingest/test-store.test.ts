import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { unzipSync } from 'fflate';
import { isFuturesSql } from '../../../src/server/market/futures-tickers.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { hasShared, leanDir, marketDataDir, sharedDir } from '../../support/shared.js';
import { openTestStore, testStorePath } from '../../support/store.js';
import { n } from './helpers.js';

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, out);
    else out.push(p);
  }
  return out;
}

/** Non-empty lines of every entry of a zip, counted from the raw bytes. */
function zipLines(path: string): number {
  let count = 0;
  for (const data of Object.values(unzipSync(readFileSync(path)))) {
    let lines = 0;
    for (let i = 0; i < data.length; i++) if (data[i] === 10) lines++;
    // A last line without a final newline still counts.
    if (data.length > 0 && data[data.length - 1] !== 10) lines++;
    count += lines;
  }
  return count;
}

/** The futures Lean root, ingested into the test store beside the market-data folder. */
const futuresDir = join(sharedDir, 'marketdata-futures');

describe('the prepared test store (whole market-data folder)', () => {
  let store: DuckDbStore | undefined;
  before(async () => {
    if (existsSync(testStorePath)) store = await DuckDbStore.open(testStorePath, { readOnly: true });
  });
  after(() => store?.close());

  /** The store, or undefined after skipping the test (no market data, or the store was not built). */
  async function ready(t: TestContext): Promise<DuckDbStore | undefined> {
    if (!hasShared(t, marketDataDir)) return undefined;
    if (!store) {
      // Skips with the reason (fails under CI).
      (await openTestStore(t))?.close();
      return undefined;
    }
    return store;
  }

  it('holds every file of the folder once', async (t) => {
    const store = await ready(t);
    if (!store) return;
    const all = files(marketDataDir).filter((p) => !p.endsWith('.md'));
    const [row] = await store.all<{ n: bigint }>(
      'SELECT count(*) AS n FROM ingested_files WHERE starts_with(path, ?)',
      [marketDataDir],
    );
    assert.equal(n(row?.n), all.length);
    if (!existsSync(futuresDir)) return;
    // The futures root: its zips, but for the tick folder's open interest (not read).
    const futures = files(futuresDir).filter(
      (p) => p.endsWith('.zip') && !/tick.*_openinterest\.zip$/.test(p),
    );
    const [fut] = await store.all<{ n: bigint }>(
      'SELECT count(*) AS n FROM ingested_files WHERE starts_with(path, ?)',
      [`${futuresDir}/`],
    );
    assert.equal(n(fut?.n), futures.length);
  });

  it('has one trade per raw tick row, per ticker', async (t) => {
    const store = await ready(t);
    if (!store) return;
    const tickDir = join(leanDir, 'equity/usa/tick');
    const expected = new Map<string, number>();
    for (const path of files(tickDir).filter((p) => p.endsWith('_trade.zip'))) {
      const ticker = (relative(tickDir, path).split('/')[0] as string).toUpperCase();
      expected.set(ticker, (expected.get(ticker) ?? 0) + zipLines(path));
    }
    const rows = await store.all<{ ticker: string; n: bigint }>(
      `SELECT ticker, count(*) AS n FROM trades WHERE ticker NOT LIKE '%:%' AND NOT ${isFuturesSql(store.dialect)}
       GROUP BY ticker ORDER BY ticker`,
    );
    assert.deepEqual(
      rows.map((r) => [r.ticker, n(r.n)]),
      [...expected].sort(([a], [b]) => (a < b ? -1 : 1)),
    );
    assert.equal(expected.get('SPY'), 1_887_460, 'DATA.md: 1,887,460 SPY trades');
  });

  it('has no two bars with one key and the AAPL splits', async (t) => {
    const store = await ready(t);
    if (!store) return;
    const [dupes] = await store.all<{ n: bigint }>(
      'SELECT count(*) AS n FROM (SELECT ticker, resolution, t FROM bars GROUP BY ALL HAVING count(*) > 1)',
    );
    assert.equal(n(dupes?.n), 0);
    const splits = await store.all<{ d: string; f: number; to: number }>(
      "SELECT strftime(execution_date, '%Y-%m-%d') AS d, split_from AS f, split_to AS to FROM splits WHERE ticker = 'AAPL' AND execution_date >= DATE '2014-01-01' ORDER BY d",
    );
    assert.deepEqual(splits, [
      { d: '2014-06-09', f: 1, to: 7 },
      { d: '2020-08-31', f: 1, to: 4 },
    ]);
  });
});
