import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, type TestContext, test } from 'node:test';
import { restClient } from '@massive.com/client-js';
import { type Ipo, ReferenceClient } from '../../../src/index.js';
import { type ServerThread, startServerThread } from '../../../src/server/index.js';
import { ingestJson } from '../../../src/server/ingest/json.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { hasShared, referenceDir } from '../../support/shared.js';
import { allPages, get } from '../../support/upstream-rig.js';

/**
 * The v1 IPOs listing (`/v1/reference/ipos`) of `mdq serve`, over IPO records `mdq ingest json` stored
 * in a real DuckDB, asked over loopback HTTP by the official client and by mdq's own: every filter and
 * the multi-column sort against what the records themselves say, paging by `next_url`, the records of
 * the vX route for the same filters, and bad input refused with a 400 in the API's error shape.
 */

const OPENAPI = `${referenceDir}openapi.json`;
const NOW = Date.UTC(2024, 6, 1, 15);

/** Records: 12 listing days of 5 offerings each, so that sorts and pages meet ties. */
const COUNT = 60;
const STATUSES = ['history', 'pending', 'new', 'withdrawn', 'rumor'];

type Json = Record<string, unknown>;

/** A ticker of letters for `i` (AAA, AAB, ...). */
const tickerOf = (i: number) =>
  `A${String.fromCharCode(65 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`;

/**
 * The specification's example record, varied: ticker, US code and ISIN each in another order, status,
 * listing date (five a day), a price crossing a digit (sorted as a number, not as text) and issuer.
 */
function ipoRecords(): Json[] {
  const spec = JSON.parse(readFileSync(OPENAPI, 'utf8'));
  const [example] = spec.paths['/v1/reference/ipos'].get.responses['200'].content['application/json'].example
    .results as Json[];
  return Array.from({ length: COUNT }, (_, i) => {
    const usCode = `${String((i * 7) % COUNT).padStart(2, '0')}383L10${i % 10}`;
    return {
      ...example,
      ticker: tickerOf(i),
      us_code: usCode,
      isin: `US${String((i * 11) % COUNT).padStart(2, '0')}${usCode.slice(2)}0`,
      ipo_status: STATUSES[i % STATUSES.length],
      listing_date: new Date(Date.UTC(2024, 5, 7) - (i % 12) * 86_400_000).toISOString().slice(0, 10),
      final_issue_price: 5 + ((i * 11) % 17),
      issuer_name: `Issuer ${(i * 37) % COUNT} Inc.`,
    };
  });
}

let records: Json[] = [];
let server: ServerThread | undefined;
let dir: string | undefined;

/** Every record of `path` over its pages (`limit` as the path says). */
async function walk(path: string): Promise<Json[]> {
  const pages = await allPages(server!.url, path);
  for (const p of pages) assert.equal(p.status, 200, `${path}: ${p.text.slice(0, 300)}`);
  return pages.flatMap((p) => p.body.results as Json[]);
}

const tickers = (rows: readonly Json[]) => rows.map((r) => r.ticker as string);

/** `a` before `b` by the sort `items` (`column.asc|desc`, a column alone descending). */
function comparator(sort: string): (a: Json, b: Json) => number {
  const keys = sort.split(',').map((item) => {
    const [column, dir] = item.split('.') as [string, string | undefined];
    return { column, desc: (dir ?? 'desc') === 'desc' };
  });
  return (a, b) => {
    for (const { column, desc } of keys) {
      const x = a[column] as string | number;
      const y = b[column] as string | number;
      if (x !== y) return (x < y ? -1 : 1) * (desc ? -1 : 1);
    }
    return 0;
  };
}

describe('/v1/reference/ipos over stored records', () => {
  before(async () => {
    if (!existsSync(OPENAPI)) return;
    records = ipoRecords();
    dir = mkdtempSync(join(tmpdir(), 'mdq-ipos-'));
    const file = join(dir, 'ipos.json');
    writeFileSync(file, JSON.stringify({ results: records, status: 'OK' }));
    const db = join(dir, 'db.duckdb');
    const store = await DuckDbStore.open(db);
    try {
      const ingested = await ingestJson(store, [file]);
      assert.equal(ingested.rows.reference_records, COUNT);
    } finally {
      store.close();
    }
    // On its own thread: the sync client blocks this one while it waits.
    server = await startServerThread({ db, port: 0, log: () => {}, now: NOW });
  });
  after(async () => {
    await server?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  /** Whether the records are there; else the test is skipped with the reason (a failure under CI). */
  const ready = (t: TestContext) => hasShared(t, OPENAPI) && server !== undefined;

  test("the official client's v1 call gets the records of the vX route for the same filters", async (t) => {
    if (!ready(t)) return;
    const api = restClient('any-key', server!.url);
    const filters = [
      {},
      { ipoStatus: 'history' },
      { ticker: 'AAC' },
      { listingDateGte: '2024-06-01', listingDateLt: '2024-06-05' },
      { usCode: records[3]?.us_code as string },
    ] as const;
    for (const f of filters) {
      const v1 = await api.getV1ReferenceIpos({ ...(f as object), limit: 1000 });
      const vx = await api.listIPOs({ ...(f as object), limit: 1000 });
      assert.equal(v1.status, 'OK');
      assert.ok((v1.results?.length ?? 0) > 0, JSON.stringify(f));
      assert.deepEqual(v1.results, vx.results, JSON.stringify(f));
    }
    const all = await api.getV1ReferenceIpos({ limit: 1000 });
    assert.deepEqual(
      all.results?.map((r) => r.ticker).sort(),
      tickers(records).sort(),
      'every record, newest listing first',
    );
    const someOf = await api.getV1ReferenceIpos({
      tickerAnyOf: 'AAB,ABB,ABC,ZZZ',
      ipoStatusAnyOf: 'pending,new' as never,
      sort: 'ticker.desc',
    });
    const picked = records.filter(
      (r) =>
        ['AAB', 'ABB', 'ABC'].includes(r.ticker as string) &&
        ['pending', 'new'].includes(r.ipo_status as string),
    );
    assert.ok(picked.length > 0 && picked.length < 3);
    assert.deepEqual(
      someOf.results?.map((r) => r.ticker),
      tickers(picked).sort().reverse(),
    );
  });

  test('each filter keeps exactly the records it names', async (t) => {
    if (!ready(t)) return;
    const r = (i: number) => records[i] as Json;
    const day = r(4).listing_date as string;
    const cases: [string, (x: Json) => boolean][] = [
      ['ticker=AAC', (x) => x.ticker === 'AAC'],
      ['ticker.any_of=AAC,ABD,ZZZ', (x) => ['AAC', 'ABD'].includes(x.ticker as string)],
      ['ticker.gt=ABA', (x) => (x.ticker as string) > 'ABA'],
      ['ticker.gte=ABA', (x) => (x.ticker as string) >= 'ABA'],
      ['ticker.lt=AAK', (x) => (x.ticker as string) < 'AAK'],
      ['ticker.lte=AAK', (x) => (x.ticker as string) <= 'AAK'],
      [`us_code=${r(5).us_code}`, (x) => x.us_code === r(5).us_code],
      [
        `us_code.any_of=${r(5).us_code},${r(9).us_code}`,
        (x) => [r(5).us_code, r(9).us_code].includes(x.us_code),
      ],
      ['us_code.gt=30', (x) => (x.us_code as string) > '30'],
      ['us_code.gte=30383L100', (x) => (x.us_code as string) >= '30383L100'],
      ['us_code.lt=12', (x) => (x.us_code as string) < '12'],
      ['us_code.lte=21383L103', (x) => (x.us_code as string) <= '21383L103'],
      [`isin=${r(7).isin}`, (x) => x.isin === r(7).isin],
      [`isin.any_of=${r(7).isin},${r(8).isin}`, (x) => [r(7).isin, r(8).isin].includes(x.isin)],
      ['isin.gt=US40', (x) => (x.isin as string) > 'US40'],
      ['isin.gte=US44', (x) => (x.isin as string) >= 'US44'],
      ['isin.lt=US10', (x) => (x.isin as string) < 'US10'],
      ['isin.lte=US22', (x) => (x.isin as string) <= 'US22'],
      [`listing_date=${day}`, (x) => x.listing_date === day],
      [`listing_date.gt=${day}`, (x) => (x.listing_date as string) > day],
      [`listing_date.gte=${day}`, (x) => (x.listing_date as string) >= day],
      [`listing_date.lt=${day}`, (x) => (x.listing_date as string) < day],
      [`listing_date.lte=${day}`, (x) => (x.listing_date as string) <= day],
      ['ipo_status=pending', (x) => x.ipo_status === 'pending'],
      ['ipo_status.any_of=new,rumor', (x) => x.ipo_status === 'new' || x.ipo_status === 'rumor'],
      // A list sent as repeated keys, as some clients send arrays, reads as one list, like every `.any_of`.
      [
        'ipo_status.any_of=new&ipo_status.any_of=rumor',
        (x) => ['new', 'rumor'].includes(x.ipo_status as string),
      ],
      [
        `ipo_status.any_of=history,new&listing_date.gte=${day}&ticker.lt=ABM`,
        (x) =>
          ['history', 'new'].includes(x.ipo_status as string) &&
          (x.listing_date as string) >= day &&
          (x.ticker as string) < 'ABM',
      ],
    ];
    for (const [query, keep] of cases) {
      const want = tickers(records.filter(keep)).sort();
      assert.ok(want.length > 0 && want.length < COUNT, `${query} keeps some records, not all`);
      const got = await walk(`/v1/reference/ipos?${query}&limit=1000`);
      assert.deepEqual(tickers(got).sort(), want, query);
    }
  });

  test('sort: columns in turn, each ascending or descending (a column alone descending), listing date descending by default', async (t) => {
    if (!ready(t)) return;
    for (const sort of [
      'ipo_status.asc,final_issue_price.desc,ticker.asc',
      'final_issue_price,ticker.asc',
      'listing_date.asc,us_code.desc',
      'issuer_name.desc',
      'isin.asc',
    ]) {
      const got = await walk(`/v1/reference/ipos?sort=${sort}&limit=1000`);
      assert.deepEqual(tickers(got), tickers([...records].sort(comparator(sort))), sort);
    }
    const byDefault = await walk('/v1/reference/ipos?limit=1000');
    const days = byDefault.map((r) => r.listing_date as string);
    assert.deepEqual(days, [...days].sort().reverse(), 'newest listing first');
    assert.deepEqual(tickers(byDefault).sort(), tickers(records).sort());
  });

  test('pages by next_url walk a sorted listing once: no gap, no duplicate, in both clients', async (t) => {
    if (!ready(t)) return;
    for (const query of [
      'sort=listing_date.desc',
      'sort=ipo_status.asc,final_issue_price.desc',
      'ipo_status.any_of=history,new,pending&sort=final_issue_price.asc',
    ]) {
      const whole = tickers(await walk(`/v1/reference/ipos?${query}&limit=1000`));
      const pages = await allPages(server!.url, `/v1/reference/ipos?${query}&limit=7`);
      assert.equal(pages.length, Math.ceil(whole.length / 7), query);
      const walked = pages.flatMap((p) => tickers(p.body.results as Json[]));
      assert.deepEqual(walked, whole, query);
      assert.equal(new Set(walked).size, walked.length, `${query}: no duplicate`);
    }

    const options = { sort: 'ipo_status.asc,final_issue_price.desc', limit: 7 } as const;
    const want = tickers(
      await walk('/v1/reference/ipos?sort=ipo_status.asc,final_issue_price.desc&limit=1000'),
    );
    const asyncClient = ReferenceClient('any-key', { useAsync: true, baseUrl: server!.url });
    try {
      const seen: string[] = [];
      for await (const ipo of asyncClient.getIposV1(options)) seen.push((ipo as Ipo).ticker);
      assert.deepEqual(seen, want, 'async client');
    } finally {
      await asyncClient.close();
    }
    const syncClient = ReferenceClient('any-key', { baseUrl: server!.url });
    try {
      const seen: string[] = [];
      for (const ipo of syncClient.getIposV1(options)) seen.push(ipo.ticker);
      assert.deepEqual(seen, want, 'sync client');
    } finally {
      syncClient.close();
    }
  });

  test("bad input is a 400 in the API's error shape naming the parameter and the value", async (t) => {
    if (!ready(t)) return;
    for (const [query, parameter, value] of [
      ['sort=bogus.asc', 'sort', 'bogus.asc'],
      ['sort=ticker.up', 'sort', 'ticker.up'],
      ['sort=ticker.asc,,listing_date', 'sort', 'ticker.asc,,listing_date'],
      ['limit=0', 'limit', '0'],
      ['limit=ten', 'limit', 'ten'],
      ['ipo_status=bogus', 'ipo_status', 'bogus'],
      ['ipo_status.any_of=history,bogus', 'ipo_status.any_of', 'history,bogus'],
      // A blank item is dropped as in every list (`history,` reads as `history`); a list of none is refused.
      ['ipo_status.any_of=,', 'ipo_status.any_of', ','],
      ['ticker.any_of=,', 'ticker.any_of', ','],
      ['listing_date.gte=2024-13-01', 'listing_date.gte', '2024-13-01'],
    ] as const) {
      const res = await get(server!.url, `/v1/reference/ipos?${query}`);
      assert.equal(res.status, 400, `${query}: ${res.text}`);
      assert.equal(res.body.status, 'ERROR', query);
      assert.equal(typeof res.body.request_id, 'string', query);
      const error = res.body.error as string;
      assert.ok(error.includes(parameter) && error.includes(value), `${query}: ${error}`);
    }
    // Over the maximum, the limit is capped as the service caps it.
    const capped = await get(server!.url, '/v1/reference/ipos?limit=5000');
    assert.equal(capped.status, 200, capped.text);
    assert.equal((capped.body.results as Json[]).length, COUNT);
  });
});
