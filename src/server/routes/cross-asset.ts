import type { Hono } from 'hono';
import { snapshotSummaries, universalSnapshot } from '../../operations/snapshots.js';
import type { ServerContext } from '../context.js';
import { type AppEnv, sendJson } from '../http.js';
import { sortKeysDeep } from '../key-order.js';
import { keysetPage, keysetPosition } from '../listing/keyset-page.js';
import { pageOffset, withNextUrl } from '../listing/offset-page.js';
import { type AssetClass, assetClassOf } from '../market/now.js';
import { listSnapshotSubjects, snapshotSubjects } from '../market/snapshot-subjects.js';
import {
  notFoundItem,
  type SnapshotSubject,
  summaryOf,
  unifiedSnapshots,
} from '../snapshots/unified-snapshot.js';
import type { Store } from '../store/store.js';
import { parseRequest, routePattern } from '../validate.js';

/** Snapshots of `tickers` in their order; the ones the store does not know as error items. */
async function snapshotsOf(
  store: Store,
  tickers: readonly string[],
  now: ServerContext['now'],
): Promise<Record<string, unknown>[]> {
  const subjects = await snapshotSubjects(store, tickers);
  const known = tickers.flatMap((t) => subjects.get(t) ?? []);
  const snaps = (await unifiedSnapshots(store, known, (t) => now(assetClassOf(t)))).values();
  return tickers.map((t) =>
    subjects.has(t) ? (snaps.next().value as Record<string, unknown>) : notFoundItem(t),
  );
}

/** The snapshot across asset classes (`/v3/snapshot`) and the summaries (`/v1/summaries`). */
export function crossAssetRoutes(app: Hono<AppEnv>, ctx: ServerContext): void {
  app.get(routePattern(universalSnapshot), async (c) => {
    const req = parseRequest(universalSnapshot, c, { limit: 10 });
    const v = req.values;
    const limit = v.get('limit') as number;
    const desc = v.get('order') === 'desc';
    const now = (cls: AssetClass) => ctx.now(cls);
    // The service writes every key of an item sorted, error items too.
    const envelope = (results: Record<string, unknown>[]) => ({
      request_id: c.get('requestId'),
      results: results.map(sortKeysDeep),
      status: 'OK',
    });
    const anyOf = v.get('ticker.any_of');
    if (Array.isArray(anyOf)) {
      // Listed tickers answer in the order asked, unknown ones as error items.
      const offset = pageOffset(req);
      const page = anyOf.slice(offset, offset + limit + 1);
      const results = await snapshotsOf(ctx.store, page.slice(0, limit), now);
      return sendJson(c, withNextUrl(c, req, envelope(results), page.length, limit));
    }
    const [after] = keysetPosition(req, ['text']) ?? [];
    const rows = await listSnapshotSubjects(ctx.store, v, {
      limit,
      desc,
      ...(after !== undefined && { after }),
    });
    const page = keysetPage(c, req, rows, limit, (s: SnapshotSubject) => [s.ticker], {
      limit: String(limit),
      order: desc ? 'desc' : 'asc',
    });
    const results = await unifiedSnapshots(ctx.store, page.rows, (t) => now(assetClassOf(t)));
    return sendJson(c, {
      ...envelope(results),
      ...(page.nextUrl !== undefined && { next_url: page.nextUrl }),
    });
  });

  app.get(routePattern(snapshotSummaries), async (c) => {
    const { values } = parseRequest(snapshotSummaries, c);
    const anyOf = values.get('ticker.any_of');
    const tickers = Array.isArray(anyOf) ? anyOf : [];
    const snaps = await snapshotsOf(ctx.store, tickers, (cls) => ctx.now(cls));
    return sendJson(c, {
      request_id: c.get('requestId'),
      results: snaps.map((s) => sortKeysDeep(summaryOf(s))),
      status: 'OK',
    });
  });
}
