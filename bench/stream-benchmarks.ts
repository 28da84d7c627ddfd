/**
 * Benchmark 7, streaming: (a) the server's replay throughput to one client at `max` speed, against a
 * bare `ws` server sending the same frames already encoded; (b) the client's decode throughput, mdq
 * `StocksStream` against a raw `ws` client with `JSON.parse`, on that same feed; (c) memory over a
 * long replay at `max` speed (server and client RSS read as it runs).
 */
import WebSocket from 'ws';
import { StocksStream } from '../src/stream/index.js';
import { currentRss } from './measure.js';

export const STREAM_KEY = 'bench-key';

/**
 * A raw client: authenticates, subscribes `channels`, and reads until `n` events (not status
 * messages) have come, decoding every message with `JSON.parse`; the messages that carried events go
 * to `keep` when given. Resolves with the events read.
 */
export function rawClient(url: string, channels: string, n: number, keep?: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    let count = 0;
    ws.on('open', () => {
      ws.send(JSON.stringify({ action: 'auth', params: STREAM_KEY }));
      ws.send(JSON.stringify({ action: 'subscribe', params: channels }));
    });
    ws.on('message', (data: WebSocket.RawData) => {
      const text = data.toString();
      const messages = JSON.parse(text) as { ev: string }[];
      let events = 0;
      for (const m of messages) if (m.ev !== 'status') events++;
      if (events === 0) return;
      keep?.push(text);
      count += events;
      if (count >= n) {
        ws.terminate();
        resolve(count);
      }
    });
    ws.on('error', reject);
    ws.on('close', () => resolve(count));
  });
}

/** The mdq client: reads `n` events of `channels` with `for await`, then closes. */
export async function mdqClient(url: string, channels: string, n: number): Promise<number> {
  const stream = StocksStream(STREAM_KEY, { baseUrl: url });
  stream.subscribe(channels.split(','));
  let count = 0;
  for await (const _ of stream) if (++count >= n) break;
  return count;
}

/** One reading of a long replay: seconds in, events read, server and client RSS (MiB). */
export interface StreamRssReading {
  seconds: number;
  events: number;
  laps: number;
  serverMiB: number | undefined;
  clientMiB: number;
}

/**
 * Replays `channels` at `max` speed through the mdq client for `seconds`, one connection after
 * another: each lap reads the whole replay (until `lapTicks` trades and quotes, the stored ticks from the
 * replay start, have come; aggregates come between them) and closes, and the next connects anew. Reads the server's and this process's RSS
 * `readings` times.
 */
export async function longReplay(
  url: string,
  serverPid: number | undefined,
  options: { channels: string; lapTicks: number; seconds: number; readings: number },
): Promise<StreamRssReading[]> {
  const out: StreamRssReading[] = [];
  const start = performance.now();
  const end = start + options.seconds * 1000;
  const every = (options.seconds * 1000) / options.readings;
  let next = start;
  let events = 0;
  let laps = 0;
  const read = async () => {
    out.push({
      seconds: Math.round((performance.now() - start) / 1000),
      events,
      laps,
      serverMiB: await currentRss(serverPid).then((r) => (r === undefined ? r : Math.round(r))),
      clientMiB: Math.round(process.memoryUsage.rss() / 2 ** 20),
    });
  };
  while (performance.now() < end) {
    const stream = StocksStream(STREAM_KEY, { baseUrl: url });
    stream.subscribe(options.channels.split(','));
    let lap = 0;
    for await (const ev of stream) {
      events++;
      if ((ev.ev === 'T' || ev.ev === 'Q') && ++lap >= options.lapTicks) break;
      if ((events & 1023) === 0 && performance.now() >= next) {
        await read();
        next += every;
        if (performance.now() >= end) break;
      }
    }
    stream.close();
    laps++;
  }
  await read();
  return out;
}
