import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import type { websocketClient } from '@polygon.io/client-js';
import WebSocket from 'ws';
import { type RunningServer, startServer } from '../../src/server/index.js';
import type { Store } from '../../src/server/store/store.js';
import type { DeclaredTypes } from '../support/declared-types.js';
import { openTestStore } from '../support/store.js';

/** The first trading day of the test store's SPY, IBM and BAC ticks. */
export const REPLAY_DAY = '2013-10-07';
export const KEY = 'stream-key';

/**
 * The local server over the test store, replaying from `REPLAY_DAY` at `max` speed with one accepted
 * key (or as `options` say), with the store it reads; both are closed after the test. Undefined (the
 * test skipped) when the store was not built.
 */
export async function startReplayServer(
  t: TestContext,
  options: { replayFrom?: string | number; replaySpeed?: number | 'max'; apiKeys?: string[] } = {},
): Promise<{ server: RunningServer; wsUrl: string; store: Store } | undefined> {
  const store = await openTestStore(t);
  if (!store) return undefined;
  const server = await startServer({
    store,
    port: 0,
    apiKeys: options.apiKeys ?? [KEY],
    replayFrom: options.replayFrom ?? REPLAY_DAY,
    replaySpeed: options.replaySpeed ?? 'max',
    log: () => {},
  });
  t.after(async () => {
    await server.close();
    store.close();
  });
  return { server, wsUrl: server.url.replace(/^http/, 'ws'), store };
}

/** A raw protocol client: every message received, decoded, in order. */
export class RawClient {
  readonly messages: Record<string, unknown>[] = [];
  private waiters: (() => void)[] = [];
  closeCode: number | undefined;
  readonly closed: Promise<number>;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const parsed = JSON.parse(data.toString()) as Record<string, unknown>[];
      this.messages.push(...parsed);
      for (const w of this.waiters.splice(0)) w();
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code) => {
        this.closeCode = code;
        for (const w of this.waiters.splice(0)) w();
        resolve(code);
      }),
    );
  }

  static async open(url: string): Promise<RawClient> {
    const ws = new WebSocket(url);
    const client = new RawClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return client;
  }

  send(action: string, params: string): void {
    this.ws.send(JSON.stringify({ action, params }));
  }

  /** Waits until `pred` holds for the messages received so far (or the socket closes). */
  async until(pred: (messages: Record<string, unknown>[]) => boolean): Promise<void> {
    while (!pred(this.messages)) {
      if (this.closeCode !== undefined)
        throw new Error(`closed (${this.closeCode}) before the expected messages`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  statuses(): string[] {
    return this.messages.filter((m) => m.ev === 'status').map((m) => `${m.status}: ${m.message}`);
  }

  close(): void {
    this.ws.close();
  }
}

/** A socket of an official client (`websocketClient(key, url).stocks()`, `.futures()`…), written elsewhere. */
type OfficialSocket = ReturnType<ReturnType<typeof websocketClient>['stocks']>;

/**
 * A session of an official client's socket with the server, driven as its documentation shows: the
 * client authenticates by itself when the socket opens; `channels` are subscribed once it has; every
 * message is kept until an event of each of `kinds` has come, then the socket is closed.
 */
export async function officialSession(
  ws: OfficialSocket,
  channels: string,
  kinds: readonly string[],
): Promise<{ statuses: string[]; events: Record<string, unknown>[] }> {
  const statuses: string[] = [];
  const events: Record<string, unknown>[] = [];
  const missing = new Set(kinds);
  try {
    await new Promise<void>((resolve, reject) => {
      ws.onerror = () => reject(new Error('the socket failed'));
      ws.onmessage = (msg: { data: unknown }) => {
        for (const m of JSON.parse(String(msg.data)) as Record<string, unknown>[]) {
          if (m.ev === 'status') {
            statuses.push(String(m.status));
            if (m.status === 'auth_success')
              ws.send(JSON.stringify({ action: 'subscribe', params: channels }));
          } else {
            events.push(m);
            missing.delete(String(m.ev));
          }
        }
        if (missing.size === 0) resolve();
      };
    });
  } finally {
    ws.close();
  }
  return { statuses, events };
}

/**
 * Asserts that there are events and that each has the shape the official types declare for its `ev`,
 * but for the differences `tolerated` accepts (a problem as `DeclaredTypes.check` words it).
 */
export function assertDeclared(
  declared: DeclaredTypes,
  events: readonly Record<string, unknown>[],
  tolerated: (problem: string, event: Record<string, unknown>) => boolean,
): void {
  assert.ok(events.length > 0, 'no events to check');
  for (const m of events) {
    const problems = declared.check(String(m.ev), m).filter((p) => !tolerated(p, m));
    assert.deepEqual(problems, [], JSON.stringify(m));
  }
}
