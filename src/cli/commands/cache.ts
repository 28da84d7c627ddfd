import { existsSync } from 'node:fs';
import { defaultDbPath } from '../../server/store/default-db-path.js';
import { DEFAULT_UPSTREAM_URL, UPSTREAM_TOTAL_TIMEOUT } from '../../server/upstream/upstream-options.js';
import type { CommandDef, OptionDef } from '../command.js';
import type { CliContext } from '../context.js';
import { openWritableStore } from '../open-writable-store.js';
import { UsageError } from '../usage-error.js';
import { upstreamOption } from './serve.js';

/** `mdq cache status | clear | refresh`: what a caching server (`mdq serve --upstream`) has stored. */

const dbOption: OptionDef = {
  name: 'db',
  type: 'path',
  default: '$MDQ_DB, else ~/.local/share/mdq/mdq.duckdb',
  doc: 'Database file of the caching server (stop the server first: one process writes a file).',
};

/** Opens the store at --db (it must exist), runs `fn`, closes it. */
async function withStore<T>(
  ctx: CliContext,
  db: string | undefined,
  fn: (store: import('../../server/store/duckdb-store.js').DuckDbStore) => Promise<T>,
): Promise<T> {
  const path = db ?? defaultDbPath(ctx.streams.env);
  if (!existsSync(path)) throw new UsageError(`Invalid --db: ${JSON.stringify(path)} does not exist`);
  const store = await openWritableStore(path);
  try {
    return await fn(store);
  } finally {
    store.close();
  }
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A range of days: `YYYY-MM-DD` or `YYYY-MM-DD..YYYY-MM-DD`. */
function dayRange(text: string): { first: string; last: string } {
  const parts = text.split('..');
  const first = parts[0] ?? '';
  const last = parts[1] ?? first;
  const ok = (d: string) => DAY.test(d) && !Number.isNaN(Date.parse(d));
  if (parts.length > 2 || !ok(first) || !ok(last) || first > last) {
    throw new UsageError(
      `Invalid range: ${JSON.stringify(text)}; expected YYYY-MM-DD or YYYY-MM-DD..YYYY-MM-DD, first day first`,
    );
  }
  return { first, last };
}

/** Megabytes with one decimal. */
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

export const cacheCommands: CommandDef[] = [
  {
    path: 'cache status',
    summary:
      'List what the caching server stored: tickers (a listing by its filters, an answer by its request), kinds, day ranges, rows or bytes each, and the size on disk.',
    args: [{ name: 'ticker', type: 'ticker', optional: true, doc: 'Only this ticker.' }],
    options: [dbOption],
    async run(ctx, input) {
      const { cacheStatus } = await import('../../server/upstream/cache-admin.js');
      const status = await withStore(ctx, input.options.get('db'), (store) =>
        cacheStatus(store, input.args[0]),
      );
      await ctx.print(
        status.ranges.map((r) => ({
          ticker: r.ticker,
          kind: r.kind,
          first: r.whole ? 'all' : r.first,
          last: r.whole ? 'all' : r.last,
          fetched_at: r.fetchedAt,
          final: r.final,
          source: r.source,
          rows: r.rows ?? null,
          bytes: r.bytes ?? null,
        })),
        'UTC',
      );
      ctx.note(`${status.ranges.length} stored ranges; store file ${mb(status.bytesOnDisk)}`);
    },
  },
  {
    path: 'cache clear',
    summary:
      'Remove what the caching server stored (of one ticker, or all), rows and ranges; rows ingested from files stay.',
    args: [{ name: 'ticker', type: 'ticker', optional: true, doc: 'Only this ticker.' }],
    options: [dbOption],
    async run(ctx, input) {
      const { clearCache } = await import('../../server/upstream/cache-admin.js');
      const n = await withStore(ctx, input.options.get('db'), (store) => clearCache(store, input.args[0]));
      ctx.note(`removed ${n} stored range${n === 1 ? '' : 's'} and the rows fetched for them`);
    },
  },
  {
    path: 'cache refresh',
    summary: 'Fetch a stored ticker again over a range of days (corrections), replacing what is stored.',
    args: [
      { name: 'ticker', type: 'ticker', doc: 'The ticker, as stored (AAPL, X:BTCUSD).' },
      {
        name: 'range',
        type: 'YYYY-MM-DD[..YYYY-MM-DD]',
        doc: 'Days to fetch again (its splits are fetched whole).',
      },
    ],
    options: [
      dbOption,
      {
        name: 'upstream',
        type: 'url',
        default: DEFAULT_UPSTREAM_URL,
        doc: 'The service to fetch from.',
      },
      {
        name: 'upstream-key',
        type: 'string',
        default: '$MASSIVE_API_KEY, else $POLYGON_API_KEY',
        doc: 'Key sent upstream.',
      },
      {
        name: 'upstream-rate',
        type: 'N/s|N/min|N/hour',
        default: 'unlimited',
        doc: 'Upstream requests allowed per window; more wait their turn.',
      },
      {
        name: 'upstream-timeout',
        type: 'seconds',
        default: String(UPSTREAM_TOTAL_TIMEOUT),
        doc: 'Time one upstream attempt may take, headers and whole body; past it the attempt is retried.',
      },
    ],
    async run(ctx, input) {
      const [ticker, text] = input.args as [string, string];
      const range = dayRange(text);
      const upstream = upstreamOption(ctx.streams.env, { ...input, args: [] }, true);
      const { ReadThrough } = await import('../../server/upstream/read-through.js');
      const done = await withStore(ctx, input.options.get('db'), async (store) => {
        const layer = new ReadThrough(store, upstream ?? {}, (line) => ctx.note(line));
        try {
          return await layer.refresh(ticker, range);
        } finally {
          await layer.close();
        }
      });
      if (done.length === 0) ctx.note(`nothing of ${ticker} is stored: nothing to refresh`);
    },
  },
];
