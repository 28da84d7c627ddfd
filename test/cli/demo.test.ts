import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openDemoStore } from '../../src/demo/demo-store.js';
import { assertNoKey, KEY, runBin, simDbPath } from './support.js';

let dir: string;

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
  const sections = out.split('\n').filter((l) => /^── \d+\. /.test(l));
  assert.equal(sections.length, 8);
  for (const s of sections) assert.ok(s.endsWith('[SIMULATED market data]'), `labelled: ${s}`);
  for (const step of [
    'Bars of a custom window',
    'full range',
    'Indicators',
    'snapshot and the day’s gainers',
    'option symbol in every format',
    'currency conversion',
    'crypto around the clock',
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
