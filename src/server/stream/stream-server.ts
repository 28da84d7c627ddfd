import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { dayOf, NEW_YORK, startOfDay } from '../../dates/time-zone.js';
import { STREAM_MARKETS, type StreamMarket } from '../../stream/channels.js';
import { querySlots } from '../store/limited-store.js';
import type { Store } from '../store/store.js';
import { FEEDS } from './feeds.js';
import { isSimulatedStore, LiveSource } from './live-source.js';
import { parseReplayFrom, parseReplaySpeed } from './replay-options.js';
import { type ReplayPlan, type ReplaySpeed, StreamSession } from './session.js';
import { TickSource } from './tick-source.js';

/** Options of {@link attachStreamServer}. */
export interface StreamServerOptions {
  /** The store to replay from (not a caching wrapper: replay batches are read once). */
  store: Store;
  /** Accepted keys; without any, every non-empty key is accepted. */
  apiKeys: readonly string[];
  /**
   * Where every replay starts: Unix ms, an ISO timestamp, `YYYY-MM-DD` (midnight in New York), or
   * `'first'`: the first tick a connection's subscriptions bring on the market's latest day, so that
   * the first event comes at once. Without it, a store of the simulated market streams live (ticks
   * generated now, in real time).
   * @default the start (New York midnight) of the market's latest day of stored ticks
   */
  replayFrom?: number | string | undefined;
  /**
   * A multiple of real time (1 = real time), or `'max'`: as fast as the client reads.
   * @default 1
   */
  replaySpeed?: ReplaySpeed | string | undefined;
  log(line: string): void;
}

/** The WebSocket side of a server. */
export interface StreamServer {
  /** Starts answering the upgrades of `server` (the Node HTTP server under the app). */
  attach(server: Server): void;
  /** Ends every session (close code 1001) and waits for their queries in flight. */
  close(): Promise<void>;
}

const digest = (key: string) => createHash('sha256').update(key, 'utf8').digest();

/**
 * How many queries the replays of one server run at once, together: half the store's connections (at
 * least one). However many connections replay, the others stay free for REST requests, which then
 * never queue behind more replay queries than this.
 */
export function replayQueries(store: Store): number {
  return Math.max(1, Math.floor((store.concurrency ?? 1) / 2));
}

/**
 * The streaming side of the server: once attached, answers WebSocket upgrades on `/stocks`, `/options`,
 * `/forex`, `/crypto`, `/indices` and `/futures` with the streaming protocol, replaying the stored ticks (or, over
 * the simulated market without a replay start, streaming it live); any other
 * upgrade is refused with 404. The key is checked as the REST routes check it.
 *
 * @throws Error for a bad `replayFrom` or `replaySpeed`, before anything listens.
 */
export function streamServer(options: StreamServerOptions): StreamServer {
  const atFirst = options.replayFrom === 'first';
  const from = options.replayFrom === undefined || atFirst ? undefined : parseReplayFrom(options.replayFrom);
  const speed = parseReplaySpeed(options.replaySpeed ?? 1);
  const digests = options.apiKeys.filter((k) => k !== '').map(digest);
  const accepts = (key: string) => {
    if (digests.length === 0) return true;
    const d = digest(key);
    let ok = false;
    for (const k of digests) ok = timingSafeEqual(d, k) || ok;
    return ok;
  };
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1 << 20 });
  // Every session's queries share these slots; a session reads through a view of its own, which drops
  // its waiting queries when it stops, so streams opened and dropped leave no queries behind them.
  const slots = querySlots(replayQueries(options.store));
  const store = slots(options.store);
  const sessions = new Set<StreamSession>();
  const starts = new Map<StreamMarket, Promise<bigint>>();
  const sources = new Map<StreamMarket, TickSource>();
  const sourceOf = (market: StreamMarket) => {
    let s = sources.get(market);
    if (!s) {
      s = new TickSource(store, market, FEEDS[market]);
      sources.set(market, s);
    }
    return s;
  };
  // Checked once, at the first subscription: the simulated market without a replay start streams live.
  let live: Promise<boolean> | undefined;
  const lives = new Map<StreamMarket, LiveSource>();
  const replayFrom = (market: StreamMarket) => {
    if (from !== undefined) return Promise.resolve(from);
    let start = starts.get(market);
    if (!start) {
      start = sourceOf(market)
        .latest()
        .then((ns) => {
          if (ns === undefined) return 0n;
          return BigInt(startOfDay(dayOf(Number(ns / 1_000_000n), NEW_YORK), NEW_YORK)) * 1_000_000n;
        });
      starts.set(market, start);
    }
    return start;
  };
  const plan =
    (market: StreamMarket) =>
    async (stopped: AbortSignal): Promise<ReplayPlan> => {
      // A store that cannot say (no meta table) is not the simulated market.
      live ??=
        from === undefined && !atFirst
          ? isSimulatedStore(options.store).catch(() => false)
          : Promise.resolve(false);
      if (await live) {
        let source = lives.get(market);
        if (!source) {
          source = new LiveSource(store, market);
          lives.set(market, source);
        }
        return { source, fromNs: BigInt(Date.now()) * 1_000_000n, speed: 1 };
      }
      const source = new TickSource(slots(options.store, stopped), market, FEEDS[market]);
      return { source, fromNs: await replayFrom(market), speed, atFirst };
    };
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '/').split('?')[0]?.replace(/\/+$/, '').slice(1) ?? '';
    const market = STREAM_MARKETS.find((m) => m === path);
    if (!market) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const session = new StreamSession(ws, {
        market,
        feed: FEEDS[market],
        accepts,
        plan: plan(market),
        log: options.log,
      });
      sessions.add(session);
      // Kept until its replay has stopped: the store must outlive the query in flight.
      ws.once('close', () => void session.stop().then(() => sessions.delete(session)));
      session.start();
    });
  };
  let attached: Server | undefined;
  return {
    attach(server) {
      attached = server;
      server.on('upgrade', onUpgrade);
    },
    async close() {
      attached?.off('upgrade', onUpgrade);
      for (const ws of wss.clients) ws.close(1001, 'server closing');
      await Promise.all([...sessions].map((s) => s.stop()));
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
