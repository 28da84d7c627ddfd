import { marketPhaseAt } from '../calendar/index.js';
import { roundPrice } from '../market/index.js';
import type { Store } from '../store/store.js';
import { type SessionSoFar, sessionsSoFar } from './session-day.js';

/**
 * The v3 snapshot of one index (`/v3/snapshot/indices`) at `nowMs`: `value` is the latest minute close
 * (else the session's or, before any data today, the previous session's close); `session` the current
 * session so far with change against the previous close; `market_status` "open" during the regular
 * session of the US exchanges, else "closed".
 */
export async function indexSnapshot(
  store: Store,
  ticker: string,
  name: string | null,
  nowMs: number,
): Promise<Record<string, unknown>> {
  return (await indexSnapshots(store, [{ ticker, name }], nowMs))[0] as Record<string, unknown>;
}

/**
 * {@link indexSnapshot} of each of `indices`, in their order, from the sessions so far of all of them
 * at once (a fixed number of store queries for the whole list).
 */
export async function indexSnapshots(
  store: Store,
  indices: readonly { ticker: string; name: string | null }[],
  nowMs: number,
): Promise<Record<string, unknown>[]> {
  const sessions = await sessionsSoFar(
    store,
    indices.map((i) => i.ticker),
    nowMs,
  );
  return indices.map(({ ticker, name }) =>
    snapshotOf(ticker, name, sessions.get(ticker) as SessionSoFar, nowMs),
  );
}

function snapshotOf(
  ticker: string,
  name: string | null,
  s: SessionSoFar,
  nowMs: number,
): Record<string, unknown> {
  const value = s.minute?.c ?? s.day?.c ?? s.prevDay?.c;
  const out: Record<string, unknown> = { ticker };
  if (name) out.name = name;
  out.type = 'indices';
  if (value !== undefined) out.value = value;
  out.market_status = marketPhaseAt(nowMs).market === 'open' ? 'open' : 'closed';
  out.timeframe = 'REAL-TIME';
  const updatedMs = s.minute ? s.minute.t + 60_000 : s.day ? nowMs : s.dayStart;
  out.last_updated = BigInt(Math.floor(updatedMs)) * 1_000_000n;
  const session: Record<string, number> = {};
  if (s.day) {
    Object.assign(session, { open: s.day.o, high: s.day.h, low: s.day.l, close: s.day.c });
  }
  if (s.prevDay) {
    session.previous_close = s.prevDay.c;
    if (s.day) {
      session.change = roundPrice(ticker, s.day.c - s.prevDay.c);
      session.change_percent = s.prevDay.c !== 0 ? ((s.day.c - s.prevDay.c) / s.prevDay.c) * 100 : 0;
    }
  }
  out.session = session;
  return out;
}
