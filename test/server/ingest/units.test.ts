import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isTradingDay, nextTradingDay } from '../../../src/server/calendar/sessions.js';
import { saleConditions } from '../../../src/server/ingest/lean-codes.js';
import { splitRatio } from '../../../src/server/ingest/lean-parsers.js';
import { classifyLeanPath } from '../../../src/server/ingest/lean-paths.js';
import { eachLine } from '../../../src/server/ingest/lines.js';
import { leanStampParser, parseLeanDate, wallClockOfDay } from '../../../src/server/ingest/local-time.js';
import {
  optionTicker,
  parseOptionEntry,
  parseOptionTicker,
} from '../../../src/server/ingest/option-ticker.js';
import { offsetAt } from './helpers.js';

describe('ingest building blocks', () => {
  it('wall clock of a DST-change day follows the local clock, as Lean adds ms to the local date', () => {
    const fallBack = wallClockOfDay({ year: 2013, month: 11, day: 3 }, 'America/New_York');
    // 01:30 happens twice; 04:00 is after the change (EST, UTC-5).
    assert.equal(fallBack(4 * 3_600_000), Date.UTC(2013, 10, 3, 9));
    assert.equal(fallBack(0), Date.UTC(2013, 10, 3, 4), 'midnight is still EDT');
    const spring = wallClockOfDay({ year: 2014, month: 3, day: 9 }, 'America/New_York');
    assert.equal(spring(9.5 * 3_600_000), Date.UTC(2014, 2, 9, 13, 30));
    assert.equal(spring(0), Date.UTC(2014, 2, 9, 5));
    // Any day: the offset agrees with Intl's own.
    const day = wallClockOfDay({ year: 2021, month: 1, day: 4 }, 'America/Chicago');
    const t = day(30_600_000);
    assert.equal(t, Date.UTC(2021, 0, 4) + 30_600_000 - offsetAt(t, 'America/Chicago'));
  });

  it('Lean stamps and dates', () => {
    assert.equal(leanStampParser('America/Chicago')('20210317 08:00'), Date.UTC(2021, 2, 17, 13));
    assert.equal(leanStampParser('UTC')('20210317 25:00'), undefined);
    assert.equal(parseLeanDate('20140230'), undefined);
    assert.deepEqual(parseLeanDate('20140609'), { year: 2014, month: 6, day: 9 });
  });

  it('lines: CRLF, LF, a missing final newline', () => {
    const seen: [string, number][] = [];
    eachLine('a,1\r\nb,2\nc,3', (line, n) => seen.push([line, n]));
    assert.deepEqual(seen, [
      ['a,1', 1],
      ['b,2', 2],
      ['c,3', 3],
    ]);
    const trailing: string[] = [];
    eachLine('x\n', (line) => trailing.push(line));
    assert.deepEqual(trailing, ['x']);
  });

  it('split ratios from factor quotients', () => {
    assert.deepEqual(splitRatio(0.25 / 0.0357143), { from: 1, to: 7 });
    assert.deepEqual(splitRatio(3.0003 / 1.49993008), { from: 1, to: 2 });
    assert.deepEqual(splitRatio(0.05), { from: 20, to: 1 });
    assert.deepEqual(splitRatio(1.5), { from: 2, to: 3 });
    assert.deepEqual(splitRatio(1.0027855), { from: 1, to: 1.002786 });
  });

  it('NYSE trading days', () => {
    assert.equal(nextTradingDay('2014-06-06'), '2014-06-09');
    assert.equal(nextTradingDay('2020-08-28'), '2020-08-31');
    assert.equal(nextTradingDay('2015-04-02'), '2015-04-06', 'Good Friday');
    assert.equal(nextTradingDay('2001-09-10'), '2001-09-17');
    assert.equal(nextTradingDay('2022-11-23'), '2022-11-25', 'Thanksgiving');
    assert.equal(isTradingDay('2021-12-31'), true, 'New Year on a Saturday is not observed on Friday');
    assert.equal(isTradingDay('2023-06-19'), false, 'Juneteenth');
  });

  it('option tickers from entry names and back', () => {
    const c = parseOptionEntry('20230803_spy_minute_quote_american_call_4300000_20230901.csv', 'spy');
    assert.ok(c);
    assert.equal(optionTicker(c), 'O:SPY230901C00430000');
    const split = parseOptionEntry('20140609_aapl_minute_trade_american_put_285700_20140621.csv', 'aapl');
    assert.ok(split);
    assert.equal(optionTicker(split), 'O:AAPL140621P00028570');
    assert.equal(split.style, 'american');
    assert.deepEqual(parseOptionTicker('O:SPX210115P04200000'), {
      underlying: 'SPX',
      right: 'put',
      strikeThousandths: 4_200_000,
      expiry: { year: 2021, month: 1, day: 15 },
    });
    assert.equal(parseOptionEntry('20230803_spy_minute_quote.csv', 'spy'), undefined);
  });

  it('sale-condition masks', () => {
    assert.deepEqual(saleConditions('20002020'), [12, 14, 41]);
    assert.equal(saleConditions('1'), null, 'a regular sale has no condition');
    assert.equal(saleConditions('xyz'), undefined);
  });

  it('Lean paths', () => {
    assert.deepEqual(classifyLeanPath('equity/usa/tick/spy/20131007_trade.zip'), {
      kind: 'trade-ticks',
      ticker: 'SPY',
      date: { year: 2013, month: 10, day: 7 },
    });
    assert.deepEqual(classifyLeanPath('forex/oanda/daily/eurusd.zip'), {
      kind: 'quote-bars',
      ticker: 'C:EURUSD',
      assetClass: 'forex',
      resolution: 'day',
    });
    assert.deepEqual(classifyLeanPath('crypto/coinbase/daily/btcusd_trade.zip'), {
      kind: 'bars',
      ticker: 'X:BTCUSD',
      assetClass: 'crypto',
      resolution: 'day',
    });
    assert.equal(classifyLeanPath('indexoption/usa/daily/spx_2021_quote_european.zip')?.kind, 'option');
    assert.equal(classifyLeanPath('market-hours/market-hours-database.json'), undefined);
    assert.deepEqual(classifyLeanPath('future/cme/minute/es/20131007_trade.zip'), {
      kind: 'future',
      product: 'ES',
      tickType: 'trade',
      resolution: 'minute',
      date: { year: 2013, month: 10, day: 7 },
    });
    assert.deepEqual(classifyLeanPath('future/comex/daily/gc_openinterest.zip'), {
      kind: 'future',
      product: 'GC',
      tickType: 'openinterest',
      resolution: 'day',
    });
    assert.equal(classifyLeanPath('future/comex/tick/gc/20131007_trade.zip')?.kind, 'future');
    // Read elsewhere or not at all: tick open interest, universes, map and factor files.
    assert.equal(classifyLeanPath('future/comex/tick/gc/20131007_openinterest.zip'), undefined);
    assert.equal(classifyLeanPath('future/cme/universes/es/20131007.csv'), undefined);
    assert.equal(classifyLeanPath('future/cme/map_files/es.csv'), undefined);
  });
});
