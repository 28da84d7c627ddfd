import { existsSync } from 'node:fs';
import { defaultDbPath } from '../../server/store/default-db-path.js';
import { parseReplayFrom } from '../../server/stream/replay-options.js';
import {
  DEFAULT_UPSTREAM_URL,
  parseRate,
  UPSTREAM_MAX_AGE_SECONDS,
  UPSTREAM_TOTAL_TIMEOUT,
  type UpstreamOptions,
} from '../../server/upstream/upstream-options.js';
import { type CommandDef, type CommandInput, flagOption, intOption } from '../command.js';
import { UsageError } from '../usage-error.js';

/**
 * The upstream options of `mdq serve` (and `mdq cache refresh`): `--upstream[=URL]` or `--upstream URL`,
 * `--upstream-key`, `--upstream-rate`, `--upstream-max-age`, `--upstream-timeout`, `--offline`. Undefined when neither
 * `--upstream` nor `--offline` is given.
 */
export function upstreamOption(
  env: NodeJS.ProcessEnv,
  input: CommandInput,
  alwaysOnline = false,
): UpstreamOptions | undefined {
  const raw = input.options.get('upstream');
  const positional = input.args[0];
  const offline = input.options.has('offline') && flagOption(input, 'offline');
  if (positional !== undefined && raw === undefined) {
    throw new UsageError(
      `Unexpected argument ${JSON.stringify(positional)}; mdq serve takes no arguments: the store is --db PATH (one file), an upstream URL follows --upstream`,
    );
  }
  const on = alwaysOnline || (raw !== undefined && raw !== 'false');
  if (!on && !offline) return undefined;
  const url =
    raw !== undefined && raw !== 'true' && raw !== 'false' ? raw : (positional ?? DEFAULT_UPSTREAM_URL);
  if (!/^https?:\/\/[^/]/.test(url)) {
    throw new UsageError(
      `Invalid --upstream: ${JSON.stringify(url)}; expected an http(s) URL such as ${DEFAULT_UPSTREAM_URL}`,
    );
  }
  const rate = input.options.get('upstream-rate');
  const age = input.options.get('upstream-max-age');
  if (age !== undefined && !/^\d+(\.\d+)?$/.test(age)) {
    throw new UsageError(`Invalid --upstream-max-age: ${JSON.stringify(age)}; expected seconds ≥ 0`);
  }
  const timeout = input.options.get('upstream-timeout');
  if (timeout !== undefined && !(/^\d+(\.\d+)?$/.test(timeout) && Number(timeout) > 0)) {
    throw new UsageError(
      `Invalid --upstream-timeout: ${JSON.stringify(timeout)}; expected seconds > 0 (default ${UPSTREAM_TOTAL_TIMEOUT})`,
    );
  }
  if (rate !== undefined) {
    try {
      parseRate(rate, '--upstream-rate');
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  }
  const key = input.options.get('upstream-key') ?? env.MASSIVE_API_KEY ?? env.POLYGON_API_KEY;
  return {
    ...(on && { url }),
    ...(offline && { offline: true }),
    ...(key !== undefined && key !== '' && { apiKey: key }),
    ...(rate !== undefined && { rate }),
    ...(age !== undefined && { maxAgeSeconds: Number(age) }),
    ...(timeout !== undefined && { totalTimeout: Number(timeout) }),
  };
}

/** `mdq serve`: the local server, until interrupted. */
export const serveCommand: CommandDef = {
  path: 'serve',
  summary: "Serve the service's REST paths from a DuckDB or ClickHouse store until interrupted (Ctrl-C).",
  args: [
    {
      name: 'upstream-url',
      type: 'url',
      optional: true,
      doc: 'The service --upstream reads through to (also --upstream=URL).',
    },
  ],
  options: [
    {
      name: 'db',
      type: 'path',
      default: '$MDQ_DB, else ~/.local/share/mdq/mdq.duckdb',
      doc: 'Database file (it must exist unless --create is given).',
    },
    {
      name: 'store',
      type: 'duckdb:PATH|clickhouse://user:pass@host:8123/db',
      default: 'duckdb: and --db',
      doc: 'Store to serve (a ClickHouse one is served read-only).',
    },
    {
      name: 'cluster',
      type: 'name',
      default: 'none',
      doc: 'With a clickhouse:// store: read the Distributed tables of this cluster.',
    },
    {
      name: 'create',
      type: 'flag',
      flag: true,
      default: 'false',
      doc: 'Create an empty database file when --db does not exist.',
    },
    {
      name: 'host',
      type: 'host',
      default: '127.0.0.1',
      doc: 'Interface to bind (non-loopback needs --api-key).',
    },
    { name: 'port', type: '0..65535', default: '8765', doc: 'TCP port; 0 picks a free one.' },
    {
      name: 'api-key',
      type: 'string',
      repeatable: true,
      doc: 'A key the server accepts (repeatable); without any, loopback needs no key (any is accepted).',
    },
    {
      name: 'now',
      type: 'unix ms|ISO time|YYYY-MM-DD',
      default: 'latest data time per asset class',
      doc: '"Now" of snapshots, last trades and quotes, for every asset class (default: each class\'s latest tick or intraday bar).',
    },
    {
      name: 'replay-from',
      type: 'unix ms|ISO time|YYYY-MM-DD|first',
      default: "midnight New York of the market's latest day of ticks",
      doc: 'Where the WebSocket replay of stored ticks starts; first: at the first event subscribed to, on that day (without the flag, the simulated market streams live).',
    },
    {
      name: 'replay-speed',
      type: 'number|max',
      default: '1',
      doc: 'Replay speed: a multiple of real time, or max (as fast as the client reads).',
    },
    {
      name: 'query-cache-mb',
      type: 'int ≥ 0',
      default: '256',
      doc: 'MiB of query results (keys included) kept for repeated requests; 0 keeps none.',
    },
    {
      name: 'response-cache-mb',
      type: 'int ≥ 0',
      default: '128',
      doc: 'MiB of whole answers (URLs included) kept for repeated requests; 0 keeps none.',
    },
    {
      name: 'public-url',
      type: 'url',
      default: 'the address bound',
      doc: 'URL clients reach the server by (behind a proxy); next_url links are built on it.',
    },
    {
      name: 'upstream',
      type: 'flag',
      flag: true,
      default: `off; given alone, ${DEFAULT_UPSTREAM_URL}`,
      doc: 'Read through to the service: fetch what the store lacks, store it, answer from the store (creates --db).',
    },
    {
      name: 'upstream-key',
      type: 'string',
      default: '$MASSIVE_API_KEY, else $POLYGON_API_KEY',
      doc: "Key sent upstream; never a local client's key, never stored or logged.",
    },
    {
      name: 'upstream-rate',
      type: 'N/s|N/min|N/hour',
      default: 'unlimited',
      doc: 'Upstream requests allowed per window (5/min: the free plan); more wait their turn.',
    },
    {
      name: 'upstream-max-age',
      type: 'seconds',
      default: String(UPSTREAM_MAX_AGE_SECONDS),
      doc: 'Age after which data that can still change (current session, reference records, snapshots, last trade and quote) is fetched again.',
    },
    {
      name: 'upstream-timeout',
      type: 'seconds',
      default: String(UPSTREAM_TOTAL_TIMEOUT),
      doc: 'Time one upstream attempt may take, headers and whole body; past it the attempt is retried, then answered 504.',
    },
    {
      name: 'offline',
      type: 'flag',
      flag: true,
      default: 'false',
      doc: 'Answer only from what is stored (404 naming what is missing); never call upstream.',
    },
  ],
  async run(ctx, input) {
    const db = input.options.get('db');
    const now = input.options.get('now');
    const replayFrom = input.options.get('replay-from');
    const replaySpeed = input.options.get('replay-speed');
    if (replaySpeed !== undefined && replaySpeed !== 'max' && !(Number(replaySpeed) > 0)) {
      throw new UsageError(
        `Invalid --replay-speed: ${JSON.stringify(replaySpeed)}; expected a positive number or max`,
      );
    }
    if (replayFrom !== undefined && replayFrom !== 'first') {
      try {
        parseReplayFrom(/^\d+$/.test(replayFrom) ? Number(replayFrom) : replayFrom);
      } catch {
        throw new UsageError(
          `Invalid --replay-from: ${JSON.stringify(replayFrom)}; expected Unix ms, an ISO time, YYYY-MM-DD or first`,
        );
      }
    }
    const publicUrl = input.options.get('public-url');
    const port = intOption(input, 'port', 8765, 0, 65_535);
    const mib = (name: string, fallback: number) => intOption(input, name, fallback, 0, 2 ** 20) * 2 ** 20;
    const queryCacheBytes = mib('query-cache-mb', 256);
    const responseCacheBytes = mib('response-cache-mb', 128);
    const store = input.options.get('store');
    const cluster = input.options.get('cluster');
    const clickhouse = store?.startsWith('clickhouse:') === true;
    if (cluster !== undefined && !clickhouse) {
      throw new UsageError(
        `Invalid --cluster: ${JSON.stringify(cluster)}; only a clickhouse:// --store has clusters`,
      );
    }
    if (store !== undefined && !clickhouse && (!store.startsWith('duckdb:') || store === 'duckdb:')) {
      throw new UsageError(
        `Invalid --store: ${JSON.stringify(store)}; expected duckdb:PATH or clickhouse://user:password@host:8123/database`,
      );
    }
    const path = store?.startsWith('duckdb:')
      ? store.slice('duckdb:'.length)
      : (db ?? defaultDbPath(ctx.streams.env));
    const upstream = upstreamOption(ctx.streams.env, input);
    if (upstream !== undefined && clickhouse) {
      throw new UsageError(
        `Invalid --store: ${JSON.stringify(store)}; the caching server (--upstream, --offline) keeps what it fetches in a duckdb:PATH store`,
      );
    }
    if (!clickhouse && !upstream?.url && !flagOption(input, 'create') && !existsSync(path)) {
      const what = db === undefined ? 'The default database' : 'Invalid --db:';
      throw new UsageError(
        `${what} ${JSON.stringify(path)} does not exist; load data into it with \`mdq ingest\`, or give --create to serve an empty store`,
      );
    }
    // Listening for the signals before the server starts: one may come as soon as it logs its address.
    let stop: (stopped: boolean) => void = () => {};
    const stopped = new Promise<boolean>((resolve) => {
      stop = resolve;
    });
    const onSignal = () => stop(true);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    // On a thread of its own, whose heap is sized for large answers (`YOUNG_GENERATION_MB`).
    const { startServerThread } = await import('../../server/thread.js');
    const server = await startServerThread({
      db: path,
      ...(clickhouse && { store }),
      ...(cluster !== undefined && { cluster }),
      host: input.options.get('host') ?? '127.0.0.1',
      port,
      queryCacheBytes,
      responseCacheBytes,
      apiKeys: [...(input.all.get('api-key') ?? [])],
      ...(now !== undefined && { now: /^\d+$/.test(now) ? Number(now) : now }),
      ...(replayFrom !== undefined && {
        replayFrom: /^\d+$/.test(replayFrom) ? Number(replayFrom) : replayFrom,
      }),
      ...(replaySpeed !== undefined && { replaySpeed: replaySpeed === 'max' ? 'max' : Number(replaySpeed) }),
      ...(publicUrl !== undefined && { publicUrl }),
      ...(upstream !== undefined && { upstream }),
      log: (line) => ctx.error(line),
    }).catch((e: unknown) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      throw e;
    });
    void server.ended.then(() => stop(false));
    // The thread ends on its own only when the server failed; the reason is already in the log.
    if (!(await stopped)) throw new Error('the server stopped unexpectedly');
    ctx.note('stopping');
    await server.close();
  },
};
