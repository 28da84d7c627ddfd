import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { strFromU8, unzipSync } from 'fflate';
import { addDays } from '../../src/dates/calendar.js';
import {
  easterSunday,
  isForexOpen,
  isTradingDay,
  marketPhaseAt,
  nextTradingDay,
  nyseHolidays,
  previousTradingDay,
  tradingSession,
  weekday,
} from '../../src/server/calendar/index.js';
import { hasShared, leanDir, recordedDir } from '../support/shared.js';

describe('easterSunday', () => {
  it('gives the published dates of Easter', () => {
    for (const [year, date] of [
      [1998, '1998-04-12'],
      [2000, '2000-04-23'],
      [2008, '2008-03-23'],
      [2011, '2011-04-24'],
      [2019, '2019-04-21'],
      [2024, '2024-03-31'],
      [2038, '2038-04-25'],
    ] as const) {
      assert.equal(easterSunday(year), date);
    }
  });
});

describe('NYSE calendar against the SPY daily bars (1998–2021)', () => {
  it('is closed on every weekday without a bar and open on every day with one', (t) => {
    const path = `${leanDir}equity/usa/daily/spy.zip`;
    if (!hasShared(t, path)) return;
    const entries = Object.values(unzipSync(readFileSync(path)));
    const text = strFromU8(entries[0] as Uint8Array);
    const days = new Set(
      text
        .split(/\r?\n/)
        .filter(Boolean)
        .map((l) => `${l.slice(0, 4)}-${l.slice(4, 6)}-${l.slice(6, 8)}`),
    );
    const sorted = [...days].sort();
    const first = sorted[0] as string;
    const last = sorted.at(-1) as string;
    assert.equal(first, '1998-01-02');
    const wrong: string[] = [];
    let weekdaysWithout = 0;
    for (let d = first; d <= last; d = addDays(d, 1)) {
      const dow = weekday(d);
      if (dow === 0 || dow === 6) {
        assert.equal(days.has(d), false, `weekend bar on ${d}`);
        continue;
      }
      if (!days.has(d)) weekdaysWithout++;
      if (days.has(d) !== isTradingDay(d)) wrong.push(`${d} bar=${days.has(d)}`);
    }
    assert.deepEqual(wrong, []);
    // The closures the data shows beyond the ordinary rules are all there.
    for (const d of [
      '2001-09-11',
      '2001-09-14',
      '2004-06-11',
      '2007-01-02',
      '2012-10-29',
      '2012-10-30',
      '2018-12-05',
    ]) {
      assert.equal(days.has(d), false, d);
      assert.equal(isTradingDay(d), false, d);
    }
    assert.ok(weekdaysWithout > 200, `only ${weekdaysWithout} holidays in 23 years`);
  });
});

describe('nyseHolidays', () => {
  it('lists the 2022 holidays of the recorded upcoming-holidays response', (t) => {
    const path = `${recordedDir}v1/marketstatus/upcoming.json`;
    if (!hasShared(t, path)) return;
    const recorded = JSON.parse(readFileSync(path, 'utf8')) as {
      date: string;
      name: string;
      status: string;
    }[];
    const expected = [
      ...new Map(recorded.map((r) => [r.date, { date: r.date, name: r.name, status: r.status }])).values(),
    ];
    const ours = nyseHolidays(2022).filter((h) => h.date >= '2022-05-30');
    assert.deepEqual(
      ours.map((h) => ({ ...h })),
      expected,
    );
  });

  it('observes New Year on Monday when it falls on Sunday and not at all on a Saturday', () => {
    assert.equal(isTradingDay('2017-01-02'), false);
    assert.equal(isTradingDay('2021-12-31'), true);
    assert.equal(isTradingDay('2010-12-31'), true);
  });

  it('has Juneteenth from 2022 only, Carter mourning day 2025, and 13:00 early closes', () => {
    assert.equal(isTradingDay('2021-06-18'), true);
    assert.equal(isTradingDay('2023-06-19'), false);
    assert.equal(isTradingDay('2025-01-09'), false);
    const blackFriday = tradingSession('2023-11-24');
    assert.ok(blackFriday?.earlyClose);
    assert.equal(new Date(blackFriday.close).toISOString(), '2023-11-24T18:00:00.000Z');
    assert.ok(tradingSession('2024-07-03')?.earlyClose);
    assert.ok(tradingSession('2024-12-24')?.earlyClose);
    assert.equal(tradingSession('2024-12-23')?.earlyClose, false);
  });

  it('steps over weekends and holidays', () => {
    assert.equal(nextTradingDay('2022-12-23'), '2022-12-27');
    assert.equal(previousTradingDay('2022-12-27'), '2022-12-23');
    assert.equal(previousTradingDay('2001-09-17'), '2001-09-10');
  });
});

describe('marketPhaseAt', () => {
  const at = (iso: string) => marketPhaseAt(Date.parse(iso));
  it('is extended-hours 04:00–09:30 and 16:00–20:00 ET, open in between, closed otherwise', () => {
    assert.deepEqual(at('2022-04-28T20:48:08Z'), {
      market: 'extended-hours',
      earlyHours: false,
      afterHours: true,
    });
    assert.deepEqual(at('2022-04-28T08:00:00Z'), {
      market: 'extended-hours',
      earlyHours: true,
      afterHours: false,
    });
    assert.equal(at('2022-04-28T13:30:00Z').market, 'open');
    assert.equal(at('2022-04-28T13:29:59Z').market, 'extended-hours');
    assert.equal(at('2022-04-28T20:00:00Z').market, 'extended-hours');
    assert.equal(at('2022-04-29T00:00:00Z').market, 'closed');
    assert.equal(at('2022-04-30T15:00:00Z').market, 'closed');
    assert.equal(at('2022-12-26T15:00:00Z').market, 'closed');
    // Early close: after hours from 13:00 ET.
    assert.equal(at('2022-11-25T18:30:00Z').market, 'extended-hours');
  });

  it('has forex trading from Sunday 17:00 to Friday 17:00 ET', () => {
    assert.equal(isForexOpen(Date.parse('2022-04-30T12:00:00Z')), false);
    assert.equal(isForexOpen(Date.parse('2022-05-01T20:00:00Z')), false);
    assert.equal(isForexOpen(Date.parse('2022-05-01T21:30:00Z')), true);
    assert.equal(isForexOpen(Date.parse('2022-04-29T20:30:00Z')), true);
    assert.equal(isForexOpen(Date.parse('2022-04-29T21:30:00Z')), false);
  });
});
