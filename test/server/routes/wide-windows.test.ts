/**
 * Windows far longer than the range asked, over loopback HTTP against the real store: a bar holds only
 * the data inside the range (snapped out to whole timespans, as the service snaps `from` and `to`),
 * stamped with its window's start, and the store is asked about the range alone, whatever the
 * multiplier.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startServer } from '../../../src/server/index.js';
import { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { recordingStore } from '../../support/recording-store.js';
import { hasShared, leanDir } from '../../support/shared.js';
import { fixtureStorePath, getJson } from '../app-fixture.js';
import { assertAskedWithin, assertWideBar, WIDE_CASES, WIDE_MULTIPLIERS, widePath } from '../wide-windows.js';

describe('aggregates in windows far longer than the range', () => {
  test('a 10 000 000-minute bar is the minute bars inside the range taken together', async (t) => {
    if (!hasShared(t, leanDir)) return;
    const store = await DuckDbStore.open(await fixtureStorePath(), { readOnly: true });
    const server = await startServer({ store, port: 0, log: () => {} });
    t.after(async () => {
      await server.close();
      store.close();
    });
    // SPY's minute bars of Friday 2013-10-04 (no ticks that day), from within one minute to within another.
    const from = Date.parse('2013-10-04T14:37:30Z');
    const to = Date.parse('2013-10-04T17:12:10Z');
    const { status, body } = await getJson(
      server,
      `/v2/aggs/ticker/SPY/range/10000000/minute/${from}/${to}?adjusted=false`,
    );
    assert.equal(status, 200);
    const rows = await store.all<{ o: number; h: number; l: number; c: number; v: number }>(
      `SELECT o, h, l, c, v FROM bars WHERE ticker = 'SPY' AND resolution = 'minute' AND t >= $1 AND t < $2
        ORDER BY t`,
      [BigInt(Math.floor(from / 60_000) * 60_000), BigInt(Math.floor(to / 60_000) * 60_000 + 60_000)],
    );
    assert.ok(rows.length > 100, `${rows.length} minute bars in the range`);
    assert.equal(body.resultsCount, 1);
    assert.equal(body.queryCount, rows.length);
    const bar = body.results[0];
    assert.equal(bar.o, rows[0]?.o);
    assert.equal(bar.c, rows[rows.length - 1]?.c);
    assert.equal(bar.h, Math.max(...rows.map((r) => r.h)));
    assert.equal(bar.l, Math.min(...rows.map((r) => r.l)));
    assert.equal(
      bar.v,
      rows.reduce((a, r) => a + r.v, 0),
    );
    // The window's start, before the range: 10 000 000 minutes from 1970-01-01 on New York's clock is
    // 2008-01-10 21:20 (-05:00), and the next window starts in 2027.
    assert.ok(bar.t < from && bar.t > Date.parse('2000-01-01'), `t ${bar.t}`);
    assert.equal((bar.t - 5 * 3_600_000) % (10_000_000 * 60_000), 0);
  });

  test('every timespan, multipliers up to the largest: the range’s data alone, the store asked about the range alone', async (t) => {
    if (!hasShared(t, leanDir)) return;
    const recording = recordingStore(await DuckDbStore.open(await fixtureStorePath(), { readOnly: true }));
    const server = await startServer({ store: recording.store, port: 0, log: () => {} });
    t.after(async () => {
      await server.close();
      recording.store.close();
    });
    for (const c of WIDE_CASES) {
      const unit = await getJson(server, widePath(c, 1));
      assert.equal(unit.status, 200, JSON.stringify(unit.body));
      for (const multiplier of WIDE_MULTIPLIERS) {
        recording.clear();
        const wide = await getJson(server, widePath(c, multiplier));
        assert.equal(wide.status, 200, JSON.stringify(wide.body));
        assertWideBar(c, multiplier, wide.body, unit.body);
        assertAskedWithin(c, multiplier, recording.queries());
      }
    }
  });
});
