import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { niceTicks, resample } from '../../src/chart/candles.js';
import { parseArgv } from '../../src/cli/argv.js';
import { render } from '../../src/cli/output.js';
import { formatProgress } from '../../src/cli/progress.js';
import { rowsOf } from '../../src/cli/rows.js';
import { formatTime, timestampMs } from '../../src/cli/time-format.js';

describe('argument parsing', () => {
  const flags = new Set(['full-range', 'quiet', 'help']);
  test('values, flags, negations, short options and --', () => {
    const p = parseArgv(
      [
        'SIMA',
        '--timespan',
        'minute',
        '--multiplier=5',
        '--full-range',
        '--no-quiet',
        '-o',
        'csv',
        '-5',
        '--',
        '--not-an-option',
      ],
      flags,
    );
    assert.deepEqual(p.positionals, ['SIMA', '-5', '--not-an-option']);
    assert.deepEqual(Object.fromEntries(p.options), {
      timespan: ['minute'],
      multiplier: ['5'],
      'full-range': ['true'],
      quiet: ['false'],
      output: ['csv'],
    });
  });
  test('a flag takes a following true/false; a value option without a value is an error', () => {
    assert.deepEqual(parseArgv(['--full-range', 'false', 'X'], flags).options.get('full-range'), ['false']);
    assert.throws(() => parseArgv(['--timespan'], flags), /--timespan needs a value/);
    assert.throws(() => parseArgv(['--limit', '--all-pages'], flags), /--limit needs a value/);
    assert.throws(() => parseArgv(['-z'], flags), /Unknown option -z/);
  });
});

describe('output', () => {
  test('rows of the response shapes: lists, results, tickers, indicator values, pages', () => {
    assert.deepEqual(rowsOf([{ t: 1 }, { t: 2 }]), [{ t: 1 }, { t: 2 }]);
    assert.deepEqual(rowsOf({ results: [{ a: { b: 1 } }] }), [{ 'a.b': 1 }]);
    assert.deepEqual(rowsOf({ results: { values: [{ value: 3 }] } }), [{ value: 3 }]);
    assert.deepEqual(rowsOf({ tickers: [{ ticker: 'X', day: { c: 2 } }] }), [{ ticker: 'X', 'day.c': 2 }]);
    assert.deepEqual(rowsOf([{ results: [{ i: 1 }] }, { results: [{ i: 2 }] }]), [{ i: 1 }, { i: 2 }]);
    assert.deepEqual(rowsOf({ status: 'OK', ticker: { ticker: 'A' } }), [{ ticker: 'A' }]);
  });
  test('CSV quotes what needs quoting and keeps bigint nanoseconds exact', () => {
    const ns = 1735678799838358866n;
    const csv = render({ results: [{ name: 'a, "b"', sip_timestamp: ns }] }, 'csv', { timeZone: 'UTC' });
    // Time columns lead, as in tables.
    assert.equal(csv, `sip_timestamp,name\n${ns},"a, ""b"""\n`);
    const nd = render({ results: [{ sip_timestamp: ns }] }, 'ndjson', { timeZone: 'UTC' });
    assert.equal(nd, `{"sip_timestamp":${ns}}\n`);
  });
  test('timestamps in ms, µs and ns read as the same instant', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1e12, max: 4e12 }), (ms) => {
        assert.equal(timestampMs(ms), ms);
        assert.equal(timestampMs(BigInt(ms) * 1_000_000n), ms);
        assert.equal(timestampMs(ms * 1000), ms);
        assert.equal(
          timestampMs(BigInt(ms) * 1_000_000n + 999_999n),
          ms,
          'the sub-millisecond part is dropped',
        );
      }),
    );
    assert.equal(formatTime(Date.UTC(2024, 6, 1, 13, 30), 'America/New_York'), '2024-07-01 09:30:00 EDT');
    assert.equal(timestampMs(42), undefined);
  });
});

describe('progress and charts', () => {
  test('a progress line: bar, counts, rate, ETA', () => {
    const line = formatProgress(
      'bars',
      { done: 3, total: 12, unit: 'chunks', items: 30000, itemUnit: 'bars' },
      2,
    );
    assert.equal(line, 'bars  [######------------------]  3/12 chunks  30,000 bars  15,000 bars/s  ETA 6.0s');
    assert.match(formatProgress('x', { done: 4, unit: 'pages' }, 1), /^x {2}4 pages {2}4 pages\/s$/);
  });
  test('nice ticks are round, ordered and inside the range', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.001, max: 1e5, noNaN: true }),
        fc.double({ min: 0.0001, max: 1e4, noNaN: true }),
        (lo, span) => {
          const ticks = niceTicks(lo, lo + span, 6);
          assert.ok(ticks.length >= 2 && ticks.length <= 13, `${ticks.length} ticks`);
          for (let i = 1; i < ticks.length; i++) assert.ok((ticks[i] as number) > (ticks[i - 1] as number));
          assert.ok(ticks.every((t) => t >= lo - span * 1e-9 && t <= lo + span * (1 + 1e-9)));
        },
      ),
    );
  });
  test('resampling keeps the first open, the last close, the extremes and the total volume', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: 1, max: 100, noNaN: true }), fc.nat(1000)), {
          minLength: 1,
          maxLength: 400,
        }),
        fc.integer({ min: 1, max: 120 }),
        (pts, max) => {
          const candles = pts.map(([p, v], i) => ({ t: i, o: p, h: p + 1, l: p - 1, c: p + 0.5, v }));
          const out = resample(candles, max);
          assert.ok(out.length <= max);
          assert.equal(out[0]?.o, candles[0]?.o);
          assert.equal(out[out.length - 1]?.c, candles[candles.length - 1]?.c);
          assert.equal(Math.max(...out.map((c) => c.h)), Math.max(...candles.map((c) => c.h)));
          assert.equal(Math.min(...out.map((c) => c.l)), Math.min(...candles.map((c) => c.l)));
          assert.equal(
            out.reduce((a, c) => a + c.v, 0),
            candles.reduce((a, c) => a + c.v, 0),
          );
        },
      ),
    );
  });
});
