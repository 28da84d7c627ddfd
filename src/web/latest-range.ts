/** A range to show when the address names a ticker but no days: the ticker's latest stored day. */
import { getJson, pathOf } from './api.js';
import type { AssetClass } from './markets.js';
import { barOperations, futuresOperations } from './operations.js';
import { partsIn } from './times.js';

export interface Range {
  from: string;
  to: string;
  timespan: string;
}

const INTRADAY = new Set(['second', 'minute', 'hour']);

/** `YYYY-MM-DD` a year before a date. */
function yearBefore(date: string): string {
  return `${Number(date.slice(0, 4)) - 1}${date.slice(4)}`;
}

/** The day of the ticker's latest bar of a timespan in `zone`, or undefined when it has none. */
async function latestBarDay(ticker: string, cls: AssetClass, timespan: string, zone: string) {
  if (cls === 'futures') {
    const resolution = INTRADAY.has(timespan) ? '1min' : '1session';
    const body = await getJson(
      pathOf(futuresOperations.getAggregates, [ticker], { resolution, sort: 'window_start.desc', limit: 1 }),
    );
    return body.results?.[0]?.session_end_date as string | undefined;
  }
  const today = new Date().toISOString().slice(0, 10);
  const body = await getJson(
    pathOf(barOperations[cls], [ticker, '1970-01-01', today], {
      timespan: INTRADAY.has(timespan) ? 'minute' : 'day',
      sort: 'desc',
      limit: 1,
    }),
  );
  const t = body.results?.[0]?.t;
  if (typeof t !== 'number') return undefined;
  const p = partsIn(t, zone);
  return `${p.year}-${p.month}-${p.day}`;
}

/**
 * The latest day with bars of the timespan (intraday: that day; longer: the year to it); a ticker with
 * only daily data gets its last year of day bars. Undefined when the store has no bars of it.
 */
export async function latestRange(
  ticker: string,
  cls: AssetClass,
  timespan: string,
  zone: string,
): Promise<Range | undefined> {
  if (INTRADAY.has(timespan)) {
    const day = await latestBarDay(ticker, cls, timespan, zone);
    if (day) return { from: day, to: day, timespan };
  }
  const day = await latestBarDay(ticker, cls, 'day', zone);
  if (!day) return undefined;
  return { from: yearBefore(day), to: day, timespan: INTRADAY.has(timespan) ? 'day' : timespan };
}
