/**
 * A caching server asked for bars in windows far longer than the range fetches the range's days alone,
 * as the local route reads only them: never the years its windows span.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { get, withCachingServer } from '../../support/upstream-rig.js';

const MULTIPLIERS = [10_000_000, Number.MAX_SAFE_INTEGER];

test('bars in windows of years fetch only the days of their range, and answer as the upstream does', async (t) => {
  await withCachingServer(t, {}, async ({ cache, proxy, server }) => {
    for (const multiplier of MULTIPLIERS) {
      for (const [timespan, range, days] of [
        ['minute', '2013-10-04/2013-10-04', ['2013-10-04']],
        ['hour', '2013-10-04/2013-10-07', ['2013-10-04', '2013-10-07']],
        ['day', '2013-09-30/2013-10-04', ['2013-09-30', '2013-10-04']],
      ] as const) {
        const path = `/v2/aggs/ticker/SPY/range/${multiplier}/${timespan}/${range}?adjusted=false`;
        const before = proxy.seen.length;
        const got = await get(cache.url, path);
        const truth = await get(server.url, path);
        assert.equal(got.status, 200, got.text);
        // The stored bars carry the upstream's vw, written to four decimals: a longer bar's vw may
        // differ from the upstream's in its last decimal.
        const split = (bars: { vw: number }[]) => bars.map(({ vw, ...rest }) => [rest, vw] as const);
        const [mine, theirs] = [split(got.body.results), split(truth.body.results)];
        assert.deepEqual(
          mine.map(([rest]) => rest),
          theirs.map(([rest]) => rest),
          path,
        );
        for (const [i, [, vw]] of mine.entries())
          assert.ok(Math.abs(vw - (theirs[i]?.[1] as number)) <= 1.5e-4, `${path}: vw ${vw}`);
        // Every bar request sent upstream lies within the range's days.
        const sent = proxy.seen.slice(before).map((s) => s.url);
        // The first multiplier fetches the days; the next finds them stored.
        if (multiplier === MULTIPLIERS[0]) assert.ok(sent.length > 0, `${path}: fetched upstream`);
        for (const url of sent) {
          const m = /\/range\/\d+\/\w+\/([^/?]+)\/([^/?]+)/.exec(url);
          if (!m) continue;
          const [first, last] = [m[1], m[2]].map((x) =>
            /^\d+$/.test(x as string) ? new Date(Number(x)).toISOString().slice(0, 10) : x,
          );
          assert.ok(
            (first as string) >= (days[0] as string) && (last as string) <= (days[days.length - 1] as string),
            `${path} sent ${url}`,
          );
        }
      }
    }
  });
});
