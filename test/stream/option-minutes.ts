import assert from 'node:assert/strict';
import { dayOf, NEW_YORK, startOfDay } from '../../src/dates/time-zone.js';
import type { RunningServer } from '../../src/server/index.js';
import { type AggregateEvent, openStream } from '../../src/stream/index.js';
import { KEY } from './fixture.js';

type RestBar = { t: number; o: number; h: number; l: number; c: number; v: number; vw: number; n?: number };

async function rest<T>(server: RunningServer, path: string): Promise<T> {
  const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${KEY}` } });
  assert.equal(res.status, 200, path);
  return (await res.json()) as T;
}

/**
 * Subscribes to options `channels` on `server` (replaying from `fromMs`) and checks its first `n`
 * events against the server's REST answers for `tickers`, the contracts the channels cover: they are
 * `AM` events, one per REST minute bar whose window ends after `fromMs`, none missing and none extra,
 * in (end, ticker) order; each has its bar's prices, volume and vw, and its day so far: `av` the sum of
 * the volumes of the day's bars up to it (from midnight New York, before `fromMs` too), `op` the open
 * of the day's first, `a` their volume-weighted price (within the rounding of the REST vw). The last
 * event of a day the events cover whole has the REST day bar's volume, open and vw. Answers the events.
 */
export async function assertOptionMinutes(
  server: RunningServer,
  fromMs: number,
  channels: readonly string[],
  tickers: readonly string[],
  n: number,
): Promise<AggregateEvent[]> {
  const stream = openStream('options', KEY, { baseUrl: server.url.replace('http', 'ws') });
  stream.subscribe([...channels]);
  const got: AggregateEvent[] = [];
  for await (const ev of stream) {
    assert.equal(ev.ev, 'AM', JSON.stringify(ev));
    got.push(ev as AggregateEvent);
    if (got.length === n) break;
  }
  const last = got.at(-1);
  assert.ok(last, 'no events');
  const dayStart = startOfDay(dayOf(fromMs, NEW_YORK), NEW_YORK);
  const expected: (AggregateEvent & { dayVw?: number })[] = [];
  for (const ticker of tickers) {
    const path = `/v2/aggs/ticker/${ticker}/range/1`;
    const minutes = await rest<{ results?: RestBar[] }>(
      server,
      `${path}/minute/${dayStart}/${last.s}?limit=50000`,
    );
    const days = await rest<{ results?: RestBar[] }>(server, `${path}/day/${dayStart}/${last.s}?limit=50000`);
    const bars = minutes.results ?? [];
    let day = '';
    let open = 0;
    let av = 0;
    let pv = 0;
    bars.forEach((b, i) => {
      if (dayOf(b.t, NEW_YORK) !== day) {
        day = dayOf(b.t, NEW_YORK);
        [open, av, pv] = [b.o, 0, 0];
      }
      av += b.v;
      pv += b.vw * b.v;
      const next = bars[i + 1];
      const dayEnd = next ? dayOf(next.t, NEW_YORK) !== day : false;
      const dayBar = days.results?.find((d) => dayOf(d.t, NEW_YORK) === day);
      if (b.t + 60_000 <= fromMs) return;
      expected.push({
        ev: 'AM',
        sym: ticker,
        v: b.v,
        av,
        op: open,
        vw: b.vw,
        o: b.o,
        c: b.c,
        h: b.h,
        l: b.l,
        a: pv / av,
        ...(b.n !== undefined && { z: Math.round(b.v / b.n) }),
        s: b.t,
        e: b.t + 60_000,
        ...(dayEnd && dayBar && { dayVw: dayBar.vw }),
      });
      if (dayEnd) {
        assert.ok(dayBar, `${ticker} has a day bar of ${day}`);
        assert.deepEqual([av, open], [dayBar.v, dayBar.o], `${ticker} ${day}: the day's volume and open`);
      }
    });
  }
  // The replay stops after `n` events: later windows, and those ending with the last one of a later
  // contract, are not sent yet.
  const before = (x: AggregateEvent) => x.e < last.e || (x.e === last.e && x.sym <= last.sym);
  const want = expected
    .filter(before)
    .sort((x, y) => x.e - y.e || (x.sym < y.sym ? -1 : x.sym > y.sym ? 1 : 0));
  const plain = ({ a: _a, ...rest }: AggregateEvent) => rest;
  assert.deepEqual(
    got.map(plain),
    want.map(({ dayVw: _vw, ...x }) => plain(x)),
  );
  for (const [i, x] of want.entries()) {
    const ev = got[i] as AggregateEvent;
    // `a` is exact; the sum from the REST vw, rounded to four decimals each, is within that rounding.
    assert.ok(Math.abs(ev.a - x.a) <= 1.0001e-4, `${ev.sym} ${ev.s}: a ${ev.a}, from REST ${x.a}`);
    if (x.dayVw !== undefined) assert.equal(ev.a, x.dayVw, `${ev.sym} ${ev.s}: a is the day's vw`);
  }
  return got;
}
