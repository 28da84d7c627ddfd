import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AbortError, InvalidParameterError, RateLimitError } from '../../src/core/errors.js';
import {
  type FetchChunk,
  type FullRangeBar,
  type FullRangeRequest,
  failedChunkOf,
  fetchFullRange,
} from '../../src/core/full-range.js';
import { Semaphore } from '../../src/core/semaphore.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

// The requested range, as New York calendar days, and the instants it covers (written out by hand).
const FROM = '2024-01-02';
const TO = '2024-04-30';
const RANGE_START = Date.parse('2024-01-02T00:00:00-05:00');
const RANGE_END = Date.parse('2024-05-01T00:00:00-04:00'); // exclusive: the next midnight after TO

/** One bar every 7 minutes from three days before the range to three days after it. */
function generateBars(): FullRangeBar[] {
  const bars: FullRangeBar[] = [];
  for (let t = RANGE_START - 3 * 24 * HOUR; t < RANGE_END + 3 * 24 * HOUR; t += 7 * MINUTE) {
    bars.push({ t, o: 1, h: 2, l: 0.5, c: 1.5, v: (t / MINUTE) % 1000, src: 'owner' });
  }
  return bars;
}
const DATA = generateBars();
const inRange = (lo: number, hi: number) => DATA.filter((b) => b.t >= lo && b.t < hi);
const EXPECTED = inRange(RANGE_START, RANGE_END);

interface Source {
  fetch: FetchChunk;
  calls: [number, number][];
  maxInFlight: () => number;
}

/**
 * The API's aggregate endpoint over `data`: every bar with from <= t <= to. `spill` widens each answer by
 * that many ms on both sides (neighbouring chunks' bars, marked `src: 'neighbour'`); `delay` makes
 * answers asynchronous so that concurrency can be observed.
 */
function source(
  data: readonly FullRangeBar[],
  opts: { spill?: number; delay?: (i: number) => number } = {},
): Source {
  const calls: [number, number][] = [];
  let inFlight = 0;
  let max = 0;
  const fetch: FetchChunk = async (from, to) => {
    const call = calls.push([from, to]) - 1;
    inFlight++;
    max = Math.max(max, inFlight);
    try {
      const ms = opts.delay?.(call) ?? 0;
      await new Promise((resolve) => setTimeout(resolve, ms));
      const spill = opts.spill ?? 0;
      const bars = data
        .filter((b) => b.t >= from - spill && b.t <= to + spill)
        .map((b) => (b.t >= from && b.t <= to ? b : { ...b, src: 'neighbour' }));
      // Answer newest first: the engine must not rely on the order inside a chunk.
      return { bars: bars.reverse(), status: 'OK' };
    } finally {
      inFlight--;
    }
  };
  return { fetch, calls, maxInFlight: () => max };
}

function request(overrides: Partial<FullRangeRequest> = {}): FullRangeRequest {
  return {
    from: FROM,
    to: TO,
    timespan: 'minute',
    multiplier: 1,
    sort: 'asc',
    runParallel: true,
    maxConcurrentWorkers: 4,
    highVolatility: false,
    info: true,
    warnings: true,
    timeZone: 'America/New_York',
    ...overrides,
  };
}

describe('fetchFullRange', () => {
  test('merges chunks into every bar of the range, ascending, once each, nothing outside', async () => {
    const src = source(DATA);
    const bars = await fetchFullRange(request(), src.fetch);
    assert.deepEqual(bars, EXPECTED);
    // Minute chunks are 45 days: 2024-01-02..02-16..04-01..05-01, requested with inclusive ends.
    assert.deepEqual(
      src.calls.sort((a, b) => a[0] - b[0]),
      [
        [RANGE_START, Date.parse('2024-02-16T00:00:00-05:00') - 1],
        [Date.parse('2024-02-16T00:00:00-05:00'), Date.parse('2024-04-01T00:00:00-04:00') - 1],
        [Date.parse('2024-04-01T00:00:00-04:00'), RANGE_END - 1],
      ],
    );
  });

  test('overlapping chunk answers: no duplicate, the owning chunk wins, outside bars trimmed', async () => {
    const src = source(DATA, { spill: 6 * HOUR });
    const bars = await fetchFullRange(request(), src.fetch);
    assert.deepEqual(bars, EXPECTED);
    assert.ok(bars.every((b) => b.src === 'owner'));
  });

  test("a bar from outside a chunk fills only a t no chunk owns a bar at, the earliest chunk's first", async () => {
    const feb16 = Date.parse('2024-02-16T00:00:00-05:00');
    const apr1 = Date.parse('2024-04-01T00:00:00-04:00');
    const bar = (t: number, src: string) => ({ t, o: 1, h: 1, l: 1, c: 1, v: 1, src });
    const gap = RANGE_START + 10 * MINUTE; // chunk 0 answers no bar there
    const owned = RANGE_START + 20 * MINUTE;
    const answers = new Map<number, FullRangeBar[]>([
      // Two bars at one t in a chunk: the first counts.
      [RANGE_START, [bar(RANGE_START, 'first'), bar(RANGE_START, 'second'), bar(owned, 'owner')]],
      [
        feb16,
        [bar(apr1 + MINUTE, 'stray-1'), bar(gap, 'stray-1'), bar(owned, 'stray-1'), bar(feb16, 'owner')],
      ],
      [apr1, [bar(apr1 + MINUTE, 'owner'), bar(gap, 'stray-2'), bar(RANGE_START - MINUTE, 'outside')]],
    ]);
    const progress: number[] = [];
    const bars = await fetchFullRange(
      request({ maxConcurrentWorkers: 3, onProgress: (p) => progress.push(p.bars) }),
      async (from) => ({ bars: answers.get(from) ?? [], status: 'OK' }),
    );
    assert.deepEqual(
      bars.map((b) => [b.t, b.src]),
      [
        [RANGE_START, 'first'],
        [gap, 'stray-1'],
        [owned, 'owner'],
        [feb16, 'owner'],
        [apr1 + MINUTE, 'owner'],
      ],
    );
    assert.equal(progress.at(-1), 5);
    assert.ok(progress.every((n, i) => i === 0 || n >= (progress[i - 1] as number)));
  });

  test('a bar at exactly `from` is kept, and an exact `to` is included', async () => {
    const from = (EXPECTED[100] as FullRangeBar).t;
    const to = (EXPECTED[5000] as FullRangeBar).t;
    const src = source(DATA, { spill: HOUR });
    const bars = await fetchFullRange(request({ from, to }), src.fetch);
    assert.deepEqual(bars, EXPECTED.slice(100, 5001));
    assert.equal(bars[0]?.t, from);
    assert.equal(bars.at(-1)?.t, to);
  });

  test('sort desc returns the same bars newest first', async () => {
    const bars = await fetchFullRange(request({ sort: 'desc' }), source(DATA, { spill: HOUR }).fetch);
    assert.deepEqual(bars, [...EXPECTED].reverse());
  });

  test('sequential and parallel give the same result; sequential has one request in flight', async () => {
    const delay = (i: number) => (i * 7) % 5;
    const seq = source(DATA, { spill: HOUR, delay });
    const par = source(DATA, { spill: HOUR, delay });
    const a = await fetchFullRange(request({ runParallel: false, highVolatility: true }), seq.fetch);
    const b = await fetchFullRange(request({ runParallel: true, highVolatility: true }), par.fetch);
    assert.deepEqual(a, b);
    assert.deepEqual(a, EXPECTED);
    assert.equal(seq.maxInFlight(), 1);
    // Sequential requests go oldest first.
    assert.deepEqual(
      seq.calls,
      [...seq.calls].sort((x, y) => x[0] - y[0]),
    );
  });

  test('concurrency never exceeds maxConcurrentWorkers (and reaches it)', async () => {
    for (const limit of [1, 3, 7]) {
      // Second bars: 1 h chunks, 48 of them over two days.
      const src = source(DATA, { delay: (i) => 2 + (i % 3) });
      const bars = await fetchFullRange(
        request({ from: '2024-01-03', to: '2024-01-04', timespan: 'second', maxConcurrentWorkers: limit }),
        src.fetch,
      );
      assert.equal(src.calls.length, 48);
      assert.equal(src.maxInFlight(), limit, `limit ${limit}`);
      assert.deepEqual(
        bars,
        inRange(Date.parse('2024-01-03T00:00:00-05:00'), Date.parse('2024-01-05T00:00:00-05:00')),
      );
    }
  });

  test('empty chunks are not failures: info is logged when asked, nothing otherwise', async (t) => {
    const gapFrom = Date.parse('2024-02-10T00:00:00Z');
    const gapTo = Date.parse('2024-04-05T00:00:00Z');
    const data = DATA.filter((b) => b.t < gapFrom || b.t >= gapTo);
    const expected = EXPECTED.filter((b) => b.t < gapFrom || b.t >= gapTo);
    const lines: [string, string][] = [];
    const log = (level: 'info' | 'warn', message: string) => lines.push([level, message]);
    assert.deepEqual(await fetchFullRange(request({ log }), source(data).fetch), expected);
    const empty = `${new Date(Date.parse('2024-02-16T00:00:00-05:00')).toISOString()}..${new Date(Date.parse('2024-04-01T00:00:00-04:00') - 1).toISOString()}`;
    assert.deepEqual(lines, [['info', `No data for ${empty}`]]);

    lines.length = 0;
    await fetchFullRange(request({ log, info: false }), source(data).fetch);
    assert.deepEqual(lines, []);

    // Silent by default: no logger, nothing printed.
    const spies = (['log', 'info', 'warn', 'error'] as const).map((m) => t.mock.method(console, m, () => {}));
    const write = t.mock.method(process.stdout, 'write', () => true);
    await fetchFullRange(request(), source(data).fetch);
    write.mock.restore();
    assert.deepEqual(
      spies.map((s) => s.mock.callCount()),
      [0, 0, 0, 0],
    );
    assert.equal(write.mock.callCount(), 0);
  });

  test('a chunk with an unexpected status and no bars is a warning', async () => {
    const lines: [string, string][] = [];
    const fetch: FetchChunk = async () => ({ bars: [], status: 'ERROR' });
    const bars = await fetchFullRange(request({ log: (l, m) => lines.push([l, m]) }), fetch);
    assert.deepEqual(bars, []);
    assert.equal(lines.length, 3);
    assert.ok(lines.every(([level, message]) => level === 'warn' && message.endsWith('(status ERROR)')));
  });

  test('a failing chunk rejects at once with its own error, names the chunk and aborts the others', async () => {
    const failure = new RateLimitError(429, { status: 'ERROR', error: 'too many' }, 'req-1', '/v2/aggs');
    // The other chunks answer well after the failure: the call must not wait for them.
    const src = source(DATA, { delay: () => 30 });
    let settled = 0;
    const lines: string[] = [];
    const signals: AbortSignal[] = [];
    const fetch: FetchChunk = async (from, to, signal) => {
      signals.push(signal);
      try {
        if (from === Date.parse('2024-02-16T00:00:00-05:00')) {
          await new Promise((resolve) => setTimeout(resolve, 1));
          throw failure;
        }
        return await src.fetch(from, to, signal);
      } finally {
        settled++;
      }
    };
    await assert.rejects(fetchFullRange(request({ log: (_l, m) => lines.push(m) }), fetch), (e: unknown) => {
      assert.equal(e, failure);
      assert.ok(e instanceof RateLimitError);
      assert.equal(e.message, 'HTTP 429 for /v2/aggs: too many (request id req-1)');
      assert.deepEqual(failedChunkOf(e), {
        index: 1,
        fromMs: Date.parse('2024-02-16T00:00:00-05:00'),
        toMs: Date.parse('2024-04-01T00:00:00-04:00') - 1,
      });
      return true;
    });
    assert.equal(src.calls.length, 2);
    assert.equal(settled, 1, 'only the failing chunk had settled when the call rejected');
    assert.equal(signals.length, 3);
    assert.ok(
      signals.every((signal) => signal.aborted),
      'the chunks still in flight were told to stop',
    );
    assert.equal(lines.length, 1);
    assert.match(
      lines[0] as string,
      /^Chunk 2 of 3 \(2024-02-16T05:00:00\.000Z\.\.2024-04-01T03:59:59\.999Z\) failed: HTTP 429/,
    );
  });

  test('after a failure no further chunk is started', async () => {
    const src = source(DATA);
    const boom = new Error('connection reset');
    let calls = 0;
    const fetch: FetchChunk = async (from, to, signal) => {
      calls++;
      if (calls === 2) throw boom;
      return src.fetch(from, to, signal);
    };
    await assert.rejects(
      fetchFullRange(
        request({ from: '2024-01-03', to: '2024-01-03', timespan: 'second', runParallel: false }),
        fetch,
      ),
      boom,
    );
    assert.equal(calls, 2);
  });

  test('an aborted signal stops scheduling and rejects with AbortError', async () => {
    const controller = new AbortController();
    const src = source(DATA, { delay: () => 1 });
    await assert.rejects(
      fetchFullRange(
        request({
          from: '2024-01-03',
          to: '2024-01-04',
          timespan: 'second',
          maxConcurrentWorkers: 2,
          signal: controller.signal,
          onProgress: (p) => p.chunksDone === 5 && controller.abort(new Error('user cancelled')),
        }),
        src.fetch,
      ),
      (e: unknown) => e instanceof AbortError && /after \d+ of 48 chunks/.test(e.message),
    );
    assert.ok(src.calls.length <= 7, `${src.calls.length} chunks requested`);
    await assert.rejects(
      fetchFullRange(request({ signal: AbortSignal.abort() }), src.fetch),
      (e: unknown) => e instanceof AbortError,
    );
  });

  test("the caller's abort rejects at once and aborts the chunks in flight", async () => {
    const controller = new AbortController();
    const signals: AbortSignal[] = [];
    // Every chunk waits for its signal: only an abort that reaches the chunks in flight ends them.
    const fetch: FetchChunk = (_from, _to, signal) => {
      signals.push(signal);
      return new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new Error('chunk cancelled')), { once: true }),
      );
    };
    const call = fetchFullRange(request({ maxConcurrentWorkers: 2, signal: controller.signal }), fetch);
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(signals.length, 2);
    controller.abort(new Error('user cancelled'));
    await assert.rejects(
      call,
      (e: unknown) => e instanceof AbortError && /after 0 of 3 chunks/.test(e.message),
    );
    assert.ok(signals.every((signal) => signal.aborted));
    assert.equal(signals.length, 2, 'no chunk started after the abort');
  });

  test('progress is reported after every chunk, monotonic, ending at the result size', async () => {
    const seen: { chunksDone: number; chunksTotal: number; bars: number }[] = [];
    const bars = await fetchFullRange(
      request({ highVolatility: true, onProgress: (p) => seen.push({ ...p }) }),
      source(DATA, { spill: HOUR, delay: (i) => (i * 3) % 4 }).fetch,
    );
    const total = seen[0]?.chunksTotal ?? 0;
    assert.ok(total > 3);
    assert.equal(seen.length, total);
    seen.forEach((p, i) => {
      assert.equal(p.chunksDone, i + 1);
      assert.equal(p.chunksTotal, total);
      if (i > 0) assert.ok(p.bars >= (seen[i - 1]?.bars ?? 0));
    });
    assert.equal(seen.at(-1)?.bars, bars.length);
  });

  test('validates its options', async () => {
    const src = source(DATA);
    const bad: [Partial<FullRangeRequest>, string][] = [
      [{ maxConcurrentWorkers: 0 }, 'maxConcurrentWorkers'],
      [{ maxConcurrentWorkers: 2.5 }, 'maxConcurrentWorkers'],
      [{ timespan: 'fortnight' }, 'timespan'],
      [{ multiplier: 0 }, 'multiplier'],
      [{ sort: 'up' as never }, 'sort'],
      [{ timeZone: 'Atlantis/Capital' }, 'timeZone'],
      [{ from: '2024-02-30' }, 'from'],
      [{ from: '2024-05-01', to: '2024-04-30' }, 'to'],
    ];
    for (const [overrides, parameter] of bad) {
      await assert.rejects(
        fetchFullRange(request(overrides), src.fetch),
        (e: unknown) => e instanceof InvalidParameterError && e.parameter === parameter,
      );
    }
    assert.equal(src.calls.length, 0);
  });
});

describe('Semaphore', () => {
  test('admits at most `permits` holders, first come first served; release is idempotent', async () => {
    const sem = new Semaphore(2);
    const order: number[] = [];
    const r1 = await sem.acquire();
    const r2 = await sem.acquire();
    assert.equal(sem.available, 0);
    const waiting = [3, 4].map(async (n) => {
      const release = await sem.acquire();
      order.push(n);
      return release;
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.deepEqual(order, []);
    r1();
    r1(); // a second call must not hand out a second permit
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.deepEqual(order, [3]);
    r2();
    const [r3, r4] = await Promise.all(waiting);
    assert.deepEqual(order, [3, 4]);
    r3?.();
    r4?.();
    assert.equal(sem.available, 2);
    assert.equal(await sem.run(async () => 42), 42);
    await assert.rejects(
      sem.run(async () => {
        throw new Error('task failed');
      }),
      /task failed/,
    );
    assert.equal(sem.available, 2, 'a failing task gives its permit back');
  });

  test('refuses a non-positive or fractional size', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      assert.throws(
        () => new Semaphore(bad, 'maxConcurrentWorkers'),
        (e: unknown) => e instanceof InvalidParameterError && e.parameter === 'maxConcurrentWorkers',
      );
    }
  });
});
