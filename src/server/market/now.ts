import type { Store } from '../store/store.js';

/**
 * The latest instant the store has data for (Unix ms): the last tick, or the last moment covered by the
 * last bar (a daily bar covers its whole day). `undefined` for an empty store. The server's "now" when
 * no `--now` is given.
 */
export async function latestDataTime(store: Store): Promise<number | undefined> {
  const rows = await store.all<{ t: number | null }>(
    `SELECT greatest(
       (SELECT max(sip_timestamp) // 1000000 FROM trades),
       (SELECT max(sip_timestamp) // 1000000 FROM quotes),
       (SELECT max(t + CASE resolution WHEN 'second' THEN 999 WHEN 'minute' THEN 59999
                                        WHEN 'hour' THEN 3599999 ELSE 86399999 END) FROM bars),
       (SELECT max(t + CASE resolution WHEN 'second' THEN 999 WHEN 'minute' THEN 59999
                                        WHEN 'hour' THEN 3599999 ELSE 86399999 END) FROM quote_bars))::DOUBLE AS t`,
  );
  const t = rows[0]?.t;
  return t === null || t === undefined ? undefined : t;
}
