/**
 * Client-side benchmarks against a running local server: mdq vs a raw undici lower bound vs the
 * official `@polygon.io/client-js`, for a full-range fetch and for many small sequential calls.
 */
import { restClient } from '@polygon.io/client-js';
import { Pool } from 'undici';
import { StocksClient, splitDateRange } from '../src/index.js';
import { interleave, type Sample } from './measure.js';

const KEY = 'bench-key';
const TICKER = 'SYNTH';

interface Bar {
  t: number;
}

/**
 * A year of minute bars: mdq's async full range; raw undici requesting the same chunk URLs at the same
 * concurrency, `JSON.parse` and concatenating; the official client with `pagination: true` (one call at
 * `limit=50000`, following `next_url`). `serverCpu` reads the server process's CPU time, so that each
 * sample also holds what the server spent on it.
 */
export async function fullRange(
  url: string,
  from: string,
  to: string,
  rounds: number,
  { concurrency = 10, serverCpu }: { concurrency?: number; serverCpu?: () => number | undefined } = {},
): Promise<{ samples: Record<string, Sample[]>; bars: Record<string, number>; reversedPages: boolean }> {
  const mdq = StocksClient(KEY, { useAsync: true, baseUrl: url, readTimeout: 60 });
  const pool = new Pool(url);
  const polygon = restClient(KEY, url, { pagination: true });
  // The URLs mdq requests: one per chunk of its own range split, as [start, end - 1] in Unix ms.
  const targets = splitDateRange(from, to, 'minute', { reverse: false }).map(
    ([lo, hi]) =>
      `/v2/aggs/ticker/${TICKER}/range/1/minute/${lo}/${hi - 1}?adjusted=true&sort=asc&limit=50000`,
  );
  const bars: Record<string, number> = {};
  let reversedPages = false;
  try {
    const samples = await interleave(
      rounds,
      {
        raw: async () => {
          const parts: Bar[][] = new Array(targets.length);
          let next = 0;
          const worker = async () => {
            for (let i = next++; i < targets.length; i = next++) {
              const res = await pool.request({
                path: targets[i] as string,
                method: 'GET',
                headers: { authorization: `Bearer ${KEY}`, accept: 'application/json' },
              });
              const page = JSON.parse(await res.body.text()) as { results?: Bar[] };
              parts[i] = page.results ?? [];
            }
          };
          await Promise.all(Array.from({ length: Math.min(concurrency, targets.length) }, worker));
          bars.raw = parts.flat().length;
        },
        mdq: async () => {
          const result = await mdq.getFullRangeAggregateBars(TICKER, from, to, {
            info: false,
            maxConcurrentWorkers: concurrency,
          });
          bars.mdq = result.length;
        },
        polygon: async () => {
          const result = (await polygon.getStocksAggregates(
            TICKER,
            1,
            'minute' as never,
            from,
            to,
            true,
            'asc' as never,
            50000,
          )) as { results?: Bar[] };
          const list = result.results ?? [];
          bars.polygon = list.length;
          // Pages merge later-first (wire-format.md §6.3): the first bar is not the earliest.
          reversedPages = list.length > 1 && (list[0] as Bar).t > (list[list.length - 1] as Bar).t;
        },
      },
      { serverCpu },
    );
    return { samples, bars, reversedPages };
  } finally {
    await mdq.close();
    await pool.close();
  }
}

/** Benchmark 2's calls are made in this many slices per round, the contenders taking turns each slice. */
const SMALL_CALL_SLICES = 10;

/**
 * `calls` sequential last-trade requests: raw undici (request, `JSON.parse`), mdq async, mdq sync and
 * the official client, in {@link SMALL_CALL_SLICES} slices per round.
 */
export async function smallCalls(
  url: string,
  calls: number,
  rounds: number,
): Promise<{ samples: Record<string, Sample[]>; bodyBytes: number }> {
  const asyncClient = StocksClient(KEY, { useAsync: true, baseUrl: url });
  const syncClient = StocksClient(KEY, { baseUrl: url });
  const pool = new Pool(url);
  const polygon = restClient(KEY, url);
  const path = `/v2/last/trade/${TICKER}`;
  const slice = Math.max(1, Math.round(calls / SMALL_CALL_SLICES));
  let bodyBytes = 0;
  try {
    const samples = await interleave(
      rounds,
      {
        raw: async () => {
          for (let i = 0; i < slice; i++) {
            const res = await pool.request({
              path,
              method: 'GET',
              headers: { authorization: `Bearer ${KEY}`, accept: 'application/json' },
            });
            const text = await res.body.text();
            JSON.parse(text);
            bodyBytes = text.length;
          }
        },
        mdqAsync: async () => {
          for (let i = 0; i < slice; i++) await asyncClient.getLastTrade(TICKER);
        },
        mdqSync: async () => {
          for (let i = 0; i < slice; i++) syncClient.getLastTrade(TICKER);
        },
        polygon: async () => {
          for (let i = 0; i < slice; i++) await polygon.getLastStocksTrade(TICKER);
        },
      },
      { slices: Math.round(calls / slice) },
    );
    return { samples, bodyBytes };
  } finally {
    await asyncClient.close();
    syncClient.close();
    await pool.close();
  }
}

/**
 * The sync client against the async one, on a server with its caches on (as `mdq serve`), where the
 * client's own cost shows: a full range of `from`..`to` (the sync client's bars cross from its worker
 * thread), and `calls` sequential previous closes (made on the calling thread; and, as `worker`, through
 * the worker as every call over https: is), in {@link SMALL_CALL_SLICES} slices per round.
 */
export async function syncVsAsync(
  url: string,
  from: string,
  to: string,
  calls: number,
  rounds: number,
): Promise<{
  fullRange: Record<string, Sample[]>;
  small: Record<string, Sample[]>;
  bars: Record<string, number>;
}> {
  const asyncClient = StocksClient(KEY, { useAsync: true, baseUrl: url, readTimeout: 60 });
  const syncClient = StocksClient(KEY, { baseUrl: url, readTimeout: 60 });
  // Every call through the worker, as over https: (the previous closes only).
  const workerClient = StocksClient(KEY, { baseUrl: url, readTimeout: 60, directHttp: false });
  const bars: Record<string, number> = {};
  const slice = Math.max(1, Math.round(calls / SMALL_CALL_SLICES));
  try {
    const fullRange = await interleave(rounds, {
      async: async () => {
        bars.async = (await asyncClient.getFullRangeAggregateBars(TICKER, from, to, { info: false })).length;
      },
      sync: async () => {
        bars.sync = syncClient.getFullRangeAggregateBars(TICKER, from, to, { info: false }).length;
      },
    });
    const small = await interleave(
      rounds,
      {
        async: async () => {
          for (let i = 0; i < slice; i++) await asyncClient.getPreviousClose(TICKER);
        },
        sync: async () => {
          for (let i = 0; i < slice; i++) syncClient.getPreviousClose(TICKER);
        },
        worker: async () => {
          for (let i = 0; i < slice; i++) workerClient.getPreviousClose(TICKER);
        },
      },
      { slices: Math.round(calls / slice) },
    );
    return { fullRange, small, bars };
  } finally {
    await asyncClient.close();
    syncClient.close();
    workerClient.close();
  }
}
