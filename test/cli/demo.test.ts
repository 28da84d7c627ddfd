import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { unzipSync } from 'fflate';
import { openDemoStore } from '../../src/demo/demo-store.js';
import { hasShared, leanDir, sharedDir } from '../support/shared.js';
import { assertNoKey, KEY, root, runBin, simDbPath } from './support.js';

let dir: string;
const futuresLeanDir = `${sharedDir}marketdata-futures/lean/`;

before(async () => {
  // The cached simulated market (generated on first use), so the demo here starts at once.
  (await openDemoStore(simDbPath)).store.close();
  dir = mkdtempSync(join(tmpdir(), 'mdq-demo-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('mdq demo walks through every step over the simulated market and exits 0', async () => {
  // A key in the environment must not show up, though the demo needs none.
  const r = await runBin(['demo', '--db', simDbPath, '--out-dir', dir], { MASSIVE_API_KEY: KEY });
  assert.equal(r.code, 0, r.stderr);
  assertNoKey(r);
  const out = r.stdout;
  assert.match(out.split('\n')[0] as string, /^mdq demo — SIMULATED MARKET/);
  // The web page's address, on the demo's stock, answered by the server while the demo ran.
  assert.match(
    out,
    /\nweb page: http:\/\/127\.0\.0\.1:\d+\/\?ticker=SIM[A-E]&from=\d{4}-\d\d-\d\d&to=\d{4}-\d\d-\d\d&timespan=minute&view=chart \(while the demo runs/,
  );
  const sections = out.split('\n').filter((l) => /^── \d+\. /.test(l));
  assert.equal(sections.length, 9);
  for (const s of sections) assert.ok(s.endsWith('[SIMULATED market data]'), `labelled: ${s}`);
  for (const step of [
    'Bars of a custom window',
    'full range',
    'Indicators',
    'snapshot and the day’s gainers',
    'option symbol in every format',
    'currency conversion',
    'crypto around the clock',
    'the simulated market live over WebSocket',
    'candlestick chart',
  ]) {
    assert.ok(out.includes(step), step);
  }
  // The full-range step fetched the stock's year of minute bars.
  const full = /([\d,]+) minute bars over (\d+) trading days/.exec(out);
  assert.ok(full, 'full-range summary');
  assert.equal(Number(full[2]), 252);
  assert.ok(Number((full[1] as string).replace(/,/g, '')) > 90_000);
  // Every option-symbol format, the contract's greeks and a conversion.
  for (const f of ['polygon', 'tradier', 'occ', 'tda', 'tos', 'ibkr', 'trade_station'])
    assert.match(out, new RegExp(` ${f}\\b`));
  assert.match(out, /100 EUR = [\d.]+ USD/);
  // A few seconds of the live stream: trades, quotes and per-second aggregates of the stock, then closed.
  const streamed = out
    .split('\n')
    .filter((l) => /^ {3}\d{2}:\d{2}:\d{2}(\.\d{3})? [A-Z]+\s+(T|Q|A)\s+SIM[A-Z]\s/.test(l));
  assert.ok(streamed.length >= 3, `streamed events:\n${out}`);
  assert.match(out, /\n {3}\d+ events in [\d.]+ s, then the stream closed cleanly\n/);
  const svg = readFileSync(join(dir, 'chart.svg'), 'utf8');
  assert.match(svg, /SIMULATED market data/);
  assert.equal(readFileSync(join(dir, 'chart.png')).subarray(1, 4).toString('latin1'), 'PNG');
  assert.ok(
    out.trimEnd().endsWith('done: every call above went through the mdq clients to the local server.'),
  );
});

test('mdq demo --data refuses a folder that does not exist', async () => {
  const r = await runBin(['demo', '--data', join(dir, 'nope'), '--db', join(dir, 'x.duckdb')]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /Invalid --data: .*nope.* is not a folder/);
});

test('mdq demo --data runs the same walk-through over real Lean files, from two roots', async (t) => {
  if (!hasShared(t, leanDir) || !hasShared(t, futuresLeanDir)) return;
  // A small Lean root built from a few of the market-data files: SPY minute trades of three days and
  // its daily history, EUR/USD minutes for the conversion.
  const lean = join(dir, 'lean');
  const pick = (rel: string) => {
    mkdirSync(dirname(join(lean, rel)), { recursive: true });
    copyFileSync(join(leanDir, rel), join(lean, rel));
  };
  for (const day of ['20131007', '20131008', '20131009']) pick(`equity/usa/minute/spy/${day}_trade.zip`);
  pick('equity/usa/daily/spy.zip');
  for (const f of readdirSync(join(leanDir, 'forex/oanda/minute/eurusd')).slice(0, 1)) {
    pick(`forex/oanda/minute/eurusd/${f}`);
  }
  // A second root: ES minute trades of one day and its daily bars, from the futures beside the market data.
  const futures = join(dir, 'futures', 'lean');
  for (const rel of ['future/cme/minute/es/20131007_trade.zip', 'future/cme/daily/es_trade.zip']) {
    mkdirSync(dirname(join(futures, rel)), { recursive: true });
    copyFileSync(join(futuresLeanDir, rel), join(futures, rel));
  }
  const r = await runBin([
    'demo',
    '--data',
    lean,
    '--data',
    futures,
    '--db',
    join(dir, 'lean.duckdb'),
    '--out-dir',
    join(dir, 'lean-out'),
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout.split('\n')[0] as string, /^mdq demo — real data ingested from the Lean folders/);
  assert.match(r.stderr, /ingested \d+ files of .*lean /);
  assert.match(r.stderr, /ingested 2 files of .*futures.lean /);
  const sections = r.stdout.split('\n').filter((l) => /^── \d+\. /.test(l));
  assert.ok(sections.length >= 6);
  for (const s of sections) assert.ok(s.endsWith(`[Lean data: ${lean}, ${futures}]`), s);
  // The futures step: ESZ3's sessions up to the trading date of its last minute bar (the bars of the
  // 7th run past 18:00 New York, into the 8th's session), the closes those of Lean's daily bars.
  assert.match(
    r.stdout,
    /\$ mdq futures get-aggregates ESZ3 --resolution 1session --window-start-lte 2013-10-08 --limit 5/,
  );
  const daily = unzipSync(readFileSync(join(futures, 'future/cme/daily/es_trade.zip')))[
    'es_trade_201312.csv'
  ];
  const closes = new TextDecoder()
    .decode(daily)
    .split('\n')
    .filter((l) => l >= '20131006' && l < '20131009')
    .map((l) => l.split(',')[4] as string);
  assert.equal(closes.length, 3);
  const step = r.stdout.slice(r.stdout.indexOf('Futures: a contract'));
  for (const close of closes) assert.match(step, new RegExp(`\\b${close.replace('.', '\\.')}\\b`));
  assert.match(step, /ESZ3: trades \d{4}-\d{2}-\d{2} to 2013-12-20 on XCME, tick 0\.25/);
  assert.match(
    r.stdout,
    /\$ mdq stocks get-aggregate-bars SPY 2013-10-07 2013-10-09 --timespan minute --full-range/,
  );
  assert.match(r.stdout, /[\d,]+ minute bars over 3 trading days/);
  // The stream replays the store's ticks; these files hold only minute bars, so it says so and closes.
  assert.match(r.stdout, /Streaming: a replay of the stored ticks over WebSocket/);
  assert.match(
    r.stdout,
    /\n {3}no events in [\d.]+ s \(no trades or quotes of SPY stored\), then the stream closed cleanly\n/,
  );
});

test('the demo depends on nothing of the command line: it writes through the console its host gives it', () => {
  const demo = join(root, 'src', 'demo');
  for (const file of readdirSync(demo).filter((f) => f.endsWith('.ts'))) {
    const imports = [
      ...readFileSync(join(demo, file), 'utf8').matchAll(/^\s*(?:import|export)\b[^;]*?from '([^']+)'/gms),
    ].map((m) => m[1] as string);
    if (file === 'walkthrough.ts') assert.ok(imports.includes('../clients/index.js'), 'imports are read');
    const intoCli = imports.filter((spec) => /(^|\/)cli\//.test(spec));
    assert.deepEqual(intoCli, [], `${file} imports ${intoCli.join(', ')}`);
  }
});
