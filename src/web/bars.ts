/** A ticker's bars over a range, from the server's aggregate routes, every page followed. */
import { getJson, pathOf } from './api.js';
import type { AssetClass } from './markets.js';
import { barOperations, futuresOperations, futuresResolution } from './operations.js';
import { nextDay } from './times.js';

/** One bar as the chart takes it: `time` in Unix seconds. */
export interface Bar {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export interface BarRequest {
  ticker: string;
  cls: AssetClass;
  from: string;
  to: string;
  multiplier: number;
  timespan: string;
}

/**
 * Pages beyond this many (300 000 bars) are not fetched: more would not be readable in one chart, and
 * the caption says so.
 */
const MAX_PAGES = 6;

/** The first page's path: `/v2/aggs/ticker/…` for every class but futures (`/futures/v1/aggs/…`). */
export function barsPath(r: BarRequest): string {
  if (r.cls === 'futures') {
    return pathOf(futuresOperations.getAggregates, [r.ticker], {
      // A timespan futures have no unit for goes as it is: the declaration refuses it, naming it.
      resolution: futuresResolution(r.multiplier, r.timespan) ?? r.timespan,
      windowStartGte: r.from,
      windowStartLt: nextDay(r.to),
      sort: 'window_start.asc',
      limit: 50000,
    });
  }
  return pathOf(barOperations[r.cls], [r.ticker, r.from, r.to], {
    multiplier: r.multiplier,
    timespan: r.timespan,
    adjusted: true,
    sort: 'asc',
    limit: 50000,
  });
}

const seconds = (ns: bigint | number) =>
  typeof ns === 'bigint' ? Number(ns / 1_000_000_000n) : Math.floor(ns / 1_000_000_000);

/** Every bar of the range, in time order, and whether pages were left unfetched. */
export async function fetchBars(
  r: BarRequest,
  signal: AbortSignal,
): Promise<{ bars: Bar[]; truncated: boolean }> {
  const bars: Bar[] = [];
  let next: string | undefined = barsPath(r);
  let pages = 0;
  while (next && pages < MAX_PAGES) {
    const body: any = await getJson(next, signal);
    pages++;
    for (const b of body.results ?? []) {
      bars.push(
        r.cls === 'futures'
          ? {
              time: seconds(b.window_start),
              open: b.open,
              high: b.high,
              low: b.low,
              close: b.close,
              volume: b.volume ?? 0,
            }
          : { time: Math.floor(b.t / 1000), open: b.o, high: b.h, low: b.l, close: b.c, volume: b.v ?? 0 },
      );
    }
    next = body.next_url;
  }
  return { bars, truncated: next !== undefined };
}
