/** Classes driven through `SyncBridge` by the sync tests: each runs in a worker thread. */
import { resolveClientOptions } from '../../src/core/client-options.js';
import { NotFoundError } from '../../src/core/errors.js';
import { type TextAnswer, textAnswer } from '../../src/core/sync/protocol.js';
import { Transport } from '../../src/core/transport.js';

/** Async methods covering values, bigint, errors, delays, callbacks and raw responses. */
export class Sample {
  readonly #label: string;
  readonly #logger: ((line: string) => void) | undefined;
  closed = false;

  constructor(label: string, options: { logger?: (line: string) => void } = {}) {
    this.#label = label;
    this.#logger = options.logger;
  }

  #lastColumns: { t: Float64Array; bytes: Uint8Array } | undefined;

  /** Columns of `length` values (and a byte array), kept here to tell later whether they moved. */
  async columns(length: number): Promise<{ length: number; t: Float64Array; bytes: Uint8Array }> {
    const t = Float64Array.from({ length }, (_, i) => i * 60_000);
    const bytes = Buffer.from('kept');
    this.#lastColumns = { t, bytes };
    return { length, t, bytes };
  }

  /** Bytes the arrays of the last {@link columns} still hold in this thread (0 once transferred). */
  async lastColumnsBytes(): Promise<{ t: number; bytes: number }> {
    return { t: this.#lastColumns?.t.byteLength ?? -1, bytes: this.#lastColumns?.bytes.byteLength ?? -1 };
  }

  async echo(value: unknown): Promise<{ label: string; value: unknown }> {
    return { label: this.#label, value };
  }

  async sum(values: bigint[]): Promise<bigint> {
    return values.reduce((a, b) => a + b, 0n);
  }

  async sleep(ms: number): Promise<number> {
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, ms));
    return Date.now() - started;
  }

  async notFound(path: string): Promise<never> {
    const error = new NotFoundError(
      404,
      { status: 'NOT_FOUND', request_id: 'req-sync', message: 'Ticker not found.' },
      'req-sync',
      path,
    );
    (error as NotFoundError & { attempts: number }).attempts = 1;
    throw error;
  }

  async typeError(): Promise<never> {
    throw new TypeError('not a number');
  }

  async log(count: number): Promise<number> {
    for (let i = 0; i < count; i++) {
      this.#logger?.(`${this.#label} line ${i}`);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    return count;
  }

  /** `text` as a text answer tagged `tag`, after logging `lines` lines (each a message to the caller). */
  async text(text: string, tag: number, lines = 0): Promise<TextAnswer> {
    for (let i = 0; i < lines; i++) this.#logger?.(`${this.#label} before text ${i}`);
    return textAnswer(text, tag);
  }

  async each(items: number[], visit: (item: number) => void): Promise<number> {
    for (const item of items) visit(item);
    return items.length;
  }

  async raw(): Promise<Response> {
    return new Response('{"ok":true}', {
      status: 201,
      headers: { 'x-request-id': 'raw-1', 'content-type': 'application/json' },
    });
  }

  async unhandled(): Promise<string> {
    // A rejection nobody awaits: the bridge must answer instead of leaving the caller blocked.
    void Promise.reject(new RangeError('escaped'));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return 'too late';
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

/** A `Transport` living in the worker. */
export class TransportHost {
  readonly #transport: Transport;

  constructor(apiKey: string, options: Parameters<typeof resolveClientOptions>[1]) {
    this.#transport = new Transport(resolveClientOptions(apiKey, options));
  }

  get(target: string) {
    return this.#transport.get(target);
  }

  close(): Promise<void> {
    return this.#transport.close();
  }
}
