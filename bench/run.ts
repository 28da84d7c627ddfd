/**
 * `npm run bench`: mdq against its peers and its own bounds, side by side in one run, against local
 * servers in child processes (so client and server never share an event loop). Contenders alternate
 * (baseline, mdq, baseline, mdq, …) after a warm-up; each row reports medians and the ratio to its
 * target. Results go to standard output (markdown) and `bench/results.json`.
 *
 * Environment: BENCH_ROUNDS (default 5), BENCH_CALLS (default 2000), BENCH_LOAD_SECONDS (default 30),
 * BENCH_ONLY (a comma-separated list of benchmarks to run, of 1, 2 (with 3), 3b, 4a, 4b, 4c, 5, 5c, 6, 7a
 * (with 7b), 7c, 8, load; default all), BENCH_SYNC_CALLS (the previous closes of benchmark 3b, default
 * 300), BENCH_STREAM_EVENTS (events of benchmarks 7a and 7b, default 300 000),
 * BENCH_STREAM_SECONDS (length of the long replay of 7c, default 600), BENCH_HEAVY_REQUESTS (distinct heavy requests of benchmark 6, default 1000), BENCH_LINKS (the modelled links benchmark 1 also runs over, as `<round trip ms>:<Mbit/s per
 * connection>` separated by commas; default 20:100,20:50; empty for none).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDbStore } from '../src/server/store/duckdb-store.js';
import { marketTickers } from '../src/server/stream/tick-source.js';
import { loadTest } from './autocannon.js';
import { rssUnderDistinctRequests } from './cache-memory.js';
import { cachedVsUpstream, storeBytesPerMillionBars } from './caching-benchmarks.js';
import { fullRange, smallCalls, syncVsAsync } from './client-benchmarks.js';
import { type Child, interleave, median, runJson, type Sample, spawnReady, summarize } from './measure.js';
import { aggregateVsDuckDb, ingestVsCsv, SPY_DAY } from './server-benchmarks.js';
import { longReplay, mdqClient, rawClient } from './stream-benchmarks.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const calls = Number(process.env.BENCH_CALLS ?? 2000);
const syncCalls = Number(process.env.BENCH_SYNC_CALLS ?? 300);
const loadSeconds = Number(process.env.BENCH_LOAD_SECONDS ?? 30);
const heavyRequests = Number(process.env.BENCH_HEAVY_REQUESTS ?? 1000);
const streamEvents = Number(process.env.BENCH_STREAM_EVENTS ?? 300_000);
const streamSeconds = Number(process.env.BENCH_STREAM_SECONDS ?? 600);
const only = process.env.BENCH_ONLY?.split(',').map((b) => b.trim());
const links = (process.env.BENCH_LINKS ?? '20:100,20:50')
  .split(',')
  .filter((l) => l.trim() !== '')
  .map((l) => {
    const [rttMs, mbit] = l.split(':').map(Number);
    if (!(Number(rttMs) >= 0 && Number(mbit) > 0))
      throw new Error(`BENCH_LINKS: '${l}' is not <ms>:<Mbit/s>`);
    return { rttMs: rttMs as number, mbit: mbit as number };
  });
/** Whether benchmark `name` runs (BENCH_ONLY). */
const wanted = (name: string) => only === undefined || only.includes(name);
const YEAR = ['2023-01-01', '2023-12-31'] as const;
const FOUR_YEARS = ['2020-01-01', '2023-12-31'] as const;
const leanRoot = join(root, '..', 'shared', 'marketdata', 'lean');
const testStore = join(root, '.tmp', 'test-store.duckdb');

interface Row {
  benchmark: string;
  contender: string;
  baseline: string;
  value: number;
  baselineValue: number;
  unit: string;
  /** value / baselineValue (or the reverse where higher is better, see `higherIsBetter`). */
  ratio: number;
  target: string;
  met: boolean | undefined;
  note?: string;
}

const rows: Row[] = [];
const extra: Record<string, unknown> = {};

function compare(
  benchmark: string,
  samples: Record<string, Sample[]>,
  contender: string,
  baseline: string,
  target: { max?: number; min?: number; text: string },
  note?: string,
): void {
  const a = summarize(samples[contender] ?? []);
  const b = summarize(samples[baseline] ?? []);
  const ratio = a.wallMs / b.wallMs;
  const server =
    a.serverCpuMs !== undefined && b.serverCpuMs !== undefined
      ? `; server CPU ${a.serverCpuMs.toFixed(0)} vs ${b.serverCpuMs.toFixed(0)} ms`
      : '';
  const met =
    target.max !== undefined
      ? ratio <= target.max
      : target.min !== undefined
        ? ratio >= target.min
        : undefined;
  rows.push({
    benchmark,
    contender,
    baseline,
    value: a.wallMs,
    baselineValue: b.wallMs,
    unit: 'ms',
    ratio,
    target: target.text,
    met,
    note: `CPU ${a.cpuMs.toFixed(0)} vs ${b.cpuMs.toFixed(0)} ms${server}${note ? `; ${note}` : ''}`,
  });
}

/**
 * The highest `slower ÷ faster` wall-time ratio this machine allows, given the CPU time client and
 * server spent on the faster contender's runs: those cannot finish sooner than that CPU time spread
 * over every core. Undefined without the server's CPU time.
 */
function cpuBoundRatio(slower: readonly Sample[], faster: readonly Sample[]): number | undefined {
  const s = summarize(slower);
  const f = summarize(faster);
  if (f.serverCpuMs === undefined) return undefined;
  return s.wallMs / ((f.cpuMs + f.serverCpuMs) / cpus().length);
}

function log(line: string): void {
  process.stderr.write(`# ${line}\n`);
}

function versionOf(pkg: string): string {
  try {
    return (
      JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }
    ).version;
  } catch {
    return 'unknown';
  }
}

async function withChild<T>(child: Child<{ url: string }>, fn: (url: string) => Promise<T>): Promise<T> {
  try {
    return await fn(child.ready.url);
  } finally {
    await child.stop();
  }
}

const server = (mode: string, arg: string) =>
  spawnReady<{ url: string }>(join(root, 'bench', 'server-process.ts'), [mode, arg]);

/** Benchmark 7: the stream replay of the test store's stock ticks (SPY, IBM, BAC) from its first day. */
async function streamBenchmarks(): Promise<void> {
  const from = '2013-10-07';
  const channels = 'T.*,Q.*';
  const script = join(root, 'bench', 'server-process.ts');
  if (wanted('7a')) {
    log(
      `7a/7b. ${streamEvents} events of ${channels} at max speed: mdq server vs bare ws; mdq client vs raw ws`,
    );
    const replay = await spawnReady<{ url: string }>(script, ['replay', testStore, from]);
    const feedFile = join(tmpdir(), `mdq-bench-feed-${process.pid}.ndjson`);
    try {
      await withChild(replay, async (url) => {
        const frames: string[] = [];
        const n = await rawClient(`${url}/stocks`, channels, streamEvents, frames);
        writeFileSync(feedFile, frames.join('\n'));
        const feed = await spawnReady<{ url: string }>(script, ['feed', feedFile]);
        await withChild(feed, async (feedUrl) => {
          const servers = await interleave(rounds, {
            mdqServer: () => rawClient(`${url}/stocks`, channels, n),
            bareWs: () => rawClient(`${feedUrl}/stocks`, channels, n),
          });
          const a = summarize(servers.mdqServer ?? []);
          const b = summarize(servers.bareWs ?? []);
          rows.push({
            benchmark: `7a. replay events/s to one client at max speed (${n} events of ${channels}, from ${from})`,
            contender: 'mdq server (DuckDB reads, aggregates, JSON)',
            baseline: 'bare ws server sending the same frames, already encoded',
            value: n / (a.wallMs / 1000),
            baselineValue: n / (b.wallMs / 1000),
            unit: 'events/s',
            ratio: b.wallMs / a.wallMs,
            target: 'reported',
            met: undefined,
            note: `client CPU ${a.cpuMs.toFixed(0)} vs ${b.cpuMs.toFixed(0)} ms (raw ws + JSON.parse for both)`,
          });
          const clients = await interleave(rounds, {
            mdq: () => mdqClient(feedUrl, channels, n),
            raw: () => rawClient(`${feedUrl}/stocks`, channels, n),
          });
          compare(
            `7b. client decode of ${n} events (the 7a frames, from a bare ws server)`,
            clients,
            'mdq',
            'raw',
            {
              max: 1.2,
              text: 'mdq ≤ 1.2× raw',
            },
          );
        });
      });
    } finally {
      rmSync(feedFile, { force: true });
    }
  }
  if (wanted('7c')) {
    const store = await DuckDbStore.open(testStore, { readOnly: true });
    const fromNs = BigInt(Date.parse(`${from}T04:00:00Z`)) * 1_000_000n;
    // The stocks the replay sends: futures contracts (a root of the test store) are not among them.
    const stocks = marketTickers(store.dialect, 'stocks');
    const counted = await store.all<{ n: number }>(
      `SELECT (SELECT count(*) FROM trades WHERE ${stocks} AND sip_timestamp >= $1)::DOUBLE
            + (SELECT count(*) FROM quotes WHERE ${stocks} AND sip_timestamp >= $1)::DOUBLE AS n`,
      [fromNs],
    );
    store.close();
    const lapTicks = counted[0]?.n ?? 0;
    const all = `${channels},A.*,AM.*`;
    log(`7c. long replay of ${all} at max speed for ${streamSeconds} s (laps of ${lapTicks} ticks)`);
    const replay = await spawnReady<{ url: string }>(script, ['replay', testStore, from]);
    await withChild(replay, async (url) => {
      const readings = await longReplay(url, replay.process.pid, {
        channels: all,
        lapTicks,
        seconds: streamSeconds,
        readings: 10,
      });
      extra.streamMemory = readings;
      const first = readings.find((r) => r.seconds >= streamSeconds / 4) ?? readings[0];
      const last = readings.at(-1);
      if (first && last && first.serverMiB !== undefined && last.serverMiB !== undefined) {
        rows.push({
          benchmark: `7c. server RSS over a ${streamSeconds} s replay of ${all} at max speed (${last.events} events, ${last.laps} laps)`,
          contender: `after ${last.seconds} s`,
          baseline: `after ${first.seconds} s`,
          value: last.serverMiB,
          baselineValue: first.serverMiB,
          unit: 'MiB',
          ratio: last.serverMiB / first.serverMiB,
          target: 'flat (reported)',
          met: undefined,
          note: `s: events, server / client MiB: ${readings.map((r) => `${r.seconds}: ${r.events}, ${r.serverMiB} / ${r.clientMiB}`).join('; ')}`,
        });
      }
    });
  }
}

async function main(): Promise<void> {
  const loadAtStart = loadavg().map((l) => +l.toFixed(1));
  const syntheticDb = join(tmpdir(), `mdq-bench-synthetic-${process.pid}.duckdb`);
  log(`building the synthetic store (${FOUR_YEARS.join('..')}) in ${syntheticDb}`);
  const synthetic = await spawnReady<{ url: string }>(join(root, 'bench', 'server-process.ts'), [
    'synthetic',
    syntheticDb,
    ...FOUR_YEARS,
  ]);
  try {
    await withChild(synthetic, async (url) => {
      if (wanted('1')) {
        log('1. full range, a year of minute bars');
        const fr = await fullRange(url, YEAR[0], YEAR[1], rounds, { serverCpu: synthetic.cpuMs });
        extra.fullRangeBars = fr.bars;
        extra.polygonPagesReversed = fr.reversedPages;
        extra.fullRangeMedians = Object.fromEntries(
          Object.entries(fr.samples).map(([name, samples]) => [name, summarize(samples)]),
        );
        compare('1. year of minute bars, full range', fr.samples, 'mdq', 'raw', {
          max: 1.25,
          text: '≤ 1.25× raw',
        });
        const bound = cpuBoundRatio(fr.samples.polygon ?? [], fr.samples.mdq ?? []);
        extra.fullRangePolygonRatioCpuBound = bound;
        compare(
          '1. year of minute bars, full range',
          fr.samples,
          'polygon',
          'mdq',
          { min: 3, text: 'official ≥ 3× mdq' },
          bound === undefined
            ? undefined
            : `at most ${bound.toFixed(2)}× on ${cpus().length} cores with the CPU time mdq's runs took`,
        );
        // The same through a modelled wide-area link: the waits a remote service adds, which parallel
        // chunks overlap and sequential pages add up (bench/link-process.ts).
        for (const { rttMs, mbit } of links) {
          const label = `1. same, over a modelled link (${rttMs} ms round trip, ${mbit} Mbit/s per connection)`;
          log(label);
          const link = await spawnReady<{ url: string }>(join(root, 'bench', 'link-process.ts'), [
            url,
            String(rttMs),
            String(mbit),
          ]);
          await withChild(link, async (linkUrl) => {
            const overLink = await fullRange(linkUrl, YEAR[0], YEAR[1], rounds);
            extra[`fullRangeBarsLink${rttMs}ms${mbit}Mbit`] = overLink.bars;
            compare(label, overLink.samples, 'mdq', 'raw', { max: 1.25, text: '≤ 1.25× raw' });
            compare(label, overLink.samples, 'polygon', 'mdq', { min: 3, text: 'official ≥ 3× mdq' });
          });
        }
      }

      if (wanted('2')) {
        log(`2-3. ${calls} sequential last-trade calls`);
        const small = await smallCalls(url, calls, rounds);
        extra.lastTradeBodyBytes = small.bodyBytes;
        compare(`2. ${calls} sequential last trades`, small.samples, 'mdqAsync', 'raw', {
          max: 1.15,
          text: '≤ 1.15× raw',
        });
        compare(`2. ${calls} sequential last trades`, small.samples, 'polygon', 'mdqAsync', {
          min: 1,
          text: 'official slower than mdq (> 1×)',
        });
        compare(`3. ${calls} sequential last trades`, small.samples, 'mdqSync', 'mdqAsync', {
          max: 1.5,
          text: 'sync ≤ 1.5× async',
        });
      }

      if (wanted('3b')) {
        log(
          `3b. sync vs async on a server with its caches on: a year of minute bars; ${syncCalls} previous closes`,
        );
        // The same store with the server's caches on, as `mdq serve` has them: what is left is the client.
        const cached = await spawnReady<{ url: string }>(join(root, 'bench', 'server-process.ts'), [
          'synthetic',
          syntheticDb,
          ...FOUR_YEARS,
          'cache',
        ]);
        await withChild(cached, async (cachedUrl) => {
          const result = await syncVsAsync(cachedUrl, YEAR[0], YEAR[1], syncCalls, rounds);
          extra.syncFullRangeBars = result.bars;
          compare(
            `3b. year of minute bars (${result.bars.sync} bars), full range, server caches on`,
            result.fullRange,
            'sync',
            'async',
            { max: 1.2, text: 'sync ≤ 1.2× async' },
          );
          compare(
            `3b. ${syncCalls} sequential previous closes, server caches on`,
            result.small,
            'sync',
            'async',
            { max: 1.5, text: 'sync ≤ 1.5× async' },
          );
          compare(
            `3b. ${syncCalls} sequential previous closes through the worker (directHttp: false, as over https:)`,
            result.small,
            'worker',
            'async',
            { text: 'for reference' },
          );
        });
      }

      if (wanted('5')) {
        log('5. peak RSS of the async client merging about a million bars');
        extra.mergeMemory = await runJson([
          '--import',
          'tsx',
          join(root, 'bench', 'merge-memory.ts'),
          url,
          FOUR_YEARS[0],
          FOUR_YEARS[1],
        ]);
        extra.baselineNodeRssMiB = Number(
          execFileSync(process.execPath, [
            '-e',
            'console.log(process.resourceUsage().maxRSS / 1024)',
          ]).toString(),
        );
      }

      if (wanted('5c')) {
        log('5c. a million bars as columns (columnar: true) beside bar objects: peak RSS, bytes a bar held');
        type Memory = { bars: number; peakRssMiB: number; rssBeforeMiB: number; bytesPerBar: number };
        // The built package as an application loads it, built from this tree first: the form users run,
        // on which the target is judged. The source through the TypeScript loader (as the other benchmarks
        // run) is reported beside it: the loader's own thread and transformed modules add about 30 MiB to
        // the process from its start, which is no memory of the client's.
        execFileSync('npm', ['run', 'build', '--silent'], {
          cwd: root,
          stdio: ['ignore', 'ignore', 'inherit'],
        });
        const builds = [
          { name: 'built package', args: [join(root, 'bench', 'merge-memory-built.mjs')], judged: true },
          {
            name: 'source',
            args: ['--import', 'tsx', join(root, 'bench', 'merge-memory.ts')],
            judged: false,
          },
        ];
        const memory: Record<string, Record<string, Memory>> = {};
        for (const build of builds) {
          const forms: Record<string, Memory> = {};
          for (const form of ['objects', 'columnar'] as const) {
            forms[form] = await runJson<Memory>([
              '--expose-gc',
              ...build.args,
              url,
              FOUR_YEARS[0],
              FOUR_YEARS[1],
              form,
            ]);
          }
          memory[build.name] = forms;
          const columns = forms.columnar as Memory;
          const objects = forms.objects as Memory;
          rows.push({
            benchmark: `5c. peak RSS, full range of ${columns.bars} bars, columnar vs objects (${build.name})`,
            contender: 'columnar',
            baseline: 'objects',
            value: columns.peakRssMiB,
            baselineValue: objects.peakRssMiB,
            unit: 'MiB',
            ratio: columns.peakRssMiB / objects.peakRssMiB,
            target: build.judged
              ? '≤ 200 MiB peak, ≤ 64 B a bar held'
              : 'reported (judged on the built package)',
            // Bytes a bar to a tenth, as reported: the result's own object and its eight array views
            // add a few hundred bytes to the columns' 64 a bar, about 0.0002 B a bar of a million.
            met: build.judged
              ? columns.peakRssMiB <= 200 && Math.round(columns.bytesPerBar * 10) / 10 <= 64
              : undefined,
            note: `bytes a bar held: ${columns.bytesPerBar.toFixed(1)} vs ${objects.bytesPerBar.toFixed(1)}; RSS before the call ${columns.rssBeforeMiB.toFixed(0)} vs ${objects.rssBeforeMiB.toFixed(0)} MiB`,
          });
        }
        extra.columnarMemory = memory;
      }

      if (wanted('4b')) {
        log('4b. requests per second: small routes vs a bare route with a body of the same size');
        const bare = await server('bare', '');
        // The same store with the server's caches on (answers and query results), as `mdq serve` has
        // them for a store it opens itself (read-only): the product as users run it, so the routes are
        // measured there; the last-trade route is measured with them off too, where every request runs
        // its query.
        const cached = await spawnReady<{ url: string }>(join(root, 'bench', 'server-process.ts'), [
          'synthetic',
          syntheticDb,
          ...FOUR_YEARS,
          'cache',
        ]);
        await withChild(cached, () =>
          withChild(bare, async (bareUrl) => {
            const headers = { authorization: 'Bearer bench-key' };
            const seconds = Math.max(3, Math.round(loadSeconds / 6));
            for (const [path, serverUrl, label] of [
              ['/v2/last/trade/SYNTH', cached.ready.url, 'mdq server (caches on, as mdq serve)'],
              ['/v2/last/trade/SYNTH', url, 'mdq server, caches off'],
              ['/v1/marketstatus/now', cached.ready.url, 'mdq server (caches on, as mdq serve)'],
            ] as const) {
              const probe = await fetch(`${serverUrl}${path}`, { headers });
              const bytes = (await probe.text()).length;
              const rps: Record<string, number[]> = { mdq: [], bare: [] };
              for (let r = 0; r < 3; r++) {
                for (const [name, target] of [
                  ['bare', `${bareUrl}/${bytes}`],
                  ['mdq', `${serverUrl}${path}`],
                ] as const) {
                  const result = await loadTest(target, { connections: 50, duration: seconds, headers });
                  if (result.errors + result.non2xx > 0)
                    throw new Error(`${name}: ${JSON.stringify(result)}`);
                  rps[name]?.push(result.rps);
                }
              }
              const mdq = median(rps.mdq ?? []);
              const base = median(rps.bare ?? []);
              rows.push({
                benchmark: `4b. req/s, GET ${path} (${bytes} B body, 50 connections)`,
                contender: label,
                baseline: 'bare Hono route, same body size',
                value: mdq,
                baselineValue: base,
                unit: 'req/s',
                ratio: mdq / base,
                target: '≥ 0.5× bare',
                met: mdq / base >= 0.5,
                note: `medians of 3 × ${seconds} s, autocannon in its own process`,
              });
            }
          }),
        );
      }

      if (wanted('6')) {
        log(`6. server RSS under ${heavyRequests} distinct requests of 9 999 trades (caches on)`);
        const cached = await spawnReady<{ url: string }>(join(root, 'bench', 'server-process.ts'), [
          'synthetic',
          syntheticDb,
          ...FOUR_YEARS,
          'cache',
        ]);
        await withChild(cached, async (cachedUrl) => {
          const readings = await rssUnderDistinctRequests(cachedUrl, cached.process.pid, {
            requests: heavyRequests,
            every: Math.max(1, Math.round(heavyRequests / 10)),
          });
          extra.cacheMemory = readings;
          const quarter = readings.find((r) => r.requests >= heavyRequests / 4);
          const last = readings.at(-1);
          if (quarter && last) {
            rows.push({
              benchmark: `6. server RSS, ${heavyRequests} distinct requests of 9 999 trades (caches on, as mdq serve)`,
              contender: `after ${last.requests} requests`,
              baseline: `after ${quarter.requests} requests`,
              value: last.rssMiB,
              baselineValue: quarter.rssMiB,
              unit: 'MiB',
              ratio: last.rssMiB / quarter.rssMiB,
              target: 'flat (reported)',
              met: undefined,
              note: `RSS by requests: ${readings.map((r) => `${r.requests}: ${r.rssMiB}`).join(', ')}`,
            });
          }
        });
      }

      if (wanted('8')) {
        // A month of SYNTH minute bars (21 weekdays × 960 bars), one answer.
        const month =
          '/v2/aggs/ticker/SYNTH/range/1/minute/2023-12-01/2023-12-31?limit=50000&apiKey=bench-key';
        const cachingLinks = [undefined, { rttMs: 50, mbit: 100 }];
        for (const link of cachingLinks) {
          const where = link
            ? `a modelled link (${link.rttMs} ms round trip, ${link.mbit} Mbit/s)`
            : 'loopback';
          log(`8. caching server: cached answer vs upstream answer over ${where}`);
          const linked = link
            ? await spawnReady<{ url: string }>(join(root, 'bench', 'link-process.ts'), [
                url,
                String(link.rttMs),
                String(link.mbit),
              ])
            : undefined;
          try {
            const upstreamUrl = linked?.ready.url ?? url;
            const m = await cachedVsUpstream(root, upstreamUrl, month, rounds);
            compare(
              `8. a month of minute bars (20 160): cached answer vs upstream answer, upstream over ${where}`,
              m.samples,
              'cached',
              'upstream',
              // Over loopback both answers are the same query on the same kind of server.
              link ? { max: 1, text: '≤ 1× upstream' } : { max: 1.1, text: '≤ 1.1× upstream' },
              `first answer through the cache (fetched, stored, answered) ${m.first.wallMs.toFixed(0)} ms`,
            );
          } finally {
            await linked?.stop();
          }
        }
        log('8. caching server: store size per million minute bars');
        const size = await storeBytesPerMillionBars(
          root,
          url,
          `/v2/aggs/ticker/SYNTH/range/1/minute/${FOUR_YEARS[0]}/${FOUR_YEARS[1]}?limit=50000&apiKey=bench-key`,
        );
        extra.cacheStoreSize = size;
        rows.push({
          benchmark: `8. caching server store size per million minute bars (${size.bars} bars fetched through it)`,
          contender: 'the store (DuckDB file, less an empty store)',
          baseline: "the service's JSON of the same bars",
          value: size.perMillion / 2 ** 20,
          baselineValue: size.jsonPerMillion / 2 ** 20,
          unit: 'MiB per 10⁶ bars',
          ratio: size.perMillion / size.jsonPerMillion,
          target: 'reported',
          met: undefined,
          note: `${(size.bytes / 2 ** 20).toFixed(1)} MiB for ${size.bars} bars; fetched and stored in ${(size.fetchMs / 1000).toFixed(1)} s over loopback`,
        });
      }

      if (wanted('load')) {
        log(`load: 100 connections × ${loadSeconds} s on GET /v2/last/trade/SYNTH`);
        const load = await loadTest(`${url}/v2/last/trade/SYNTH`, {
          connections: 100,
          duration: loadSeconds,
          headers: { authorization: 'Bearer bench-key' },
        });
        extra.load = { ...load, serverPeakRssMiB: await synthetic.peakRssMiB() };
        log(`load: ${JSON.stringify(extra.load)}`);
      }
    });
  } finally {
    rmSync(syntheticDb, { force: true });
    rmSync(`${syntheticDb}.wal`, { force: true });
  }

  if (!existsSync(leanRoot)) {
    log(`${leanRoot} is absent: skipping the benchmarks on real data`);
  } else {
    if (!existsSync(testStore)) {
      log('building the test store');
      spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'prepare-test-store.ts')], {
        stdio: 'inherit',
      });
    }
    if (wanted('4a')) {
      log(`4a. 1-minute aggregate of the SPY ticks of ${SPY_DAY}: HTTP vs DuckDB in-process`);
      const store = await server('store', testStore);
      await withChild(store, async (url) => {
        const agg = await aggregateVsDuckDb(url, testStore, rounds * 2);
        extra.spyAggregateBars = agg.bars;
        compare(`4a. SPY ${SPY_DAY} ticks → 1-minute bars`, agg.samples, 'http', 'direct', {
          max: 1.5,
          text: '≤ 1.5× DuckDB',
        });
      });
    }

    if (wanted('4c')) {
      log(`4c. ingest of the SPY trade ticks of ${SPY_DAY} vs DuckDB's CSV reader`);
      const ingest = await ingestVsCsv(leanRoot, Math.max(3, Math.ceil(rounds / 2)));
      const ing = summarize(ingest.samples.ingest ?? []);
      const csv = summarize(ingest.samples.duckdbCsv ?? []);
      rows.push({
        benchmark: `4c. ingest rows/s, SPY ${SPY_DAY} trade ticks (${ingest.rows} rows)`,
        contender: 'mdq ingest (zip)',
        baseline: 'DuckDB read_csv (unzipped)',
        value: ingest.rows / (ing.wallMs / 1000),
        baselineValue: ingest.rows / (csv.wallMs / 1000),
        unit: 'rows/s',
        ratio: csv.wallMs / ing.wallMs,
        target: '≥ 0.5× DuckDB',
        met: csv.wallMs / ing.wallMs >= 0.5,
      });
    }
  }

  if (existsSync(testStore) && (wanted('7a') || wanted('7c'))) await streamBenchmarks();

  const machine = {
    date: new Date().toISOString(),
    nproc: cpus().length,
    cpu: cpus()[0]?.model,
    memoryGiB: +(totalmem() / 2 ** 30).toFixed(1),
    freeMemoryGiB: +(freemem() / 2 ** 30).toFixed(1),
    loadAverageAtStart: loadAtStart,
    loadAverageAtEnd: loadavg().map((l) => +l.toFixed(1)),
    node: process.version,
    mdq: (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version,
    undici: versionOf('undici'),
    '@polygon.io/client-js': versionOf('@polygon.io/client-js'),
    '@duckdb/node-api': versionOf('@duckdb/node-api'),
    hono: versionOf('hono'),
    '@hono/node-server': versionOf('@hono/node-server'),
    autocannon: versionOf('autocannon'),
    rounds,
    calls,
    loadSeconds,
  };
  // A partial run (BENCH_ONLY) leaves the full run's file alone.
  const resultsFile = join(root, 'bench', only === undefined ? 'results.json' : 'results-partial.json');
  writeFileSync(resultsFile, `${JSON.stringify({ machine, rows, extra }, null, 2)}\n`);
  try {
    // The file is committed: keep it in the formatter's layout so that the lint stays clean.
    execFileSync(join(root, 'node_modules', '.bin', 'biome'), ['format', '--write', resultsFile], {
      stdio: 'ignore',
    });
  } catch {
    log('biome could not format bench/results.json');
  }

  const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(2));
  const out = [
    `Machine: ${JSON.stringify(machine)}`,
    '',
    '| Benchmark | Contender | Baseline | Contender | Baseline | Ratio | Target | Met | Notes |',
    '|---|---|---|---:|---:|---:|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.benchmark} | ${r.contender} | ${r.baseline} | ${fmt(r.value)} ${r.unit} | ${fmt(r.baselineValue)} ${r.unit} | ${r.ratio.toFixed(2)} | ${r.target} | ${r.met === undefined ? '' : r.met ? 'yes' : 'no'} | ${r.note ?? ''} |`,
    ),
    '',
    `Extra: ${JSON.stringify(extra)}`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

await main();
