/**
 * Benchmark 6: the server's memory under a stream of distinct heavy requests. Every request asks for
 * another window of 9 999 trades (about 1.5 MB of JSON; the route reads one row more, 10 000, to know
 * whether a next page exists), so none is answered from a cache but each would be kept: with caches
 * bounded in bytes the server's RSS levels off once they are full, instead of growing with every
 * request until the heap is exhausted.
 */
import { Pool } from 'undici';
import { currentRss } from './measure.js';

/** The ticker of the synthetic store whose trades benchmark 6 asks for. */
export const HEAVY_TICKER = 'HEAVY';
/** Its trades, one every 10 ms from 2023-12-28 15:00 UTC. */
export const HEAVY_TRADES = 200_000;
const HEAVY_FROM_NS = BigInt(Date.parse('2023-12-28T15:00:00Z')) * 1_000_000n;

/** One reading: requests answered so far and the server's RSS then. */
export interface RssReading {
  requests: number;
  rssMiB: number;
}

/**
 * Sends `requests` distinct requests for 9 999 trades of {@link HEAVY_TICKER}, one after another,
 * each window starting 100 ms (10 trades) after the last, and reads the RSS of the process `pid`
 * every `every` requests.
 */
export async function rssUnderDistinctRequests(
  url: string,
  pid: number | undefined,
  options: { requests: number; every: number },
): Promise<RssReading[]> {
  const pool = new Pool(url, { connections: 4 });
  const readings: RssReading[] = [];
  const read = async (requests: number) => {
    const rss = await currentRss(pid);
    if (rss !== undefined) readings.push({ requests, rssMiB: Math.round(rss) });
  };
  try {
    await read(0);
    for (let i = 0; i < options.requests; i++) {
      // Past the end of the trades the windows wrap around, one nanosecond later each time.
      const lap = Math.floor((i * 10) / (HEAVY_TRADES - 10_000));
      const from = HEAVY_FROM_NS + BigInt(((i * 10) % (HEAVY_TRADES - 10_000)) * 10_000_000 + lap);
      const { statusCode, body } = await pool.request({
        method: 'GET',
        path: `/v3/trades/${HEAVY_TICKER}?timestamp.gte=${from}&limit=9999&sort=timestamp&order=asc`,
        headers: { authorization: 'Bearer bench-key' },
      });
      const text = await body.text();
      if (statusCode !== 200) throw new Error(`status ${statusCode}: ${text.slice(0, 200)}`);
      if ((i + 1) % options.every === 0) await read(i + 1);
    }
  } finally {
    await pool.close();
  }
  return readings;
}
