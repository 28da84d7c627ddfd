/**
 * Peak memory of the async client while it fetches and merges about a million minute bars (four
 * synthetic years) from the server at `<url>`. Runs in a fresh process so that its peak RSS is its own.
 * Prints one JSON line: bars, peak RSS (MiB) before and after, heap after, seconds.
 *
 * Usage: node --import tsx bench/merge-memory.ts <url> <from> <to>
 */
import { StocksClient } from '../src/index.js';

const [url, from, to] = process.argv.slice(2) as [string, string, string];
const mib = (kb: number) => kb / 1024;
const before = mib(process.resourceUsage().maxRSS);
const client = StocksClient('bench-key', { useAsync: true, baseUrl: url, readTimeout: 120 });
const start = performance.now();
const bars = await client.getFullRangeAggregateBars('SYNTH', from, to, { info: false });
const seconds = (performance.now() - start) / 1000;
const peak = mib(process.resourceUsage().maxRSS);
const heapMiB = process.memoryUsage().heapUsed / 1024 / 1024;
await client.close();
process.stdout.write(
  `${JSON.stringify({ bars: bars.length, rssBeforeMiB: before, peakRssMiB: peak, heapAfterMiB: heapMiB, seconds })}\n`,
);
