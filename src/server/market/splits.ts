import { listValue } from '@duckdb/node-api';
import type { Store } from '../store/store.js';
import { storeFact } from './facts.js';

const DAY_MS = 86_400_000;

/**
 * Before the local day `beforeDay` (days since 1970-01-01 on the market's calendar: the execution
 * date), prices are divided by `factor`.
 */
export interface SplitStep {
  readonly beforeDay: number;
  readonly factor: number;
}

/**
 * The split steps of a ticker, latest first, each with the cumulative ratio of every split on or after
 * its date: a bar before a 7-for-1 split has its prices divided by 7 and its volume multiplied by 7.
 * Kept per ticker for a read-only store (`storeFact`). {@link splitStepsOf} of one.
 */
export async function splitSteps(store: Store, ticker: string): Promise<readonly SplitStep[]> {
  return (await splitStepsOf(store, [ticker])).get(ticker) ?? [];
}

/**
 * {@link splitSteps} of each of `tickers`: the steps a read-only store keeps are not read again, the
 * others are read in one query for the whole list.
 */
export async function splitStepsOf(
  store: Store,
  tickers: readonly string[],
): Promise<Map<string, readonly SplitStep[]>> {
  let read: Promise<Map<string, SplitStep[]>> | undefined;
  const steps = await Promise.all(
    tickers.map((t) =>
      storeFact(store, `splits ${t}`, async () => {
        read ??= readSplitSteps(store, tickers);
        return (await read).get(t) ?? [];
      }),
    ),
  );
  return new Map(tickers.map((t, i) => [t, steps[i] as readonly SplitStep[]]));
}

async function readSplitSteps(store: Store, tickers: readonly string[]): Promise<Map<string, SplitStep[]>> {
  const rows = await store.all<{ tk: string; d: string; split_from: number; split_to: number }>(
    `SELECT ticker AS tk, ${store.dialect.dateText('execution_date')} AS d, split_from, split_to
       FROM splits WHERE ${store.dialect.inList('ticker', '$1')} AND split_from > 0 AND split_to > 0
      ORDER BY ticker, execution_date DESC`,
    [listValue([...tickers])],
  );
  const out = new Map<string, SplitStep[]>();
  let factor = 1;
  for (const r of rows) {
    let steps = out.get(r.tk);
    if (!steps) {
      steps = [];
      out.set(r.tk, steps);
      factor = 1;
    }
    factor *= r.split_to / r.split_from;
    steps.push({ beforeDay: Date.parse(`${r.d}T00:00:00Z`) / DAY_MS, factor });
  }
  return out;
}

/** A SQL expression giving the split factor of the local day number in column `column`. */
export function splitFactorSql(steps: readonly SplitStep[], column: string): string {
  if (steps.length === 0) return '1.0';
  // Earliest step first: the first matching WHEN carries the largest cumulative factor.
  let sql = 'CASE';
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i] as SplitStep;
    sql += ` WHEN ${column} < ${s.beforeDay} THEN ${s.factor}`;
  }
  return `${sql} ELSE 1.0 END`;
}

/** The split factor of the local day `day` (1 when no split follows). */
export function splitFactorAt(steps: readonly SplitStep[], day: number): number {
  let factor = 1;
  for (const s of steps) if (day < s.beforeDay) factor = s.factor;
  return factor;
}
