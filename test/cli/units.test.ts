import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { niceTicks, resample } from '../../src/chart/candles.js';
import { renderSvgChart } from '../../src/chart/svg.js';
import { renderTerminalChart } from '../../src/chart/terminal.js';
import { parseArgv } from '../../src/cli/argv.js';
import { closest } from '../../src/cli/closest.js';
import { render } from '../../src/cli/output.js';
import { formatProgress } from '../../src/cli/progress.js';
import { rowsOf } from '../../src/table/rows.js';
import { formatTime, timestampMs } from '../../src/table/time-format.js';

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
  test('-V asks for the version', () => {
    assert.deepEqual(parseArgv(['-V'], new Set(['version'])).options.get('version'), ['true']);
  });
  test('the closest known name of a mistyped one, and none for a word unlike every name', () => {
    const names = ['limit', 'order', 'sort', 'timestamp', 'all-pages', 'max-pages', 'output'];
    assert.equal(closest('limt', names), 'limit');
    assert.equal(closest('lmiit', names), 'limit');
    assert.equal(closest('Ordr', names), 'order');
    assert.equal(closest('all-page', names), 'all-pages');
    assert.equal(closest('time', names), 'timestamp');
    assert.equal(closest('colour', names), undefined);
    assert.equal(closest('x', names), undefined);
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
  test('ndjson keeps nested objects and lists as JSON, one line per item', () => {
    const item = {
      ticker: 'O:X',
      day: { c: 2, v: 10 },
      greeks: { delta: 0.5 },
      conditions: [1, 2],
      legs: [{ a: 1 }],
    };
    const nd = render({ status: 'OK', results: [item, { ticker: 'O:Y' }] }, 'ndjson', { timeZone: 'UTC' });
    const lines = nd.trimEnd().split('\n');
    assert.equal(lines.length, 2);
    assert.deepEqual(JSON.parse(lines[0] as string), item);
    assert.doesNotMatch(nd, /object Object|"day\.c"/);
  });
  test('a currency conversion is one row with the converted amount beside the quote', () => {
    const conversion = {
      converted: 73.14,
      from: 'AUD',
      initialAmount: 100,
      last: { ask: 1.3673344, bid: 1.3672596, exchange: 48, timestamp: 1605555313000 },
      request_id: 'a73a29dbcab4613eeaf48583d3baacf0',
      status: 'success',
      symbol: 'AUD/USD',
      to: 'USD',
    };
    const [row] = rowsOf(conversion);
    assert.equal(row?.converted, 73.14);
    assert.equal(row?.initialAmount, 100);
    assert.equal(row?.['last.bid'], 1.3672596);
    const text = render(conversion, 'table', { timeZone: 'UTC' });
    assert.match(text.split('\n')[0] as string, /\bconverted\b.*\binitialAmount\b/);
    assert.match(text, /73\.14/);
    // A last quote alone stays the quote's row.
    assert.deepEqual(rowsOf({ status: 'success', symbol: 'AUD/USD', last: { ask: 1, bid: 2 } }), [
      { ask: 1, bid: 2 },
    ]);
  });
  test('--columns picks table and CSV columns in its order; a parent name picks its children', () => {
    const value = { results: [{ ticker: 'A', day: { o: 1, c: 2 }, prevDay: { c: 3 }, todaysChange: 4 }] };
    const opts = { timeZone: 'UTC' };
    assert.equal(
      render(value, 'csv', { ...opts, select: ['todaysChange', 'ticker'] }),
      'todaysChange,ticker\n4,A\n',
    );
    assert.equal(
      render(value, 'csv', { ...opts, select: ['day', 'prevDay.c'] }),
      'day.o,day.c,prevDay.c\n1,2,3\n',
    );
    const table = render(value, 'table', { ...opts, select: ['ticker', 'day.c'] });
    assert.match(table.split('\n')[0] as string, /^ticker +day\.c$/);
    assert.throws(
      () => render(value, 'table', { ...opts, select: ['nope'] }),
      /Invalid --columns: "nope" is not a column of this result; columns: ticker, day\.o/,
    );
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
  test('no volume pane when no candle has a volume (forex); one when some do', () => {
    const t0 = Date.UTC(2024, 0, 2);
    const bars = (v: number | undefined) =>
      Array.from({ length: 20 }, (_, i) => ({
        t: t0 + i * 86_400_000,
        o: 1.1,
        h: 1.2,
        l: 1.0,
        c: 1.15,
        v: v as number,
      }));
    for (const v of [0, undefined]) {
      const text = renderTerminalChart(bars(v), { title: 'C:EURUSD', timeZone: 'UTC', height: 8 });
      assert.doesNotMatch(text, /vol/);
      assert.equal(text.trimEnd().split('\n').length, 1 + 8 + 1, 'title, price rows and the date axis');
      const svg = renderSvgChart(bars(v), { title: 'C:EURUSD', timeZone: 'UTC' });
      assert.doesNotMatch(svg, /class="volume/);
      assert.doesNotMatch(svg, /NaN/);
    }
    assert.match(renderTerminalChart(bars(5), { title: 'X', timeZone: 'UTC', height: 8 }), /┤ vol 5/);
    assert.match(renderSvgChart(bars(5), { title: 'X', timeZone: 'UTC' }), /class="volume"/);
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
