import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { MdqError } from '../errors.js';
import { tsxEsmApi } from '../tsx-loader.js';
import {
  type CallRequest,
  EXITED_FLAG,
  encodeFunctions,
  type GrowableSharedBuffer,
  growableTextBuffer,
  jsonExact,
  MESSAGE_COUNTER,
  REQUEST_BYTES,
  REQUEST_CALL,
  REQUEST_COUNTER,
  REQUEST_LENGTH,
  REQUEST_POSTED,
  rebuildError,
  SIGNAL_SLOTS,
  type SyncTarget,
  type SyncWorkerData,
  TEXT_CALL,
  TEXT_LENGTH,
  TEXT_TAG,
  type TextAnswer,
  textAnswer,
  type WorkerMessage,
} from './protocol.js';

export type { SyncRawResponse, SyncTarget, TextAnswer } from './protocol.js';

/** What has crossed between the calling thread and a bridge's worker so far (see `SyncBridge.traffic`). */
export interface BridgeTraffic {
  /** Messages the calling thread posted to the worker. */
  posted: number;
  /** Requests the calling thread wrote to shared memory, without a message. */
  written: number;
  /** Messages the calling thread received from the worker (answers, errors, callbacks). */
  received: number;
  /** Times the worker woke the calling thread (`Atomics.notify`). */
  wakes: number;
  /** Answers taken from the shared text buffer, without a message. */
  shared: number;
}

/**
 * Runs an object with async methods in a worker thread and calls its methods synchronously: the calling
 * thread really blocks (`Atomics.wait`) until the answer arrives, so a sync client gives the same results
 * and errors as the async one it wraps.
 *
 * The worker does `new (await import(module))[exportName](...args)` once, then runs each `call` as
 * `await instance[method](...args)`. Arguments and results cross the thread boundary by structured clone
 * (bigint and Date survive; class instances arrive as plain objects). A `Response` result arrives as a
 * `SyncRawResponse`, and a `TextAnswer` arrives as one, its text through shared memory when it fits (one
 * wake-up a call, nothing cloned). A call whose arguments are plain JSON data (strings, numbers, plain
 * objects and arrays, no function) is written as JSON text into shared memory too, and the worker, parked
 * in `Atomics.wait` while it has nothing to do, wakes and reads it without a message; any other request
 * is posted, and the worker woken for it. Functions among the arguments (at any depth of plain objects
 * and arrays, like `logger` or `onProgress`) are run on the calling thread, while it waits; a call made
 * from one of them is posted. Errors are rebuilt as the same mdq error class with every field, so `instanceof` and the
 * `isX()` guards work.
 *
 * An idle bridge does not keep the process alive; `close()` stops its worker.
 *
 * @example
 * const bridge = new SyncBridge({ module: clientModuleUrl, exportName: 'AsyncStocksClient', args: [key, options] });
 * const trades = bridge.call('getTrades', ['AAPL', { limit: 5 }]);
 * bridge.close();
 */
export class SyncBridge {
  readonly #worker: Worker;
  readonly #port: MessagePort;
  readonly #signal: Int32Array;
  readonly #text: GrowableSharedBuffer;
  readonly #requestBytes: Uint8Array;
  readonly #traffic = { posted: 0, written: 0, received: 0, shared: 0 };
  readonly #callbacks = new Map<number, Function>();
  /**
   * Answers that arrived while a later call waited (one made from a callback of theirs): kept for the
   * call they answer, which takes them once the later call returns.
   */
  readonly #early = new Map<number, CallAnswer>();
  readonly #persistent: Set<number>;
  #nextId = 1;
  #nextCallback = 1;
  /** Calls waiting for their answer: more than one when a callback of a call makes another. */
  #waiting = 0;
  #closed = false;

  /** @param target - The class to construct in the worker (see `SyncTarget`). */
  constructor(target: SyncTarget) {
    const shared = new SharedArrayBuffer(SIGNAL_SLOTS * Int32Array.BYTES_PER_ELEMENT);
    this.#signal = new Int32Array(shared);
    // Grown by the worker as answers need.
    this.#text = growableTextBuffer();
    const request = new SharedArrayBuffer(REQUEST_BYTES);
    this.#requestBytes = new Uint8Array(request);
    const { port1, port2 } = new MessageChannel();
    this.#port = port1;
    const args = encodeFunctions(target.args, (fn) => this.#register(fn));
    this.#persistent = new Set(this.#callbacks.keys());
    const workerData: SyncWorkerData = {
      port: port2 as unknown as SyncWorkerData['port'],
      signal: shared,
      text: this.#text,
      request,
      target: { module: target.module, exportName: target.exportName, args },
    };
    this.#worker = new Worker(workerEntry(), { eval: true, workerData, transferList: [port2] });
    // Failures reach the caller through the port; these listeners only keep them from being unhandled.
    this.#worker.on('error', () => {});
    this.#worker.unref();
    this.#port.unref();
  }

  /**
   * Calls `method` on the worker's instance and blocks until it settles. With `keepCallbacks`, the
   * functions among `args` stay callable after the call, as those of the constructor do (a sink the
   * instance keeps for later calls).
   *
   * @returns The method's result, structured-cloned.
   * @throws The method's error, rebuilt as the same class; `MdqError` if the bridge is closed or the
   *   worker died.
   */
  call(
    method: string,
    args: unknown[],
    { keepCallbacks = false }: { keepCallbacks?: boolean } = {},
  ): unknown {
    if (this.#closed) throw new MdqError(`Cannot call ${method}: the client is closed`);
    return this.#request(method, args, true, keepCallbacks);
  }

  /**
   * True while the worker runs and the bridge is open: what the worker lent (a socket's descriptor) is
   * still its own.
   */
  get running(): boolean {
    return !this.#closed && Atomics.load(this.#signal, EXITED_FLAG) !== 1;
  }

  /** What has crossed between the threads so far: counts that tests compare before and after a call. */
  traffic(): BridgeTraffic {
    return { ...this.#traffic, wakes: Atomics.load(this.#signal, MESSAGE_COUNTER) };
  }

  /** Closes the instance in the worker (its `close()`, if any) and stops the worker. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      // A worker that already exited has nothing left to close.
      if (Atomics.load(this.#signal, EXITED_FLAG) !== 1) this.#request(null, [], false);
    } finally {
      void this.#worker.terminate();
      this.#port.close();
    }
  }

  /** With `fromCaller`, an error thrown carries the stack of the code that called `call`. */
  #request(method: string | null, args: unknown[], fromCaller: boolean, keep = false): unknown {
    const id = this.#nextId++;
    const before = this.#nextCallback;
    const request: CallRequest = { id, method, args: encodeFunctions(args, (fn) => this.#register(fn)) };
    if (keep)
      for (let callback = before; callback < this.#nextCallback; callback++) this.#persistent.add(callback);
    try {
      // A call made from a callback goes on the port: the worker is busy with the call it interrupts, its
      // event loop running, and takes it from there.
      if (method === null || this.#waiting > 0 || this.#nextCallback !== before || !this.#write(request)) {
        this.#port.postMessage(request);
        this.#traffic.posted++;
        Atomics.add(this.#signal, REQUEST_POSTED, 1);
        this.#notifyWorker();
      }
    } catch (error) {
      this.#forgetCallbacks(before);
      throw new MdqError(
        `Arguments of ${method} cannot be passed to the synchronous client (only plain data, bigint, Date, and functions inside plain objects and arrays): ${(error as Error).message}`,
        { cause: error },
      );
    }
    this.#waiting++;
    try {
      return this.#await(id, fromCaller);
    } finally {
      this.#waiting--;
      this.#forgetCallbacks(before);
    }
  }

  /**
   * Writes a request of plain JSON data into the shared request buffer and wakes the worker. False when
   * it is not such data, does not fit, or the worker has not yet read the one before (a call made from a
   * callback while another waits): it is posted instead.
   */
  #write(request: CallRequest): boolean {
    const signal = this.#signal;
    if (Atomics.load(signal, REQUEST_CALL) !== 0 || !jsonExact(request.args)) return false;
    const text = JSON.stringify(request);
    if (text.length > REQUEST_BYTES) return false;
    const { read, written } = encoder.encodeInto(text, this.#requestBytes);
    if (read !== text.length) return false;
    Atomics.store(signal, REQUEST_LENGTH, written);
    Atomics.store(signal, REQUEST_CALL, request.id);
    this.#notifyWorker();
    this.#traffic.written++;
    return true;
  }

  /** Wakes the worker, parked while it has nothing to do, for a request just written or posted. */
  #notifyWorker(): void {
    Atomics.add(this.#signal, REQUEST_COUNTER, 1);
    Atomics.notify(this.#signal, REQUEST_COUNTER);
  }

  /**
   * Blocks until the answer to `id` arrives, running callbacks the worker asks for meanwhile. A text
   * answer in shared memory is taken before the port is read: every message the worker posted before it
   * (callbacks) is then on the port, and runs before the call returns.
   */
  #await(id: number, fromCaller: boolean): unknown {
    const signal = this.#signal;
    for (;;) {
      // A callback run below may have made a call whose wait took this call's answer.
      const early = this.#early.get(id);
      if (early) {
        this.#early.delete(id);
        return this.#answer(early, fromCaller);
      }
      const seen = Atomics.load(signal, MESSAGE_COUNTER);
      const shared = Atomics.load(signal, TEXT_CALL) === id ? this.#takeText() : undefined;
      for (
        let received = receiveMessageOnPort(this.#port);
        received;
        received = receiveMessageOnPort(this.#port)
      ) {
        this.#traffic.received++;
        const message = received.message as WorkerMessage;
        if ('callback' in message) {
          this.#runCallback(message.callback, message.args);
        } else if (message.id === id) {
          return this.#answer(message, fromCaller);
        } else {
          this.#early.set(message.id, message);
        }
      }
      if (shared) return shared;
      if (Atomics.load(signal, EXITED_FLAG) === 1) {
        throw new MdqError('The synchronous client stopped unexpectedly (its worker thread exited)');
      }
      Atomics.wait(signal, MESSAGE_COUNTER, seen);
    }
  }

  /** The value of an answer, or its error rebuilt (with the caller's stack for `fromCaller`). */
  #answer(message: CallAnswer, fromCaller: boolean): unknown {
    if (message.ok) return message.value;
    throw rebuildError(message.error, fromCaller ? callerStack() : undefined);
  }

  /** Decodes the text answer in the shared buffer and frees the buffer for the next one. */
  #takeText(): TextAnswer {
    const signal = this.#signal;
    const length = Atomics.load(signal, TEXT_LENGTH);
    const text = Buffer.from(this.#text, 0, length).toString('utf8');
    const tag = Atomics.load(signal, TEXT_TAG);
    Atomics.store(signal, TEXT_CALL, 0);
    this.#traffic.shared++;
    return textAnswer(text, tag);
  }

  #register(fn: Function): number {
    const id = this.#nextCallback++;
    this.#callbacks.set(id, fn);
    return id;
  }

  #forgetCallbacks(from: number): void {
    for (let id = from; id < this.#nextCallback; id++)
      if (!this.#persistent.has(id)) this.#callbacks.delete(id);
  }

  #runCallback(id: number, args: unknown[]): void {
    try {
      this.#callbacks.get(id)?.(...args);
    } catch {
      // A callback (e.g. a logger) that throws must not break the call it reports on.
    }
  }
}

/** A message answering a call (not a callback's). */
type CallAnswer = Exclude<WorkerMessage, { callback: number }>;

const encoder = new TextEncoder();

/**
 * The stack of the code that called `SyncBridge.call`, taken when a call fails: `call` is still on the
 * stack then (the thread was blocked in it), so nothing is captured for the calls that succeed.
 */
function callerStack(): string | undefined {
  const holder: { stack?: string } = {};
  Error.captureStackTrace(holder, SyncBridge.prototype.call);
  return holder.stack;
}

/** How to start the worker: the built `sync-worker` entry beside this chunk, or the TypeScript source. */
function workerEntry(): string {
  const here = import.meta.url;
  // If the worker cannot even load, it raises the exited flag, so a blocked caller fails instead of hanging.
  // Only dynamic imports: the code runs as CommonJS or, under --input-type=module, as a module.
  const onFailure = `.catch((error) => import('node:worker_threads').then(({ workerData }) => {
    const s = new Int32Array(workerData.signal);
    Atomics.store(s, ${EXITED_FLAG}, 1); Atomics.add(s, ${MESSAGE_COUNTER}, 1); Atomics.notify(s, ${MESSAGE_COUNTER});
    throw error;
  }))`;
  if (here.endsWith('.ts')) {
    // Source mode (tests through tsx): workers do not inherit tsx's loader, so register it first. Its ESM
    // API is located here, because eval'd worker code resolves packages from the working directory.
    const tsx = tsxEsmApi(here);
    const worker = new URL('./worker.ts', here).href;
    return `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(worker)}); })${onFailure};`;
  }
  const worker = new URL(here.endsWith('.cjs') ? './sync-worker.cjs' : './sync-worker.js', here).href;
  return `import(${JSON.stringify(worker)})${onFailure};`;
}
