import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fixtureServer, getJson, leanRows } from '../app-fixture.js';

/** SPY daily closes from Lean's file, oldest first, with their dates (YYYYMMDD). */
function closes(ticker = 'spy', through = '20131007'): { date: string; c: number }[] {
  return leanRows(`equity/usa/daily/${ticker}.zip`)
    .map((f) => ({ date: (f[0] as string).slice(0, 8), c: Number(f[4]) / 10_000 }))
    .filter((r) => r.date <= through);
}

/** New York midnight of YYYYMMDD (EDT or EST as the date says) — independent of the server's code. */
function nyMidnight(date: string): number {
  const utc = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(4, 6)) - 1, Number(date.slice(6, 8)));
  const hour = Number(
    new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/New_York',
      hour: 'numeric',
      hourCycle: 'h23',
    }).format(utc),
  );
  return utc + (24 - hour) * 3_600_000;
}

const near = (a: number, b: number, what: string) =>
  assert.ok(Math.abs(a - b) < 1e-9 * Math.max(1, Math.abs(b)), `${what}: ${a} ≉ ${b}`);

/** Wilder's RSI, written out step by step. */
function handRsi(xs: number[], n: number): number {
  let avgGain = 0;
  let avgLoss = 0;
  for (let i = 1; i <= n; i++) {
    const d = (xs[i] as number) - (xs[i - 1] as number);
    if (d > 0) avgGain += d;
    else avgLoss -= d;
  }
  avgGain /= n;
  avgLoss /= n;
  for (let i = n + 1; i < xs.length; i++) {
    const d = (xs[i] as number) - (xs[i - 1] as number);
    avgGain = (avgGain * (n - 1) + Math.max(d, 0)) / n;
    avgLoss = (avgLoss * (n - 1) + Math.max(-d, 0)) / n;
  }
  return avgLoss === 0 ? 100 : 100 - 100 / (1 + avgGain / avgLoss);
}

/** EMA seeded with the SMA of the first n values; returns the whole series (NaN before the seed). */
function handEma(xs: number[], n: number): number[] {
  const out: number[] = [];
  const k = 2 / (n + 1);
  let e = Number.NaN;
  xs.forEach((x, i) => {
    if (i === n - 1) e = xs.slice(0, n).reduce((a, b) => a + b, 0) / n;
    else if (i >= n) e = x * k + e * (1 - k);
    out.push(e);
  });
  return out;
}

describe('indicators over loopback HTTP, recomputed from Lean’s daily file', () => {
  test('SMA, EMA and RSI of one day equal the hand computations', async (t) => {
    const server = await fixtureServer(t, { now: '2013-10-07' });
    if (!server) return;
    const rows = closes('spy', '20131004');
    const xs = rows.map((r) => r.c);
    const t1004 = nyMidnight('20131004');

    const sma = await getJson(server, '/v1/indicators/sma/SPY?window=10&timestamp=2013-10-04');
    assert.equal(sma.body.results.values.length, 1);
    assert.equal(sma.body.results.values[0].timestamp, t1004);
    near(sma.body.results.values[0].value, xs.slice(-10).reduce((a, b) => a + b, 0) / 10, 'sma');

    const ema = await getJson(server, '/v1/indicators/ema/SPY?window=10&timestamp=2013-10-04');
    near(ema.body.results.values[0].value, handEma(xs, 10).at(-1) as number, 'ema');

    const rsi = await getJson(server, '/v1/indicators/rsi/SPY?window=14&timestamp=2013-10-04');
    near(rsi.body.results.values[0].value, handRsi(xs, 14), 'rsi');
  });

  test('MACD 12/26/9 by default: line, signal and histogram', async (t) => {
    const server = await fixtureServer(t, { now: '2013-10-07' });
    if (!server) return;
    const xs = closes('spy', '20131004').map((r) => r.c);
    const short = handEma(xs, 12);
    const long = handEma(xs, 26);
    const line = xs.map((_, i) => (short[i] as number) - (long[i] as number)).slice(25);
    const signal = handEma(line, 9);
    const { body } = await getJson(server, '/v1/indicators/macd/SPY?timestamp=2013-10-04');
    const v = body.results.values[0];
    near(v.value, line.at(-1) as number, 'macd');
    near(v.signal, signal.at(-1) as number, 'signal');
    near(v.histogram, (line.at(-1) as number) - (signal.at(-1) as number), 'histogram');
  });

  test('ordering, paging with next_url, expand_underlying and the underlying url', async (t) => {
    const server = await fixtureServer(t, { now: '2013-10-07' });
    if (!server) return;
    const base = '/v1/indicators/sma/SPY?window=3&timestamp.gte=2013-09-01&timestamp.lte=2013-10-07';
    const whole = await getJson(server, `${base}&limit=5000&order=asc`);
    const dates = closes('spy').filter((r) => r.date >= '20130901');
    assert.deepEqual(
      whole.body.results.values.map((v: { timestamp: number }) => v.timestamp),
      dates.map((r) => nyMidnight(r.date)),
    );
    const pagedValues: unknown[] = [];
    let next: string | undefined = `${base}&limit=4`;
    while (next) {
      const page = await getJson(server, next);
      pagedValues.push(...page.body.results.values);
      next = page.body.next_url ? page.body.next_url.slice(server.url.length) : undefined;
      if (page.body.next_url) assert.ok(page.body.next_url.includes('?cursor='));
    }
    assert.deepEqual(
      pagedValues,
      [...whole.body.results.values].reverse(),
      'desc by default, every value once',
    );

    const expanded = await getJson(server, '/v1/indicators/sma/SPY?window=3&limit=2&expand_underlying=true');
    const aggs = expanded.body.results.underlying.aggregates;
    assert.equal(aggs.length, 2);
    const bars = await getJson(server, '/v2/aggs/ticker/SPY/range/1/day/2013-10-04/2013-10-07?sort=desc');
    assert.deepEqual(
      aggs.map((a: { t: number; c: number }) => [a.t, a.c]),
      bars.body.results.map((b: { t: number; c: number }) => [b.t, b.c]),
    );
    const url = expanded.body.results.underlying.url as string;
    assert.ok(url.startsWith(`${server.url}/v2/aggs/ticker/SPY/range/1/day/`));
    const underlying = await getJson(server, url.slice(server.url.length));
    assert.equal(underlying.status, 200);
    assert.equal(underlying.body.results[0].t, nyMidnight('20131007'));
  });

  test('adjusted=false computes on raw prices across a split', async (t) => {
    const server = await fixtureServer(t, { now: '2014-06-10' });
    if (!server) return;
    const raw = closes('aapl', '20140609').map((r) => r.c);
    const { body } = await getJson(
      server,
      '/v1/indicators/sma/AAPL?window=2&adjusted=false&timestamp=2014-06-09',
    );
    near(body.results.values[0].value, ((raw.at(-1) as number) + (raw.at(-2) as number)) / 2, 'raw sma');
    const adj = await getJson(server, '/v1/indicators/sma/AAPL?window=2&timestamp=2014-06-09');
    assert.ok(
      adj.body.results.values[0].value < body.results.values[0].value / 7,
      'split-adjusted is far lower',
    );
  });

  test('bad parameters are 400; an unknown ticker has no values', async (t) => {
    const server = await fixtureServer(t);
    if (!server) return;
    for (const q of [
      'window=0',
      'timespan=second',
      'series_type=mid',
      'timestamp.gte=yesterday',
      'order=up',
    ]) {
      const { status, body } = await getJson(server, `/v1/indicators/rsi/SPY?${q}`);
      assert.equal(status, 400, q);
      assert.equal(body.status, 'ERROR');
    }
    const none = await getJson(server, '/v1/indicators/ema/NOPE');
    assert.equal(none.status, 200);
    assert.deepEqual(none.body.results.values, []);
  });
});
