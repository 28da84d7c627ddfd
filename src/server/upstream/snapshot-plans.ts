import type { Context } from 'hono';
import type { OperationSpec } from '../../core/operation.js';
import { decodeParam } from '../../core/wire-values.js';
import { SNAPSHOT_DIRECTIONS } from '../../operations/enums.js';
import {
  gainersAndLosers,
  indicesSnapshot,
  optionContractSnapshot,
  optionsChainSnapshot,
  snapshotAll,
  snapshotTicker,
  universalSnapshot,
} from '../../operations/snapshots.js';
import type { AppEnv } from '../http.js';
import { parseRequest } from '../validate.js';
import { ALL_DAYS } from './coverage.js';
import { type Need, type RoutePlan, requestKey } from './route-plans.js';
import { V2_MARKETS, type V2Market } from './v2-markets.js';

/**
 * What the snapshot routes need stored (see {@link RoutePlan}). Snapshots are stored as rows, one per
 * kind and ticker (`store-snapshots.ts`): a request naming its tickers (the v2 snapshot of one ticker or
 * of `tickers=`, an option contract, `ticker.any_of` of the indices and universal snapshots, on one page)
 * is answered from their rows once every one is stored and fresh, whichever answer brought them. Any
 * other request (a whole market, a chain, filters, gainers and losers) is stored as its answer, under
 * its request, and its snapshot objects as rows.
 */

/** The answer's request id as JSON text. */
const quoted = (id: string): string => JSON.stringify(id);

/** A request's query parameters the operation declares, besides the key. */
function declaredKeys(op: OperationSpec, c: Context<AppEnv>): string[] {
  const query = new Set(op.params.filter((p) => p.in === 'query').map((p) => p.wire));
  return [...new URL(c.req.url).searchParams.keys()].filter((k) => query.has(k));
}

/** A request stored as its answer, under the request, its snapshot objects as rows of `kind`. */
const whole = (c: Context<AppEnv>, kind: string): Need[] => [
  { ticker: requestKey(new URL(c.req.url)), kind, accepts: [kind], range: ALL_DAYS },
];

type Rows = NonNullable<Need['rows']>;

/** A request the rows of `tickers` answer (those that `fit` it), as `answer` writes it. */
const fromRows = (
  c: Context<AppEnv>,
  kind: string,
  tickers: readonly string[],
  answer: Rows['answer'],
  fits?: Rows['fits'],
): Need[] => [{ ...(whole(c, kind)[0] as Need), rows: { tickers, answer, ...(fits && { fits }) } }];

/** A ticker with its market's prefix, which requests may leave out. */
const withPrefix = (ticker: string, prefix: string): string =>
  prefix === '' || /^[A-Z]:/i.test(ticker) ? ticker : `${prefix}${ticker}`;

/**
 * The v2 snapshot of listed tickers (`tickers=` alone) is answered from their rows, in the order
 * listed, each once; the service leaves out tickers it does not know, so a request naming one is
 * fetched. Without `tickers=` (the whole market) or with other parameters, it is stored as answered.
 */
function manyNeeds(c: Context<AppEnv>, m: V2Market): Need[] {
  const op = snapshotAll(m.path);
  parseRequest(op, c);
  const keys = declaredKeys(op, c);
  const raw = new URL(c.req.url).searchParams.getAll('tickers').filter((s) => s.trim() !== '');
  const param = op.params.find((p) => p.wire === 'tickers');
  if (!param || raw.length === 0 || keys.some((k) => k !== 'tickers')) return whole(c, m.kind);
  const tickers = [
    ...new Set((decodeParam(param, raw.join(',')) as string[]).map((t) => withPrefix(t, m.prefix))),
  ];
  return fromRows(
    c,
    m.kind,
    tickers,
    (items) => `{"count":${items.length},"status":"OK","tickers":[${items.join(',')}]}`,
  );
}

/** One ticker's v2 snapshot is its row. */
function oneNeeds(c: Context<AppEnv>, m: V2Market): Need[] {
  const raw = String(parseRequest(snapshotTicker(m.path), c).values.get('ticker'));
  return fromRows(
    c,
    m.kind,
    [withPrefix(raw, m.prefix)],
    (items, id) => `{"request_id":${quoted(id)},"status":"OK","ticker":${items[0]}}`,
  );
}

/** An underlying as options name it: an index's without `I:`. */
const underlyingName = (ticker: unknown): string => String(ticker ?? '').replace(/^I:/, '');

/**
 * An option contract's snapshot is its row, brought by the contract's own answer or by its chain's,
 * when its underlying is the one asked.
 */
function contractNeeds(c: Context<AppEnv>): Need[] {
  const { values } = parseRequest(optionContractSnapshot, c);
  const underlying = underlyingName(values.get('underlyingAsset'));
  return fromRows(
    c,
    'snapshot:options',
    [withPrefix(String(values.get('optionContract')), 'O:')],
    (items, id) => `{"request_id":${quoted(id)},"results":${items[0]},"status":"OK"}`,
    (item) =>
      underlyingName((item.underlying_asset as Record<string, unknown> | undefined)?.ticker) === underlying,
  );
}

/**
 * The indices or universal snapshot of `ticker.any_of` (with at most a `limit` that holds them all on
 * one page) is answered from the rows of its tickers, in the order asked; other requests are stored as
 * answered. Tickers are looked up as asked: the service answers an index asked without `I:` under the
 * ticker as asked, and a row under another spelling is not taken for it.
 */
function anyOfNeeds(c: Context<AppEnv>, op: OperationSpec, kind: string): Need[] {
  const { values } = parseRequest(op, c, { limit: 10 });
  const anyOf = values.get('ticker.any_of');
  const limit = typeof values.get('limit') === 'number' ? (values.get('limit') as number) : 10;
  if (
    new URL(c.req.url).searchParams.has('cursor') ||
    !Array.isArray(anyOf) ||
    anyOf.length === 0 ||
    anyOf.length > limit ||
    declaredKeys(op, c).some((k) => k !== 'ticker.any_of' && k !== 'limit')
  )
    return whole(c, kind);
  return fromRows(
    c,
    kind,
    anyOf as string[],
    (items, id) => `{"request_id":${quoted(id)},"results":[${items.join(',')}],"status":"OK"}`,
  );
}

/**
 * The gainers or losers of a market, stored as answered under their request, their snapshot objects as
 * rows. Their route's pattern matches the many-ticker snapshot's path too (`…/tickers`), whose own
 * plan comes first: when that plan leaves such a request to the local route, this one needs nothing
 * and leaves it there.
 */
function moversNeeds(c: Context<AppEnv>, m: V2Market): Need[] {
  const direction = c.req.param('direction') ?? '';
  return (SNAPSHOT_DIRECTIONS as readonly string[]).includes(direction) ? whole(c, m.kind) : [];
}

/** Every snapshot route of the caching server. */
export const SNAPSHOT_PLANS: readonly RoutePlan[] = [
  ...V2_MARKETS.map((m) => ({ op: snapshotAll(m.path), needs: (c: Context<AppEnv>) => manyNeeds(c, m) })),
  ...V2_MARKETS.map((m) => ({ op: snapshotTicker(m.path), needs: (c: Context<AppEnv>) => oneNeeds(c, m) })),
  { op: optionsChainSnapshot, needs: (c) => whole(c, 'snapshot:options') },
  { op: optionContractSnapshot, needs: contractNeeds },
  { op: indicesSnapshot, needs: (c) => anyOfNeeds(c, indicesSnapshot, 'snapshot:indices') },
  { op: universalSnapshot, needs: (c) => anyOfNeeds(c, universalSnapshot, 'snapshot:universal') },
  ...V2_MARKETS.map((m) => ({
    op: gainersAndLosers(m.path),
    needs: (c: Context<AppEnv>) => moversNeeds(c, m),
  })),
];
