/**
 * Server-side benchmarks: an aggregate over HTTP vs the same query in DuckDB in-process, and Lean
 * ingest vs DuckDB's own CSV reader on the same rows.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import { Pool } from 'undici';
import { NEW_YORK, startOfDay } from '../src/dates/time-zone.js';
import { ingestLean } from '../src/server/ingest/lean.js';
import { DuckDbStore } from '../src/server/store/duckdb-store.js';
import { interleave, type Sample } from './measure.js';

/** The SPY tick day aggregated (test store) and ingested. */
export const SPY_DAY = '2013-10-07';
const SPY_TRADE_ZIP = 'equity/usa/tick/spy/20131007_trade.zip';

/** Requests (or queries) per 4a sample: one takes about 20 ms, too short to time alone. */
const AGGREGATE_BATCH = 10;

/**
 * One-minute bars of a day of SPY trades: `GET /v2/aggs/.../range/1/minute/{day}/{day}` on the server at
 * `url` vs the equivalent SQL (the same grouping, open/close by sequence number, volume-weighted price)
 * on `storePath` opened read-only in this process. Each sample times {@link AGGREGATE_BATCH} sequential
 * runs and is reported per run.
 */
export async function aggregateVsDuckDb(
  url: string,
  storePath: string,
  rounds: number,
): Promise<{ samples: Record<string, Sample[]>; bars: { http: number; direct: number } }> {
  const pool = new Pool(url);
  const store = await DuckDbStore.open(storePath, { readOnly: true });
  const lo = BigInt(startOfDay(SPY_DAY, NEW_YORK)) * 1_000_000n;
  const hi = lo + 86_400_000_000_000n;
  const sql = `
    SELECT (sip_timestamp // 60000000000) * 60000 AS t,
           arg_min(price, sequence_number) AS o, max(price) AS h, min(price) AS l,
           arg_max(price, sequence_number) AS c, sum(size) AS v,
           round(sum(price * size) / sum(size), 4) AS vw, count(*) AS n
      FROM trades WHERE ticker = 'SPY' AND sip_timestamp >= $1 AND sip_timestamp < $2
     GROUP BY 1 ORDER BY 1`;
  const bars = { http: 0, direct: 0 };
  try {
    const samples = await interleave(rounds, {
      http: async () => {
        for (let i = 0; i < AGGREGATE_BATCH; i++) {
          const res = await pool.request({
            path: `/v2/aggs/ticker/SPY/range/1/minute/${SPY_DAY}/${SPY_DAY}?limit=50000`,
            method: 'GET',
            headers: { authorization: 'Bearer bench-key' },
          });
          const body = JSON.parse(await res.body.text()) as { results?: unknown[] };
          bars.http = body.results?.length ?? 0;
        }
      },
      direct: async () => {
        for (let i = 0; i < AGGREGATE_BATCH; i++) {
          const rows = await store.all(sql, [lo, hi]);
          bars.direct = rows.length;
        }
      },
    });
    const perRun = (list: Sample[] = []) =>
      list.map((x) => ({ wallMs: x.wallMs / AGGREGATE_BATCH, cpuMs: x.cpuMs / AGGREGATE_BATCH }));
    return { samples: { http: perRun(samples.http), direct: perRun(samples.direct) }, bars };
  } finally {
    store.close();
    await pool.close();
  }
}

/**
 * Ingest of one day of SPY trade ticks (a Lean zip: unzip, parse, write) vs DuckDB's CSV reader loading
 * the same rows (already unzipped) into the same `trades` table, each into a fresh store.
 */
export async function ingestVsCsv(
  leanRoot: string,
  rounds: number,
): Promise<{ samples: Record<string, Sample[]>; rows: number }> {
  const work = mkdtempSync(join(tmpdir(), 'mdq-bench-ingest-'));
  const lean = join(work, 'lean');
  mkdirSync(dirname(join(lean, SPY_TRADE_ZIP)), { recursive: true });
  symlinkSync(join(leanRoot, SPY_TRADE_ZIP), join(lean, SPY_TRADE_ZIP));
  const entries = unzipSync(readFileSync(join(leanRoot, SPY_TRADE_ZIP)));
  const csv = join(work, 'trades.csv');
  const [bytes] = Object.values(entries);
  if (!bytes) throw new Error(`${SPY_TRADE_ZIP} is empty`);
  writeFileSync(csv, bytes);
  const rows = bytes.reduce((n, b) => n + (b === 10 ? 1 : 0), 0);
  const midnightNs = BigInt(startOfDay(SPY_DAY, NEW_YORK)) * 1_000_000n;
  let run = 0;
  const fresh = async () => DuckDbStore.open(join(work, `store-${run++}.duckdb`));
  try {
    const samples = await interleave(rounds, {
      ingest: async () => {
        const store = await fresh();
        try {
          await ingestLean(store, lean);
        } finally {
          store.close();
        }
      },
      duckdbCsv: async () => {
        const store = await fresh();
        try {
          await store.run(
            `INSERT INTO trades (ticker, sip_timestamp, participant_timestamp, sequence_number, price, size)
             SELECT 'SPY', $1 + ms * 1000000, $1 + ms * 1000000, row_number() OVER (), price / 10000, size
               FROM read_csv($2, header = false, auto_detect = false,
                             columns = {'ms': 'BIGINT', 'price': 'BIGINT', 'size': 'BIGINT', 'ex': 'VARCHAR',
                                        'cond': 'VARCHAR', 'suspicious': 'INTEGER'})`,
            [midnightNs, csv],
          );
        } finally {
          store.close();
        }
      },
    });
    return { samples, rows };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
