import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { CryptoClient, ForexClient, IndexClient, OptionsClient, StocksClient } from '../../src/index.js';
import { RecordingServer } from '../support/recording-server.js';
import { type MinuteBarsConfig, minuteBarAt } from '../support/server-handlers.js';

const KEY = 'full-range-key-42';
const MINUTE = 60_000;
const DAY = 86_400_000;
const STEP = 7; // minutes between bars

// The requested range, New York calendar days, and the instants it covers (written out by hand).
const FROM = '2024-01-02';
const TO = '2024-08-30';
const NY_START = Date.parse('2024-01-02T00:00:00-05:00');
const NY_END = Date.parse('2024-08-31T00:00:00-04:00'); // exclusive: the midnight after TO
// 95 days without a bar: longer than two 45-day chunks, so at least one chunk comes back empty.
const GAP: [number, number] = [Date.parse('2024-03-01T00:00:00Z'), Date.parse('2024-06-04T00:00:00Z')];

const config = (extra: Partial<MinuteBarsConfig> = {}): MinuteBarsConfig => ({
  stepMinutes: STEP,
  // Data well beyond the range on both sides: whatever the server sends outside it must be dropped.
  dataStart: NY_START - 5 * DAY,
  dataEnd: NY_END + 5 * DAY,
  gaps: [GAP],
  cap: 2500,
  spillMs: 3 * 60 * MINUTE,
  ...extra,
});

/** Every bar the range holds, computed from the data definition alone. */
function expected(lo: number, hi: number, sort: 'asc' | 'desc') {
  const bars = [];
  for (let t = Math.ceil(lo / (STEP * MINUTE)) * STEP * MINUTE; t < hi; t += STEP * MINUTE) {
    if (!(t >= GAP[0] && t < GAP[1])) bars.push(minuteBarAt(t));
  }
  return sort === 'desc' ? bars.reverse() : bars;
}

type Bars = { t: number }[];

describe('full-range aggregate bars over loopback HTTP', () => {
  const server = new RecordingServer();
  before(() => server.start());
  after(() => server.stop());
  beforeEach(async () => {
    await server.use('minuteBars', config());
    await server.take();
  });

  for (const variant of ['async', 'sync'] as const) {
    for (const runParallel of [true, false]) {
      for (const sort of ['asc', 'desc'] as const) {
        test(`${variant}, ${runParallel ? 'parallel' : 'sequential'}, ${sort}: every bar once, trimmed to the range`, async () => {
          const logs: string[] = [];
          const options = { baseUrl: server.url, logger: (line: string) => logs.push(line) };
          const args = ['AAPL', FROM, TO, { sort, runParallel, maxConcurrentWorkers: 3 }] as const;
          let bars: Bars;
          if (variant === 'async') {
            const client = StocksClient(KEY, { ...options, useAsync: true });
            bars = await client.getFullRangeAggregateBars(...args);
            await client.close();
          } else {
            const client = StocksClient(KEY, options);
            bars = client.getFullRangeAggregateBars(...args);
            client.close();
          }
          const want = expected(NY_START, NY_END, sort);
          assert.equal(bars.length, want.length, 'no bar lost, none twice');
          assert.deepEqual(bars, want);
          assert.equal(new Set(bars.map((b) => b.t)).size, bars.length);

          const seen = await server.take();
          assert.ok(
            seen.some((r) => r.query.some(([k]) => k === 'cursor')),
            'chunks larger than the cap were paged through next_url',
          );
          for (const r of seen) {
            assert.match(r.path, /^\/v2\/aggs\/ticker\/AAPL\/range\/1\/minute\/\d+\/\d+$/);
            if (!r.query.some(([k]) => k === 'cursor')) {
              assert.deepEqual(r.query, [
                ['adjusted', 'true'],
                ['sort', 'asc'],
                ['limit', '50000'],
              ]);
            }
          }
          assert.ok(
            logs.some((l) => /No data/.test(l)),
            `the empty chunk is reported to the logger: ${JSON.stringify(logs)}`,
          );
        });
      }
    }
  }

  test('getAggregateBars with fullRange: true is the same operation; UTC days for crypto', async () => {
    const client = CryptoClient(KEY, { useAsync: true, baseUrl: server.url, logger: () => {} });
    const bars = (await client.getAggregateBars('btcusd', '2024-01-02', '2024-08-30', {
      timespan: 'minute',
      fullRange: true,
    })) as Bars;
    await client.close();
    const utcStart = Date.parse('2024-01-02T00:00:00Z');
    const utcEnd = Date.parse('2024-08-31T00:00:00Z');
    assert.deepEqual(bars, expected(utcStart, utcEnd, 'asc'));
    const seen = await server.take();
    assert.ok(seen.every((r) => r.path.startsWith('/v2/aggs/ticker/X:BTCUSD/range/1/minute/')));
  });

  test('without fullRange, allPages follows the aggregate next_url (from replaced by the next bar) through a day', async () => {
    await server.use('minuteBars', config({ timeZone: 'America/New_York', cap: 100, spillMs: 0 }));
    const client = StocksClient(KEY, { useAsync: true, baseUrl: server.url });
    const merged = await client.getAggregateBars('AAPL', '2024-01-03', '2024-01-03', {
      timespan: 'minute',
      allPages: true,
    });
    await client.close();
    const day = expected(
      Date.parse('2024-01-03T00:00:00-05:00'),
      Date.parse('2024-01-04T00:00:00-05:00'),
      'asc',
    );
    assert.deepEqual(merged.results, day);
    const seen = await server.take();
    assert.equal(seen.length, Math.ceil(day.length / 100));
    assert.equal(seen[0]?.path, '/v2/aggs/ticker/AAPL/range/1/minute/2024-01-03/2024-01-03');
    assert.equal(seen[1]?.path, `/v2/aggs/ticker/AAPL/range/1/minute/${day[100]?.t}/2024-01-03`);
    assert.deepEqual(
      seen[1]?.query.map(([k]) => k),
      ['cursor'],
    );
  });

  test('indices: I: added, New York days, adjusted accepted and never sent', async () => {
    const client = IndexClient(KEY, { useAsync: true, baseUrl: server.url, logger: () => {} });
    const bars = await client.getFullRangeAggregateBars('spx', FROM, TO, { adjusted: true, sort: 'desc' });
    await client.close();
    assert.deepEqual(bars, expected(NY_START, NY_END, 'desc'));
    const seen = await server.take();
    assert.ok(seen.every((r) => r.path.startsWith('/v2/aggs/ticker/I:SPX/range/1/minute/')));
    for (const r of seen.filter((r) => !r.query.some(([k]) => k === 'cursor'))) {
      assert.deepEqual(r.query, [
        ['sort', 'asc'],
        ['limit', '50000'],
      ]);
    }
  });

  test('forex (sync): C: added, UTC days', async () => {
    const client = ForexClient(KEY, { baseUrl: server.url, logger: () => {} });
    const bars = client.getFullRangeAggregateBars('eurusd', FROM, TO, { runParallel: false });
    client.close();
    assert.deepEqual(
      bars,
      expected(Date.parse('2024-01-02T00:00:00Z'), Date.parse('2024-08-31T00:00:00Z'), 'asc'),
    );
    const seen = await server.take();
    assert.ok(seen.every((r) => r.path.startsWith('/v2/aggs/ticker/C:EURUSD/range/1/minute/')));
  });

  test('millisecond bounds are inclusive at both ends; options symbols get O:', async () => {
    const from = Date.parse('2024-01-03T14:35:00Z');
    const first = Math.ceil(from / (STEP * MINUTE)) * STEP * MINUTE;
    const last = first + 1000 * STEP * MINUTE;
    const client = OptionsClient(KEY, { baseUrl: server.url, logger: () => {} });
    const bars = client.getFullRangeAggregateBars('spy251219c00650000', first, last) as Bars;
    client.close();
    assert.equal(bars[0]?.t, first, 'the bar at exactly from is kept');
    assert.equal(bars.at(-1)?.t, last, 'the bar at exactly to is kept');
    assert.deepEqual(bars, expected(first, last + 1, 'asc'));
    const seen = await server.take();
    assert.ok(seen.every((r) => r.path.startsWith('/v2/aggs/ticker/O:SPY251219C00650000/range/1/minute/')));
  });

  test('info: false silences the empty-chunk message; warnings report an unexpected status', async () => {
    const logs: string[] = [];
    const client = StocksClient(KEY, { useAsync: true, baseUrl: server.url, logger: (l) => logs.push(l) });
    await client.getFullRangeAggregateBars('AAPL', FROM, TO, { info: false });
    assert.deepEqual(logs, [], 'nothing logged with info off and no anomaly');

    await server.use('minuteBars', config({ emptyStatus: 'NOT_ENTITLED' }));
    await client.getFullRangeAggregateBars('AAPL', FROM, TO, { info: false });
    assert.ok(
      logs.some((l) => /No data/.test(l) && /NOT_ENTITLED/.test(l)),
      `a chunk answered with an unexpected status is a warning: ${JSON.stringify(logs)}`,
    );
    logs.length = 0;
    await client.getFullRangeAggregateBars('AAPL', FROM, TO, { info: false, warnings: false });
    assert.deepEqual(logs, [], 'warnings: false silences it');
    await client.close();
  });

  for (const variant of ['async', 'sync'] as const) {
    test(`${variant}, no logger: info and warnings are printed on standard error unless turned off`, async (t) => {
      const printed: string[] = [];
      const write = t.mock.method(process.stderr, 'write', (chunk: unknown) => {
        printed.push(String(chunk));
        return true;
      });
      const fetch = async (options: object) => {
        if (variant === 'async') {
          const client = StocksClient(KEY, { useAsync: true, baseUrl: server.url });
          await client.getFullRangeAggregateBars('AAPL', FROM, TO, options);
          await client.close();
        } else {
          const client = StocksClient(KEY, { baseUrl: server.url });
          client.getFullRangeAggregateBars('AAPL', FROM, TO, options);
          client.close();
        }
        const lines = printed.splice(0);
        return lines;
      };
      try {
        const info = await fetch({});
        const infoOff = await fetch({ info: false });
        await server.use('minuteBars', config({ emptyStatus: 'NOT_ENTITLED' }));
        const warning = await fetch({ info: false });
        const warningsOff = await fetch({ info: false, warnings: false });
        write.mock.restore();
        assert.ok(
          info.some((l) => /^No data for /.test(l)),
          `info (the default) is printed: ${JSON.stringify(info)}`,
        );
        assert.deepEqual(infoOff, [], 'info: false prints nothing');
        assert.ok(
          warning.some((l) => /No data/.test(l) && /NOT_ENTITLED/.test(l)),
          `warnings (the default) are printed: ${JSON.stringify(warning)}`,
        );
        assert.deepEqual(warningsOff, [], 'warnings: false prints nothing');
      } finally {
        write.mock.restore();
      }
    });
  }

  test('the sync client hands log lines to the logger on the calling thread', async () => {
    const logs: string[] = [];
    const client = StocksClient(KEY, { baseUrl: server.url, logger: (l) => logs.push(l) });
    client.getFullRangeAggregateBars('AAPL', FROM, TO, { runParallel: false });
    client.close();
    assert.ok(logs.some((l) => /No data/.test(l)));
  });
});
