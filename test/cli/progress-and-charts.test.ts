import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { unzipSync } from 'fflate';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { ingestLean } from '../../src/server/ingest/lean.js';
import { DuckDbStore } from '../../src/server/store/duckdb-store.js';
import { convertOptionSymbolFormats, parseOptionSymbol } from '../../src/symbols/index.js';
import { fixtureServer } from '../server/app-fixture.js';
import { hasShared, sharedDir } from '../support/shared.js';
import { assertNoKey, bin, envFor, KEY, runBin, runOnTty, startSimServer } from './support.js';

let server: RunningServer;
let store: DuckDbStore;
let env: Record<string, string>;
let dir: string;

before(async () => {
  ({ server, store } = await startSimServer());
  env = envFor(server);
  dir = mkdtempSync(join(tmpdir(), 'mdq-cli-'));
});
after(async () => {
  await server.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The stored daily bars of a ticker between two days (New York dates), oldest first. */
async function dailyBars(ticker: string, from: string, to: string) {
  return store.all<{ t: number; o: number; h: number; l: number; c: number; v: number }>(
    `SELECT t::DOUBLE AS t, o, h, l, c, v FROM bars WHERE ticker = $1 AND resolution = 'day'
        AND t >= $2 AND t < $3 ORDER BY t`,
    [ticker, BigInt(Date.parse(`${from}T00:00:00Z`)), BigInt(Date.parse(`${to}T23:59:59Z`))],
  );
}

describe('progress on standard error', () => {
  const fullRange = `node ${bin} stocks get-aggregate-bars SIMA 2024-01-02 2024-12-31 --timespan minute --full-range --output json`;

  test('a full-range fetch on a terminal shows chunks, bars, rate and ETA or time', async () => {
    const out = join(dir, 'bars.json');
    const r = await runOnTty(`${fullRange} > ${out}`, env);
    assert.equal(r.code, 0, r.stdout);
    // script(1) copies what the child wrote to its terminal (here: standard error) to its own output.
    assert.match(r.stdout, /SIMA bars +\[[#-]+\] +\d+\/\d+ chunks +[\d,]+ bars +[\d,]+ bars\/s/);
    assert.match(r.stdout, /\d+\/\d+ chunks .*(ETA|in) [\d.]+s/);
    const bars = JSON.parse(readFileSync(out, 'utf8')) as unknown[];
    assert.match(
      r.stdout,
      new RegExp(`${bars.length.toLocaleString('en-US')} bars`),
      'the last line counts every bar',
    );
    assertNoKey(r);
  });

  test('no progress when standard error is piped, nor with --quiet on a terminal', async () => {
    const piped = await runBin(fullRange.split(' ').slice(2), env);
    assert.equal(piped.code, 0);
    assert.equal(piped.stderr, '');
    const quiet = await runOnTty(`${fullRange} --quiet > /dev/null`, env);
    assert.equal(quiet.code, 0);
    assert.doesNotMatch(quiet.stdout, /chunks|bars\/s/);
  });

  test('on a terminal the output defaults to a table with readable times', async () => {
    const [r, piped] = await Promise.all([
      runOnTty(`node ${bin} stocks get-previous-close SIMC`, env),
      runBin(['stocks', 'get-previous-close', 'SIMC'], env),
    ]);
    assert.equal(r.code, 0, r.stdout);
    const bar = (JSON.parse(piped.stdout) as { results: { t: number; c: number }[] }).results[0];
    assert.ok(bar);
    const wall = new Date(bar.t).toLocaleString('sv-SE', { timeZone: 'America/New_York' });
    assert.match(r.stdout, /─{4,}/);
    assert.ok(r.stdout.includes(`${wall} EST`), `readable ${wall}`);
    assert.ok(r.stdout.includes(String(bar.c)));
  });

  test('--all-pages on a terminal counts pages and items, and shows no page log lines', async () => {
    const out = join(dir, 'quotes.json');
    const r = await runOnTty(
      `node ${bin} stocks get-quotes-v3 SIMB --timestamp 2024-12-30 --limit 2000 --all-pages --output json > ${out}`,
      env,
    );
    assert.equal(r.code, 0, r.stdout);
    const quotes = (JSON.parse(readFileSync(out, 'utf8')) as { results: unknown[] }).results;
    assert.ok(quotes.length > 2000, 'several pages');
    const pages = Math.ceil(quotes.length / 2000);
    assert.match(
      r.stdout,
      new RegExp(`stocks get-quotes-v3 +${pages} pages +${quotes.length.toLocaleString('en-US')} items`),
    );
    assert.doesNotMatch(r.stdout, /Fetched page|No more pages/);
  });
});

describe('charts', () => {
  test('SVG: one candle per stored day bar, with dated time axis and price labels', async () => {
    const file = join(dir, 'chart.svg');
    const r = await runBin(['chart', 'SIMC', '2024-07-01', '2024-09-30', '--out', file], env);
    assert.equal(r.code, 0, r.stderr);
    assertNoKey(r);
    const svg = readFileSync(file, 'utf8');
    const want = await dailyBars('SIMC', '2024-07-01', '2024-09-30');
    const candles = [
      ...svg.matchAll(
        /<g class="candle" data-t="(\d+)" data-o="([\d.]+)" data-h="([\d.]+)" data-l="([\d.]+)" data-c="([\d.]+)"/g,
      ),
    ];
    assert.equal(candles.length, want.length);
    candles.forEach((m, i) => {
      const w = want[i] as (typeof want)[number];
      assert.deepEqual(m.slice(1, 6).map(Number), [w.t, w.o, w.h, w.l, w.c]);
    });
    const prices = [...svg.matchAll(/class="price-label"[^>]*>([\d,.]+)</g)].map((m) =>
      Number((m[1] as string).replace(/,/g, '')),
    );
    const lo = Math.min(...want.map((b) => b.l));
    const hi = Math.max(...want.map((b) => b.h));
    assert.ok(prices.length >= 4, 'several price labels');
    assert.ok(
      prices.some((p) => p <= (lo + hi) / 2) && prices.some((p) => p >= (lo + hi) / 2),
      'labels span the range',
    );
    assert.ok(
      prices.every((p) => p >= lo - (hi - lo) && p <= hi + (hi - lo)),
      'labels lie near the data',
    );
    const dates = [...svg.matchAll(/class="time-label"[^>]*>(\d{4}-\d{2}-\d{2})</g)].map((m) => m[1]);
    assert.ok(dates.length >= 4, 'several dated time labels');
    assert.equal(dates[0], '2024-07-01');
    assert.match(svg, /<title>SIMC · day bars · 2024-07-01 → 2024-09-30<\/title>/);
    assert.match(svg, /class="volume-label"/);
  });

  test('PNG: a valid picture of the requested size', async () => {
    const file = join(dir, 'chart.png');
    const r = await runBin(
      [
        'chart',
        'SIMA',
        '2024-12-30',
        '2024-12-31',
        '--timespan',
        'minute',
        '--multiplier',
        '15',
        '--out',
        file,
        '--width',
        '900',
        '--height',
        '500',
      ],
      env,
    );
    assert.equal(r.code, 0, r.stderr);
    const png = readFileSync(file);
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.equal(png.subarray(12, 16).toString('latin1'), 'IHDR');
    assert.equal(png.readUInt32BE(16), 900);
    assert.equal(png.readUInt32BE(20), 500);
    assert.ok(png.length > 10_000, 'a picture with content, not a blank page');
  });

  test('terminal: price axis with the extremes, volume strip and date labels', async () => {
    const r = await runBin(['chart', 'SIME', '2024-11-01', '2024-11-29', '--width', '90'], env);
    assert.equal(r.code, 0, r.stderr);
    const want = await dailyBars('SIME', '2024-11-01', '2024-11-29');
    const lines = r.stdout.split('\n');
    assert.match(lines[0] as string, /^SIME · day bars · 2024-11-01 → 2024-11-29/);
    const hi = Math.max(...want.map((b) => b.h));
    const lo = Math.min(...want.map((b) => b.l));
    assert.ok(r.stdout.includes(`┤ ${hi.toFixed(2)}`), `top label ${hi}`);
    assert.ok(r.stdout.includes(`┤ ${lo.toFixed(2)}`), `bottom label ${lo}`);
    assert.match(r.stdout, /┤ vol [\d.]+[KMB]?/);
    assert.match(r.stdout, /└11-01/);
    assert.ok(
      lines.every((l) => l.length <= 90),
      'fits the width',
    );
    assert.ok(!r.stdout.includes('\x1b['), 'no colour when piped');
  });

  test('forex (real Lean quotes, no volume): candles without a volume pane, from a local server with no key', async (t) => {
    const real = await fixtureServer(t);
    if (!real) return;
    const file = join(dir, 'eurusd.svg');
    const args = [
      'chart',
      'C:EURUSD',
      '2014-05-01',
      '2014-05-01',
      '--timespan',
      'hour',
      '--base-url',
      real.url,
    ];
    const [svg, text] = await Promise.all([
      runBin([...args, '--out', file]),
      runBin([...args, '--height', '8']),
    ]);
    assert.equal(svg.code, 0, svg.stderr);
    assert.equal(text.code, 0, text.stderr);
    const picture = readFileSync(file, 'utf8');
    const volumes = [...picture.matchAll(/<g class="candle"[^>]* data-v="([\d.]+)"/g)].map((m) =>
      Number(m[1]),
    );
    assert.ok(volumes.length >= 20, `${volumes.length} hourly candles`);
    assert.ok(
      volumes.every((v) => v === 0),
      'the stored forex bars have no volume',
    );
    assert.doesNotMatch(picture, /class="volume/);
    assert.doesNotMatch(text.stdout, /vol/);
    assert.equal(text.stdout.trimEnd().split('\n').length, 1 + 8 + 1, 'title, price rows, date axis');
  });

  test('futures (real Lean bars): hour candles from the hour bars, session candles from the daily bars', async (t) => {
    const futuresRoot = `${sharedDir}marketdata-futures/lean/`;
    if (!hasShared(t, futuresRoot)) return;
    const work = mkdtempSync(join(tmpdir(), 'mdq-futures-chart-'));
    t.after(() => rmSync(work, { recursive: true, force: true }));
    const db = join(work, 'store.duckdb');
    const futuresStore = await DuckDbStore.open(db);
    try {
      await ingestLean(futuresStore, futuresRoot);
    } finally {
      futuresStore.close();
    }
    const futures = await startServer({ db, port: 0, log: () => {} });
    t.after(() => futures.close());
    /** ESZ3's rows of a raw hour or daily zip (`YYYYMMDD HH:mm` UTC, o, h, l, c, v) as candles. */
    const raw = (file: string) => {
      const entries = unzipSync(readFileSync(`${futuresRoot}future/cme/${file}`));
      const text = new TextDecoder().decode(
        entries[file.replace(/^.*\//, '').replace('.zip', '_201312.csv')],
      );
      return text
        .split(/\r?\n/)
        .filter((l) => l !== '')
        .map((l) => {
          const [stamp, ...v] = l.split(',') as [string, ...string[]];
          const t = Date.UTC(
            +stamp.slice(0, 4),
            +stamp.slice(4, 6) - 1,
            +stamp.slice(6, 8),
            +stamp.slice(9, 11),
          );
          return [t, ...v.map(Number)] as number[];
        });
    };
    // 2013-10-07 to 2013-10-09, New York days: 04:00 UTC on the 7th to 04:00 UTC on the 10th.
    const hours = raw('hour/es_trade.zip').filter(
      ([ms]) => (ms as number) >= Date.UTC(2013, 9, 7, 4) && (ms as number) < Date.UTC(2013, 9, 10, 4),
    );
    const file = join(dir, 'esz3.svg');
    const svg = await runBin([
      'chart',
      'ESZ3',
      '2013-10-07',
      '2013-10-09',
      '--timespan',
      'hour',
      '--base-url',
      futures.url,
      '--out',
      file,
    ]);
    assert.equal(svg.code, 0, svg.stderr);
    const candles = [
      ...readFileSync(file, 'utf8').matchAll(
        /<g class="candle" data-t="(\d+)" data-o="([\d.]+)" data-h="([\d.]+)" data-l="([\d.]+)" data-c="([\d.]+)" data-v="([\d.]+)"/g,
      ),
    ].map((m) => m.slice(1, 7).map(Number));
    assert.ok(hours.length > 40, `${hours.length} hour bars`);
    assert.deepEqual(candles, hours);

    const days = raw('daily/es_trade.zip').filter(
      ([ms]) => (ms as number) >= Date.UTC(2013, 9, 7) && (ms as number) <= Date.UTC(2013, 9, 11),
    );
    const text = await runBin([
      'chart',
      'ESZ3',
      '2013-10-07',
      '2013-10-11',
      '--base-url',
      futures.url,
      '--width',
      '80',
    ]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^ESZ3 · day bars · 2013-10-07 → 2013-10-11 \(UTC\)/);
    // Session candles start at UTC midnight of their trading date: the axis starts on the 7th.
    assert.match(text.stdout, /└10-07/);
    const hi = Math.max(...days.map((d) => d[2] as number));
    const lo = Math.min(...days.map((d) => d[3] as number));
    const labels = [...text.stdout.matchAll(/┤ ([\d,.]+)\n/g)].map((m) =>
      Number((m[1] as string).replace(/,/g, '')),
    );
    assert.ok(labels.length >= 3, 'several price labels');
    assert.ok(
      labels.some((p) => p <= (lo + hi) / 2) && labels.some((p) => p >= (lo + hi) / 2),
      'labels span the range',
    );
    assert.ok(
      labels.every((p) => p >= lo - (hi - lo) && p <= hi + (hi - lo)),
      'labels lie near the data',
    );
    const bad = await runBin([
      'chart',
      'ESZ3',
      '2013-10-07',
      '2013-10-11',
      '--timespan',
      'tick',
      '--base-url',
      futures.url,
    ]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Invalid --timespan: "tick"; expected one of second, minute, hour, day, week/);
  });

  test('a picture file name must end in .svg or .png', async () => {
    const r = await runBin(
      ['chart', 'SIMA', '2024-12-01', '2024-12-31', '--out', join(dir, 'chart.gif'), '--api-key', KEY],
      env,
    );
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Invalid --out: .*chart\.gif.*\.svg or \.png/);
  });
});

describe('helpers', () => {
  test('symbols build, parse, convert and detect', async () => {
    const [build, parse, convert, detect] = await Promise.all([
      runBin(['symbols', 'build', 'AMD', '2022-01-21', 'call', '100.5', '--output', 'table']),
      runBin(['symbols', 'parse', 'O:AMD220121C00100500']),
      runBin(['symbols', 'convert', 'O:AMD220628P00096050', 'polygon', 'tda', '--output', 'table']),
      runBin(['symbols', 'detect', 'AMD 220121C100']),
    ]);
    // Examples of the option-symbol documentation.
    assert.equal(build.stdout, 'AMD220121C00100500\n');
    assert.deepEqual(
      JSON.parse(parse.stdout),
      parseOptionSymbol('O:AMD220121C00100500', { outputFormat: 'dict', expiryFormat: 'string' }),
    );
    assert.equal(convert.stdout, 'AMD_062822P96.05\n');
    const [named, toOnly] = await Promise.all([
      runBin(['symbols', 'convert', 'AMD220121C00100000', '--from', 'polygon', '--to', 'tda', '-o', 'table']),
      runBin(['symbols', 'convert', 'AMD220121C00100000', 'tos', '-o', 'table']),
    ]);
    assert.equal(named.stdout, `${convertOptionSymbolFormats('AMD220121C00100000', 'polygon', 'tda')}\n`);
    assert.equal(toOnly.stdout, `${convertOptionSymbolFormats('AMD220121C00100000', 'polygon', 'tos')}\n`);
    assert.deepEqual(JSON.parse(detect.stdout), ['trade_station']);
  });

  test('dates split: 45-day minute chunks that tile the range', async () => {
    const r = await runBin(['dates', 'split', '2024-01-01', '2024-03-31', '--timespan', 'minute']);
    assert.equal(r.code, 0, r.stderr);
    const chunks = JSON.parse(r.stdout) as { startMs: number; endMs: number; start: string }[];
    assert.equal(chunks[0]?.start, '2024-01-01T05:00:00.000Z', 'New York midnight');
    assert.equal(chunks[chunks.length - 1]?.endMs, Date.parse('2024-04-01T04:00:00Z'));
    for (let i = 1; i < chunks.length; i++) assert.equal(chunks[i]?.startMs, chunks[i - 1]?.endMs);
    assert.equal(chunks.length, Math.ceil(91 / 45));
  });
});
