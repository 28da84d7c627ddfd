/**
 * bench/merge-memory.ts for the built package (dist/, as an application loads mdq), in plain
 * JavaScript so that no TypeScript loader (its own thread, about 25 MiB) shares the process and its peak
 * RSS. Prints the same JSON line.
 *
 * Usage: node --expose-gc bench/merge-memory-built.mjs <url> <from> <to> [objects|columnar]
 */
import { BAR_COLUMN_FIELDS, StocksClient } from '../dist/index.js';

const [url, from, to, form = 'objects'] = process.argv.slice(2);
if (form !== 'objects' && form !== 'columnar')
  throw new Error(`form: expected objects or columnar, got ${form}`);
const gc = globalThis.gc;
const heldBytes = async () => {
  if (!gc) return undefined;
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};
const client = StocksClient('bench-key', { useAsync: true, baseUrl: url, readTimeout: 120 });
const before = process.resourceUsage().maxRSS / 1024;
const start = performance.now();
let bars = await client.getFullRangeAggregateBars('SYNTH', from, to, {
  info: false,
  ...(form === 'columnar' ? { columnar: true } : {}),
});
const seconds = (performance.now() - start) / 1000;
const peak = process.resourceUsage().maxRSS / 1024;
const heapMiB = process.memoryUsage().heapUsed / 1024 / 1024;
let heldAfter = await heldBytes();
if (heldAfter !== undefined && !Array.isArray(bars)) {
  for (const field of BAR_COLUMN_FIELDS)
    if (bars[field].buffer.resizable) heldAfter += bars[field].buffer.byteLength;
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
