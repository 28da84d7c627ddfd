import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { InvalidParameterError } from '../../src/core/errors.js';
import { type ParamSpec, type ParamType, t } from '../../src/core/operation.js';
import { clampToMax, decodeParam, encodeParam, isInRange } from '../../src/core/wire-values.js';

const spec = <T extends ParamType>(
  type: T,
  name = 'value',
  wire = 'value.wire',
): ParamSpec & { type: T } => ({
  name,
  wire,
  in: 'query',
  type,
  doc: '',
});

/** Asserts an InvalidParameterError naming `parameter`, showing the value, and saying what is allowed. */
function rejects(call: () => unknown, parameter: string, allowed?: RegExp): void {
  assert.throws(call, (e: unknown) => {
    assert.ok(e instanceof InvalidParameterError, `expected InvalidParameterError, got ${String(e)}`);
    assert.equal(e.parameter, parameter);
    assert.match(e.message, new RegExp(`^Invalid ${parameter.replace('.', '\\.')}: `));
    if (allowed) assert.match(e.message, allowed);
    return true;
  });
}

const ns = (iso: string, extraNs = 0n) => BigInt(Date.parse(iso)) * 1_000_000n + extraNs;

describe('encodeParam', () => {
  test('string: any non-empty string, nothing else', () => {
    const p = spec(t.string(), 'search');
    assert.equal(encodeParam(p, 'Apple Inc.'), 'Apple Inc.');
    rejects(() => encodeParam(p, ''), 'search', /non-empty string/);
    rejects(() => encodeParam(p, 5), 'search');
  });

  test('ticker: trimmed, upper-cased, declared prefix added once, no URL metacharacters', () => {
    const stock = spec(t.ticker(), 'symbol');
    assert.equal(encodeParam(stock, ' aapl '), 'AAPL');
    assert.equal(encodeParam(stock, 'brk.b'), 'BRK.B');
    const option = spec(t.ticker('O:'), 'optionSymbol');
    // Reference examples: TsLa120110p00123000 → O:TSLA120110P00123000; o: counts as a prefix.
    assert.equal(encodeParam(option, 'TsLa120110p00123000'), 'O:TSLA120110P00123000');
    assert.equal(encodeParam(option, 'o:tsla120110C00123000'), 'O:TSLA120110C00123000');
    assert.equal(encodeParam(option, 'O:TSLA120110C00123000'), 'O:TSLA120110C00123000');
    const forex = spec(t.ticker('C:'), 'symbol');
    assert.equal(encodeParam(forex, 'eurusd'), 'C:EURUSD');
    rejects(() => encodeParam(forex, 'X:BTCUSD'), 'symbol', /C: prefix/);
    for (const bad of ['', '   ', 'C:EUR/USD', 'AA PL', 'AAPL?x=1', 'AAPL#', 'A\tB']) {
      rejects(() => encodeParam(forex, bad), 'symbol', /without "\/", "\?", "#" or whitespace/);
    }
    rejects(() => encodeParam(stock, 42), 'symbol');
    rejects(() => encodeParam(stock, ['AAPL']), 'symbol');
  });

  test('pair: 2 to 10 letters or digits, upper-cased', () => {
    const p = spec(t.pair(), 'fromSymbol');
    assert.equal(encodeParam(p, 'eur'), 'EUR');
    assert.equal(encodeParam(p, ' btc '), 'BTC');
    assert.equal(encodeParam(p, 'USDT1'), 'USDT1');
    for (const bad of ['E', 'EUR/USD', 'ABCDEFGHIJK', 'EU R', '', 7])
      rejects(() => encodeParam(p, bad), 'fromSymbol');
  });

  test('int: integer numbers or bigints within min/max, no string coercion', () => {
    const p = spec(t.int(1, 50000), 'limit');
    assert.equal(encodeParam(p, 1), '1');
    assert.equal(encodeParam(p, 50000), '50000');
    assert.equal(encodeParam(p, 120n), '120');
    for (const bad of [0, 50001, 1.5, '10', Number.NaN, Number.POSITIVE_INFINITY, 0n, 50001n, true, null]) {
      rejects(() => encodeParam(p, bad), 'limit', /integer from 1 to 50000/);
    }
    assert.equal(encodeParam(spec(t.int()), -3), '-3');
    rejects(() => encodeParam(spec(t.int()), 2 ** 60), 'value');
  });

  test('number: finite, within min/max', () => {
    const p = spec(t.number(0), 'amount');
    assert.equal(encodeParam(p, 100.25), '100.25');
    assert.equal(encodeParam(p, 0), '0');
    for (const bad of [-0.01, Number.NaN, Number.POSITIVE_INFINITY, '1', 1n]) {
      rejects(() => encodeParam(p, bad), 'amount', /finite number of at least 0/);
    }
  });

  test('boolean: true and false are both sent (false is not dropped); nothing else', () => {
    const p = spec(t.boolean(), 'adjusted');
    assert.equal(encodeParam(p, true), 'true');
    assert.equal(encodeParam(p, false), 'false');
    for (const bad of ['true', 'False', 0, 1, null])
      rejects(() => encodeParam(p, bad), 'adjusted', /true or false/);
  });

  test('enum: exact values and declared aliases', () => {
    const p = spec(t.enum(['second', 'minute', 'hour', 'day'], { min: 'minute' }), 'timespan');
    assert.equal(encodeParam(p, 'hour'), 'hour');
    assert.equal(encodeParam(p, 'min'), 'minute');
    for (const bad of ['HOUR', 'Day', 'toString', 'constructor', '', 1]) {
      rejects(() => encodeParam(p, bad), 'timespan', /"second", "minute", "hour", "day", "min"/);
    }
  });

  test('date: YYYY-MM-DD of a DateInput', () => {
    const p = spec(t.date(), 'date');
    assert.equal(encodeParam(p, '2024-02-29'), '2024-02-29');
    assert.equal(encodeParam(p, new Date('2024-02-29T23:00:00-05:00')), '2024-03-01');
    for (const bad of [
      '2024-02-30',
      '2024-2-29',
      1709164800000,
      new Date(Number.NaN),
      '2024-02-29T00:00:00Z',
    ]) {
      rejects(() => encodeParam(p, bad), 'date', /YYYY-MM-DD/);
    }
  });

  test('dateOrMs: a day stays a day, an instant becomes Unix ms', () => {
    const p = spec(t.dateOrMs(), 'fromDate');
    assert.equal(encodeParam(p, '2024-01-02'), '2024-01-02');
    assert.equal(encodeParam(p, new Date(Date.UTC(2024, 0, 2))), '2024-01-02');
    assert.equal(
      encodeParam(p, new Date('2024-01-02T14:30:00Z')),
      String(Date.parse('2024-01-02T14:30:00Z')),
    );
    assert.equal(encodeParam(p, 1704205800000), '1704205800000');
    assert.equal(encodeParam(p, '2024-01-02T09:30:00-05:00'), String(Date.parse('2024-01-02T14:30:00Z')));
    for (const bad of ['1704205800000', -1, 1.5, '2024-01-02T09:30:00.0000001Z', '2024-13-02', null]) {
      rejects(() => encodeParam(p, bad), 'fromDate');
    }
  });

  test('nsTimestamp: days stay days; instants become exact nanoseconds', () => {
    const p = spec(t.nsTimestamp(), 'timestampGte');
    assert.equal(encodeParam(p, '2024-01-02'), '2024-01-02');
    assert.equal(encodeParam(p, new Date(Date.UTC(2024, 0, 2))), '2024-01-02');
    assert.equal(
      encodeParam(p, new Date('2024-01-02T14:30:00.123Z')),
      String(ns('2024-01-02T14:30:00.123Z')),
    );
    assert.equal(
      encodeParam(p, '2022-05-10T14:11:12.690661189Z'),
      String(ns('2022-05-10T14:11:12.690Z', 661_189n)),
    );
    assert.equal(encodeParam(p, '2022-05-10T10:11:12.5-04:00'), String(ns('2022-05-10T14:11:12.500Z')));
    assert.equal(encodeParam(p, 1651181822461636612n), '1651181822461636612');
    assert.equal(encodeParam(p, 1651181822000000000), '1651181822000000000');
    for (const bad of [
      '1651181822461636612',
      -1n,
      -1,
      1.5,
      '2022-05-10T14:11:12',
      new Date(Number.NaN),
      true,
    ]) {
      rejects(() => encodeParam(p, bad), 'timestampGte', /nanosecond/);
    }
  });

  test('nsOffset and msOffset', () => {
    const nsOff = spec(t.nsOffset(), 'timestamp');
    assert.equal(encodeParam(nsOff, 1651181822461636612n), '1651181822461636612');
    assert.equal(
      encodeParam(nsOff, new Date('2024-01-02T00:00:00.001Z')),
      String(ns('2024-01-02T00:00:00.001Z')),
    );
    for (const bad of ['1651181822461636612', -5n, 2.5, '2024-01-02'])
      rejects(() => encodeParam(nsOff, bad), 'timestamp');
    const msOff = spec(t.msOffset(), 'offset');
    assert.equal(encodeParam(msOff, 1602633600000), '1602633600000');
    assert.equal(encodeParam(msOff, new Date(1602633600123)), '1602633600123');
    // SPEC 4.6: the forex ticks offset is a str or int timestamp.
    assert.equal(encodeParam(msOff, '1602633600000'), '1602633600000');
    for (const bad of ['', '2020-10-14', '-1', '1.5', '99999999999999999999', -1, 1.5, 5n]) {
      rejects(() => encodeParam(msOff, bad), 'offset');
    }
  });

  test('list: arrays or comma-separated strings, items normalised like tickers, at most maxItems', () => {
    const plain = spec(t.list(), 'symbols', 'tickers');
    assert.equal(encodeParam(plain, ['aapl', ' tsla ']), 'AAPL,TSLA');
    assert.equal(encodeParam(plain, 'aapl, tsla'), 'AAPL,TSLA');
    assert.equal(encodeParam(plain, 'BRK.B'), 'BRK.B');
    const indices = spec(t.list(2, 'I:'), 'symbols', 'ticker.any_of');
    assert.equal(encodeParam(indices, ['spx', 'I:NDX']), 'I:SPX,I:NDX');
    rejects(() => encodeParam(indices, ['SPX', 'NDX', 'VIX']), 'symbols', /at most 2 items, got 3/);
    rejects(() => encodeParam(indices, []), 'symbols', /at least one/);
    rejects(() => encodeParam(indices, ['SPX', '']), 'symbols');
    rejects(() => encodeParam(indices, ['S,PX']), 'symbols', /without commas/);
    rejects(() => encodeParam(indices, 'SPX,,NDX'), 'symbols');
    rejects(() => encodeParam(indices, [1]), 'symbols');
    rejects(() => encodeParam(indices, 5), 'symbols', /array of strings/);
    rejects(() => encodeParam(indices, new Set(['SPX'])), 'symbols');
  });
});

describe('decodeParam', () => {
  test('ticker, string and pair come back as sent; malformed values are refused by wire name', () => {
    assert.equal(decodeParam(spec(t.ticker('O:')), 'O:SPY240119C00450000'), 'O:SPY240119C00450000');
    assert.equal(decodeParam(spec(t.string()), 'a b'), 'a b');
    assert.equal(decodeParam(spec(t.pair()), 'AUD'), 'AUD');
    rejects(() => decodeParam(spec(t.ticker(), 'symbol', 'ticker'), ''), 'ticker');
    rejects(() => decodeParam(spec(t.ticker(), 'symbol', 'ticker'), 'C:EUR/USD'), 'ticker');
    rejects(() => decodeParam(spec(t.pair(), 'from', 'from'), 'A'), 'from');
    rejects(() => decodeParam(spec(t.string(), 's', 'search'), ''), 'search');
  });

  test('int: integers only; above max is returned for the caller to clamp or refuse', () => {
    const limit = spec(t.int(1, 50000), 'limit', 'limit');
    assert.equal(decodeParam(limit, '5000'), 5000);
    assert.equal(decodeParam(limit, '60000'), 60000);
    assert.equal(clampToMax(limit, 60000), 50000);
    assert.equal(clampToMax(limit, 12), 12);
    assert.equal(isInRange(limit, 60000), false);
    assert.equal(isInRange(limit, 0), false);
    assert.equal(isInRange(limit, 1), true);
    assert.equal(clampToMax(spec(t.int(1)), 10 ** 9), 10 ** 9);
    for (const bad of ['1.5', '0', '-3', '', 'ten', '1e3', ' 5', '99999999999999999999']) {
      rejects(() => decodeParam(limit, bad), 'limit', /integer of at least 1/);
    }
    assert.equal(decodeParam(spec(t.int()), '-3'), -3);
  });

  test('number, boolean, enum', () => {
    const amount = spec(t.number(0), 'amount', 'amount');
    assert.equal(decodeParam(amount, '100.25'), 100.25);
    assert.equal(decodeParam(amount, '.5'), 0.5);
    assert.equal(decodeParam(amount, '1e3'), 1000);
    for (const bad of ['-1', 'NaN', 'Infinity', '', '0x10', '1,5'])
      rejects(() => decodeParam(amount, bad), 'amount');
    const adjusted = spec(t.boolean(), 'adjusted', 'adjusted');
    assert.equal(decodeParam(adjusted, 'true'), true);
    assert.equal(decodeParam(adjusted, 'false'), false);
    for (const bad of ['yes', '', 'tRUE'])
      rejects(() => decodeParam(adjusted, bad), 'adjusted', /true, True, TRUE, t, T, 1 or false/);
    const timespan = spec(t.enum(['minute', 'day'], { min: 'minute' }), 'timespan', 'timespan');
    assert.equal(decodeParam(timespan, 'day'), 'day');
    assert.equal(decodeParam(timespan, 'min'), 'minute');
    for (const bad of ['DAY', 'hasOwnProperty', '']) rejects(() => decodeParam(timespan, bad), 'timespan');
  });

  test('dates and timestamps', () => {
    assert.deepEqual(decodeParam(spec(t.date()), '2024-02-29'), { date: '2024-02-29' });
    rejects(() => decodeParam(spec(t.date(), 'date', 'date'), '2023-02-29'), 'date');
    const fromTo = spec(t.dateOrMs(), 'fromDate', 'from');
    assert.deepEqual(decodeParam(fromTo, '2024-01-02'), { date: '2024-01-02' });
    assert.deepEqual(decodeParam(fromTo, '1704205800000'), { ms: 1704205800000 });
    for (const bad of ['-1', '1.5', '2024-01-02T00:00:00Z', '99999999999999999999'])
      rejects(() => decodeParam(fromTo, bad), 'from');
    const ts = spec(t.nsTimestamp(), 'timestampGte', 'timestamp.gte');
    assert.deepEqual(decodeParam(ts, '2024-01-02'), { date: '2024-01-02' });
    assert.deepEqual(decodeParam(ts, '1651181822461636612'), { ns: 1651181822461636612n });
    assert.deepEqual(decodeParam(ts, '2022-05-10T14:11:12.690661189Z'), {
      ns: ns('2022-05-10T14:11:12.690Z', 661_189n),
    });
    for (const bad of ['-1', 'now', '2022-05-10T14:11:12'])
      rejects(() => decodeParam(ts, bad), 'timestamp.gte');
    assert.equal(decodeParam(spec(t.nsOffset()), '1651181822461636612'), 1651181822461636612n);
    assert.equal(decodeParam(spec(t.msOffset()), '1602633600000'), 1602633600000);
    rejects(() => decodeParam(spec(t.nsOffset(), 'timestamp', 'timestamp'), '1.5'), 'timestamp');
    rejects(() => decodeParam(spec(t.msOffset(), 'offset', 'offset'), 'x'), 'offset');
  });

  test('list: comma-separated, blanks dropped, at most maxItems', () => {
    const p = spec(t.list(3, 'I:'), 'symbols', 'ticker.any_of');
    assert.deepEqual(decodeParam(p, 'I:SPX,, I:NDX,'), ['I:SPX', 'I:NDX']);
    rejects(() => decodeParam(p, 'A,B,C,D'), 'ticker.any_of', /at most 3 items/);
    rejects(() => decodeParam(p, ' , '), 'ticker.any_of');
  });
});

describe('decodeParam accepts what the service accepts, and only that', () => {
  const adjusted = spec(t.boolean(), 'adjusted', 'adjusted');
  const limit = spec(t.int(1, 50000), 'limit', 'limit');
  const multiplier = spec(t.int(1), 'multiplier', 'multiplier');
  const amount = spec(t.number(0), 'amount', 'amount');
  const strike = spec(t.number(), 'strikePrice', 'strike_price');
  const date = spec(t.date(), 'date', 'date');
  const from = spec(t.dateOrMs(), 'fromDate', 'from');
  const gte = spec(t.nsTimestamp(), 'timestampGte', 'timestamp.gte');
  const nsOffset = spec(t.nsOffset(), 'timestamp', 'timestamp');
  const msOffset = spec(t.msOffset(), 'offset', 'offset');
  const tickers = spec(t.list(3), 'symbols', 'tickers');
  const ns2022 = ns('2022-05-10T14:11:12.690Z', 661_189n);

  // [parameter, wire text, decoded value]: booleans as Go's strconv.ParseBool reads them, integers and
  // numbers as its ParseInt and ParseFloat read them, dates, Unix ms and ns, RFC 3339, lists with spaces.
  const accepted: [ParamSpec, string, unknown][] = [
    ...['true', 'True', 'TRUE', 't', 'T', '1'].map((s): [ParamSpec, string, unknown] => [adjusted, s, true]),
    ...['false', 'False', 'FALSE', 'f', 'F', '0'].map((s): [ParamSpec, string, unknown] => [
      adjusted,
      s,
      false,
    ]),
    [limit, '5000', 5000],
    [limit, '+5', 5],
    [limit, '007', 7],
    [limit, '50000', 50000],
    [limit, '60000', 60000],
    [limit, '9223372036854775807', 2 ** 63],
    [multiplier, '+15', 15],
    [amount, '100.25', 100.25],
    [amount, '+2', 2],
    [amount, '.5', 0.5],
    [amount, '5.', 5],
    [amount, '1e3', 1000],
    [amount, '1.5E-2', 0.015],
    [amount, '0012.50', 12.5],
    [strike, '-3.5', -3.5],
    [date, '2024-02-29', { date: '2024-02-29' }],
    [from, '2024-01-02', { date: '2024-01-02' }],
    [from, '1704205800000', { ms: 1704205800000 }],
    [from, '+1704205800000', { ms: 1704205800000 }],
    [from, '0', { ms: 0 }],
    [gte, '2024-01-02', { date: '2024-01-02' }],
    [gte, '1651181822461636612', { ns: 1651181822461636612n }],
    [gte, '+1651181822461636612', { ns: 1651181822461636612n }],
    [gte, '2022-05-10T14:11:12.690661189Z', { ns: ns2022 }],
    [gte, '2022-05-10T10:11:12.690661189-04:00', { ns: ns2022 }],
    [gte, '2022-05-10T14:11:12Z', { ns: ns('2022-05-10T14:11:12Z') }],
    [nsOffset, '1651181822461636612', 1651181822461636612n],
    [msOffset, '1602633600000', 1602633600000],
    [tickers, 'AAPL,TSLA', ['AAPL', 'TSLA']],
    [tickers, 'AAPL, TSLA ,MSFT', ['AAPL', 'TSLA', 'MSFT']],
    [tickers, ' AAPL ,', ['AAPL']],
  ];
  for (const [param, text, expected] of accepted) {
    test(`${param.wire}=${text} reads as ${typeof expected === 'bigint' ? `${expected}n` : JSON.stringify(expected, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v))}`, () => {
      assert.deepEqual(decodeParam(param, text), expected);
    });
  }

  // [parameter, wire text, what the message must say is allowed]
  const refused: [ParamSpec, string, RegExp][] = [
    ...['yes', 'no', 'on', 'tRUE', 'truE', '2', '-1', 'true ', ' 1'].map((s): [ParamSpec, string, RegExp] => [
      adjusted,
      s,
      /true, True, TRUE, t, T, 1 or false, False, FALSE, f, F, 0/,
    ]),
    [limit, '1.5', /base-10 integer of at least 1/],
    [limit, '1e3', /no decimal point or exponent/],
    [limit, '0', /of at least 1/],
    [limit, '-3', /of at least 1/],
    [limit, ' 5', /base-10 integer/],
    [limit, '0x10', /base-10 integer/],
    [limit, '1_000', /base-10 integer/],
    [limit, '9223372036854775808', /base-10 integer/],
    [multiplier, '99999999999999999', /base-10 integer/],
    [amount, 'NaN', /finite decimal number of at least 0/],
    [amount, 'Inf', /finite decimal number/],
    [amount, '0x10', /finite decimal number/],
    [amount, '1e400', /finite decimal number/],
    [amount, '1,5', /finite decimal number/],
    [amount, '-1', /of at least 0/],
    [strike, '--1', /finite decimal number/],
    [date, '2023-02-29', /YYYY-MM-DD/],
    [date, '2024-2-9', /YYYY-MM-DD/],
    [date, '20240209', /YYYY-MM-DD/],
    [from, '-1', /YYYY-MM-DD date or a non-negative integer Unix millisecond/],
    [from, '1.5', /Unix millisecond/],
    [from, '2024-01-02T00:00:00Z', /Unix millisecond/],
    [from, '99999999999999999999', /Unix millisecond/],
    [gte, '-1', /RFC 3339/],
    [gte, 'now', /RFC 3339/],
    [gte, '2022-05-10T14:11:12', /RFC 3339 timestamp with an offset/],
    [gte, '2022-05-10T25:11:12Z', /RFC 3339/],
    [gte, '2022-05-10t14:11:12Z', /RFC 3339/],
    [gte, '2022-05-10T14:11:12z', /RFC 3339/],
    [gte, '2022-05-10 14:11:12Z', /RFC 3339/],
    [gte, '9223372036854775808', /nanosecond/],
    [nsOffset, '1.5', /non-negative integer Unix nanosecond/],
    [nsOffset, '-5', /nanosecond/],
    [msOffset, 'x', /non-negative integer Unix millisecond/],
    [tickers, ' , ', /comma-separated list/],
    [tickers, 'A,B,C,D', /at most 3 items, got 4/],
  ];
  for (const [param, text, allowed] of refused) {
    test(`${param.wire}=${JSON.stringify(text)} is refused, naming ${param.wire}, the value and what is allowed`, () => {
      assert.throws(
        () => decodeParam(param, text),
        (e: unknown) => {
          assert.ok(e instanceof InvalidParameterError, `expected InvalidParameterError, got ${String(e)}`);
          assert.equal(e.parameter, param.wire);
          assert.equal(e.value, text);
          assert.ok(e.message.startsWith(`Invalid ${param.wire}: ${JSON.stringify(text)}; `), e.message);
          assert.match(e.message, allowed);
          return true;
        },
      );
    });
  }
});

describe('encodeParam then decodeParam (properties)', () => {
  test('integers within range come back unchanged', () => {
    const p = spec(t.int(-1000, 10 ** 12));
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 10 ** 12 }), (n) => decodeParam(p, encodeParam(p, n)) === n),
    );
  });

  test('finite numbers come back unchanged', () => {
    const p = spec(t.number());
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        assert.equal(decodeParam(p, encodeParam(p, x)), x === 0 ? 0 : x);
      }),
    );
  });

  test('nanosecond timestamps stay exact: bigint and RFC 3339 with up to 9 fraction digits', () => {
    const p = spec(t.nsTimestamp());
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }), (n) => {
        assert.deepEqual(decodeParam(p, encodeParam(p, n)), { ns: n });
      }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Date.UTC(2200, 0, 1) / 1000 }),
        fc.integer({ min: 0, max: 999_999_999 }),
        fc.integer({ min: 1, max: 9 }),
        fc.constantFrom('Z', '+05:30', '-04:00'),
        (seconds, fraction, digits, offset) => {
          const frac = String(fraction).padStart(9, '0').slice(0, digits);
          const offsetMs =
            offset === 'Z'
              ? 0
              : (offset[0] === '-' ? -1 : 1) *
                (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4))) *
                60_000;
          // Write the instant's wall clock at the offset, then expect the instant back.
          const wall = new Date(seconds * 1000 + offsetMs).toISOString().slice(0, 19);
          const text = `${wall}.${frac}${offset}`;
          const expected = BigInt(seconds) * 1_000_000_000n + BigInt(frac.padEnd(9, '0'));
          assert.equal(encodeParam(p, text), String(expected));
          assert.deepEqual(decodeParam(p, text), { ns: expected });
        },
      ),
    );
  });

  test('Dates: a midnight is a day, any other instant its ms or ns', () => {
    const day = spec(t.date());
    const dateOrMs = spec(t.dateOrMs());
    const nsTs = spec(t.nsTimestamp());
    fc.assert(
      fc.property(fc.date({ min: new Date(0), max: new Date('2200-01-01'), noInvalidDate: true }), (d) => {
        const ms = d.getTime();
        const iso = d.toISOString().slice(0, 10);
        assert.deepEqual(decodeParam(day, encodeParam(day, d)), { date: iso });
        const midnight = ms % 86_400_000 === 0;
        assert.deepEqual(decodeParam(dateOrMs, encodeParam(dateOrMs, d)), midnight ? { date: iso } : { ms });
        assert.deepEqual(
          decodeParam(nsTs, encodeParam(nsTs, d)),
          midnight ? { date: iso } : { ns: BigInt(ms) * 1_000_000n },
        );
      }),
    );
  });

  test('ticker lists come back upper-cased and prefixed', () => {
    const p = spec(t.list(undefined, 'X:'));
    const code = fc.stringMatching(/^[a-zA-Z0-9.]{1,8}$/);
    fc.assert(
      fc.property(fc.array(code, { minLength: 1, maxLength: 20 }), (codes) => {
        const decoded = decodeParam(p, encodeParam(p, codes));
        assert.deepEqual(
          decoded,
          codes.map((c) => (c.toUpperCase().startsWith('X:') ? c.toUpperCase() : `X:${c.toUpperCase()}`)),
        );
      }),
    );
  });
});
