/**
 * The fields of reference records that listings filter and sort on are columns of `reference_records`:
 * `mdq ingest json` writes them, and a store of schema version 4 (records without those columns) gets
 * the same values from its stored records when it is opened and migrated.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import {
  type Found,
  parseJsonRecords,
  recordRows,
  writeRecordRows,
} from '../../../src/server/ingest/json.js';
import { RECORD_FIELD_COLUMNS } from '../../../src/server/ingest/record-fields.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { MIGRATIONS } from '../../../src/server/store/schema.js';
import { hasShared, recordedDir } from '../../support/shared.js';

const RECORDED = [
  'v3/reference/dividends.json',
  'v2/reference/news&ticker=NFLX.json',
  'vX/reference/financials.json',
];

/** Records whose fields are given in every way the service or a saved file may give them. */
const ODD: Found[] = [
  // Amount and frequency as text; a type implied by the distribution type.
  {
    kind: 'dividends',
    record: { ticker: 'A', cash_amount: '0.25', frequency: '12', distribution_type: 'special' },
  },
  // Types implied by the frequency; dates absent or null; an amount that is no number.
  { kind: 'dividends', record: { ticker: 'B', cash_amount: 'n/a', frequency: 0, pay_date: null } },
  { kind: 'dividends', record: { ticker: 'C', cash_amount: 1e-7, frequency: 4, dividend_type: 'LT' } },
  {
    kind: 'dividends',
    record: { ticker: 'D', cash_amount: 2, ex_dividend_date: '2024-01-02', dividend_type: 'CD' },
  },
  // Ticker lists: several, empty, with a null, absent; numbers as text fields.
  { kind: 'news', record: { id: 'n1', tickers: ['X', 'Y'], published_utc: '2024-01-02T03:04:05Z' } },
  { kind: 'news', record: { id: 'n2', tickers: [], published_utc: '2024-01-03T00:00:00Z' } },
  { kind: 'news', record: { id: 'n3', tickers: ['Z', null], published_utc: '2024-01-04T00:00:00Z' } },
  { kind: 'financials', record: { cik: 320193, sic: '3571', company_name: 'Ä Corp', financials: {} } },
  {
    kind: 'ipos',
    record: { ticker: 'I', issuer_name: 'I Inc', us_code: '1', isin: 'US1', ipo_status: 'new' },
  },
];

/** Every record row, fields included, in key order. */
const rowsOf = (store: DuckDbStore) =>
  store.all(
    `SELECT kind, id, ticker, date, ${RECORD_FIELD_COLUMNS.join(', ')} FROM reference_records ORDER BY kind, id`,
  );

describe('reference record fields', () => {
  test('a store of schema version 4 gets the columns ingest writes, from its stored records', async (t) => {
    if (!hasShared(t, recordedDir)) return;
    const found = [
      ...RECORDED.flatMap((f) => parseJsonRecords(readFileSync(`${recordedDir}${f}`, 'utf8'), f)),
      ...ODD,
    ];
    const rows = recordRows(found, 'records');
    const dir = mkdtempSync(join(tmpdir(), 'mdq-record-fields-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));

    // A store as mdq of schema version 4 left it.
    const old = join(dir, 'v4.duckdb');
    const instance = await DuckDBInstance.create(old);
    const conn = await instance.connect();
    for (const m of MIGRATIONS.slice(0, 4)) await conn.run(m);
    await conn.run("INSERT INTO meta VALUES ('schema_version', '4')");
    for (const r of rows.records) {
      await conn.run('INSERT INTO reference_records VALUES ($1, $2, $3, $4, $5)', [
        r.kind,
        r.id,
        r.ticker,
        r.date,
        r.body,
      ]);
    }
    conn.closeSync();
    instance.closeSync();
    const migrated = await DuckDbStore.open(old);
    t.after(() => migrated.close());

    const fresh = await DuckDbStore.open(join(dir, 'fresh.duckdb'));
    t.after(() => fresh.close());
    await fresh.transaction(() => writeRecordRows(fresh, rows));

    const expected = await rowsOf(fresh);
    assert.equal(expected.length, rows.records.length);
    assert.deepEqual(await rowsOf(migrated), expected);
    // The values themselves, where the record gives them in an unusual form.
    const byTicker = new Map(expected.map((r) => [r.ticker, r]));
    assert.deepEqual(
      ['A', 'B', 'C', 'D'].map((x) => {
        const r = byTicker.get(x) as Record<string, unknown>;
        return [r.cash_amount, r.frequency, r.dividend_type, r.distribution_type];
      }),
      [
        [0.25, 12, 'SC', 'special'],
        [null, 0, 'CD', 'irregular'],
        [1e-7, 4, 'LT', 'special'],
        [2, null, 'CD', 'irregular'],
      ],
    );
    const lists = expected
      .filter((r) => r.kind === 'news' && /^n\d$/.test(String(r.id)))
      .map((r) => [r.id, (r.tickers as { items: unknown[] } | null)?.items ?? null]);
    assert.deepEqual(lists, [
      ['n1', ['X', 'Y']],
      ['n2', null],
      ['n3', ['Z']],
    ]);
  });
});
