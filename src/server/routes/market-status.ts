import type { Hono } from 'hono';
import { dayOf, NEW_YORK, wallTime, zonedToUtc, zoneOffset } from '../../dates/time-zone.js';
import { marketHolidays, marketStatus } from '../../operations/reference.js';
import { isForexOpen, marketPhaseAt, nyseHolidays } from '../calendar/index.js';
import type { ServerContext } from '../context.js';
import { type AppEnv, sendJson } from '../http.js';
import { parseRequest, routePattern } from '../validate.js';

/** The exchanges the upcoming-holidays list names, in the service's order. */
const EXCHANGES = ['NYSE', 'NASDAQ', 'OTC'] as const;

/** `serverTime`: RFC 3339 in New York time with its offset (`2022-04-28T16:48:08-04:00`). */
export function newYorkTimestamp(ms: number): string {
  const w = wallTime(ms, NEW_YORK);
  const offset = Math.round(zoneOffset(ms, NEW_YORK) / 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${w.year}-${p(w.month)}-${p(w.day)}T${p(w.hour)}:${p(w.minute)}:${p(w.second)}${sign}${p(Math.floor(abs / 60))}:${p(abs % 60)}`;
}

/**
 * `/v1/marketstatus/now` at "now", from the exchange calendar: US exchanges open 09:30–16:00 New York
 * (13:00 on early closes), extended hours 04:00–09:30 and after the close until 20:00 (17:00), closed
 * otherwise and on holidays; fx open Sunday 17:00 to Friday 17:00 New York; crypto always open. Index
 * groups follow the US regular session. No `status`/`request_id` keys, as the service answers.
 */
export function marketStatusBody(nowMs: number): Record<string, unknown> {
  const phase = marketPhaseAt(nowMs);
  const indices = phase.market === 'open' ? 'open' : 'closed';
  return {
    market: phase.market,
    earlyHours: phase.earlyHours,
    afterHours: phase.afterHours,
    serverTime: newYorkTimestamp(nowMs),
    exchanges: { nyse: phase.market, nasdaq: phase.market, otc: phase.market },
    currencies: { fx: isForexOpen(nowMs) ? 'open' : 'closed', crypto: 'open' },
    indicesGroups: {
      s_and_p: indices,
      societe_generale: indices,
      msci: indices,
      ftse_russell: indices,
      mstar: indices,
      mstarc: indices,
      cccy: 'open',
      cgi: indices,
      nasdaq: indices,
      dow_jones: indices,
    },
  };
}

/**
 * `/v1/marketstatus/upcoming`: the full closures and early closes of the calendar after now's New York
 * date through the end of the year (as the service's list of 2022-04-28 runs to Christmas 2022), and
 * from November on through the end of the next year too; one entry per exchange (NYSE, NASDAQ, OTC);
 * early closes carry the session's open and close instants. A top-level array, as the service answers.
 */
export function upcomingHolidaysBody(nowMs: number): Record<string, unknown>[] {
  const today = dayOf(nowMs, NEW_YORK);
  const year = Number(today.slice(0, 4));
  const until = `${Number(today.slice(5, 7)) >= 11 ? year + 1 : year}-12-31`;
  const out: Record<string, unknown>[] = [];
  for (const h of [...nyseHolidays(year), ...nyseHolidays(year + 1)]) {
    if (h.date <= today || h.date > until) continue;
    const [y, m, d] = h.date.split('-').map(Number) as [number, number, number];
    for (const exchange of EXCHANGES) {
      const item: Record<string, unknown> = { exchange, name: h.name, date: h.date, status: h.status };
      if (h.status === 'early-close') {
        item.open = new Date(zonedToUtc(NEW_YORK, y, m, d, 9, 30)).toISOString();
        item.close = new Date(zonedToUtc(NEW_YORK, y, m, d, 13)).toISOString();
      }
      out.push(item);
    }
  }
  return out;
}

/** Market status and upcoming holidays. */
export function marketStatusRoutes(app: Hono<AppEnv>, ctx: ServerContext): void {
  // The server's "now" rarely changes (it is fixed for a store), so the last body is kept.
  let statusAt: number | undefined;
  let status: Record<string, unknown> = {};
  app.get(routePattern(marketStatus), async (c) => {
    parseRequest(marketStatus, c);
    const now = await ctx.now();
    if (now !== statusAt) {
      status = marketStatusBody(now);
      statusAt = now;
    }
    return sendJson(c, status);
  });
  app.get(routePattern(marketHolidays), async (c) => {
    parseRequest(marketHolidays, c);
    return sendJson(c, upcomingHolidaysBody(await ctx.now()));
  });
}
