/**
 * Peak memory of the async client while it fetches and merges about a million minute bars (four
 * synthetic years) from the server at `<url>`, as bar objects or as columns (`columnar: true`). Runs in
 * a fresh process so that its peak RSS is its own. Prints one JSON line: bars, peak RSS (MiB) before
 * and after, heap after, seconds, and (under `--expose-gc`) the bytes the result holds per bar: what the
 * heap and array buffers hold with the result less what they hold once it is let go.
 *
 * Usage: node --expose-gc --import tsx bench/merge-memory.ts <url> <from> <to> [objects|columnar]
 */
import { BAR_COLUMN_FIELDS, StocksClient } from '../src/index.js';

const [url, from, to, form = 'objects'] = process.argv.slice(2) as [string, string, string, string?];
if (form !== 'objects' && form !== 'columnar')
  throw new Error(`form: expected objects or columnar, got ${form}`);
const mib = (kb: number) => kb / 1024;
const gc = (globalThis as { gc?: () => void }).gc;
/** Bytes the JS heap and array buffers hold after a full collection (undefined without --expose-gc). */
const heldBytes = async () => {
  if (!gc) return undefined;
  // Twice, a turn of the event loop apart: what the finished call let go is collected by then.
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};
const client = StocksClient('bench-key', { useAsync: true, baseUrl: url, readTimeout: 120 });
const before = mib(process.resourceUsage().maxRSS);
const start = performance.now();
const fetchBars = () =>
  form === 'columnar'
    ? client.getFullRangeAggregateBars('SYNTH', from, to, { info: false, columnar: true })
    : client.getFullRangeAggregateBars('SYNTH', from, to, { info: false });
let bars: Awaited<ReturnType<typeof fetchBars>> | undefined = await fetchBars();
const seconds = (performance.now() - start) / 1000;
const peak = mib(process.resourceUsage().maxRSS);
const heapMiB = process.memoryUsage().heapUsed / 1024 / 1024;
// Resizable array buffers (the columns' own) are not in `memoryUsage().arrayBuffers`: added here.
const resizable = (b: ArrayBufferLike) => (b as { resizable?: boolean }).resizable === true;
let heldAfter = await heldBytes();
if (heldAfter !== undefined && !Array.isArray(bars)) {
  for (const field of BAR_COLUMN_FIELDS) {
    const { buffer } = bars[field];
    if (resizable(buffer)) heldAfter += buffer.byteLength;
  }
}
const count = bars.length;
// What the result holds: the same measure again once it is let go (code compiled and state the client
// keeps after its first call are not the result's).
bars = undefined;
const heldWithout = await heldBytes();
const bytesPerBar =
  heldAfter !== undefined && heldWithout !== undefined ? (heldAfter - heldWithout) / count : undefined;
await client.close();
process.stdout.write(
  `${JSON.stringify({ form, bars: count, rssBeforeMiB: before, peakRssMiB: peak, heapAfterMiB: heapMiB, bytesPerBar, seconds })}\n`,
);
