/**
 * Entry of a `SyncBridge` worker thread (built as `dist/sync-worker.{js,cjs}`): constructs the target
 * instance once, takes each call from the port or, written as JSON, from the shared request buffer
 * (parked while idle), answers it (a text answer through the shared text buffer when it can, anything
 * else on the port), and bumps the shared counter after every answer or message so the blocked calling
 * thread wakes up.
 */
import { workerData } from 'node:worker_threads';
import {
  type CallRequest,
  decodeFunctions,
  EXITED_FLAG,
  isTextAnswer,
  MESSAGE_COUNTER,
  REQUEST_CALL,
  REQUEST_COUNTER,
  REQUEST_LENGTH,
  REQUEST_POSTED,
  type SyncRawResponse,
  type SyncWorkerData,
  serializeError,
  TEXT_ANSWER,
  TEXT_CALL,
  TEXT_LENGTH,
  TEXT_TAG,
  type TextAnswer,
  transferListOf,
  type WorkerMessage,
} from './protocol.js';

const data = workerData as SyncWorkerData;
const port = data.port;
const signal = new Int32Array(data.signal);
const textBuffer = data.text;
/** Tracks the buffer's length as it grows. */
const textBytes = new Uint8Array(textBuffer);
const encoder = new TextEncoder();
let current: number | undefined;

function wake(): void {
  Atomics.add(signal, MESSAGE_COUNTER, 1);
  Atomics.notify(signal, MESSAGE_COUNTER);
}

/** Answers call `id` with `value`: a text answer without a message when it can, else on the port. */
function answer(id: number, value: unknown): void {
  if (isTextAnswer(value) && shareText(id, value)) return;
  send({ id, ok: true, value });
}

/**
 * Writes a text answer into the shared text buffer (grown if need be) and wakes the caller, who decodes
 * it on its own thread. False when the caller has not yet taken the previous one (a call made from a
 * callback while another waits) or the text is too long: it is posted instead.
 */
function shareText(id: number, answer: TextAnswer): boolean {
  if (Atomics.load(signal, TEXT_CALL) !== 0) return false;
  const text = answer[TEXT_ANSWER];
  // Each UTF-16 unit takes 1 to 3 bytes: try the usual one byte first, then room for the worst case.
  for (const needed of [text.length, text.length * 3]) {
    if (needed > textBuffer.byteLength) {
      if (needed > textBuffer.maxByteLength) return false;
      textBuffer.grow(Math.min(textBuffer.maxByteLength, Math.max(needed, textBuffer.byteLength * 2)));
    }
    const { read, written } = encoder.encodeInto(text, textBytes);
    if (read === text.length) {
      Atomics.store(signal, TEXT_LENGTH, written);
      Atomics.store(signal, TEXT_TAG, answer.tag);
      Atomics.store(signal, TEXT_CALL, id);
      wake();
      return true;
    }
  }
  return false;
}

function send(message: WorkerMessage): void {
  try {
    // Typed arrays of a result (columnar bars) move to the calling thread rather than being copied.
    port.postMessage(message, 'value' in message ? transferListOf(message.value) : []);
  } catch (error) {
    if ('id' in message) {
      port.postMessage({ id: message.id, ok: false, error: serializeError(error) } satisfies WorkerMessage);
    }
  }
  wake();
}

function callback(id: number): (...args: unknown[]) => void {
  return (...args) => send({ callback: id, args });
}

/**
 * A real dynamic `import()` in both builds: the CommonJS build would otherwise turn it into `require()`,
 * which accepts neither file URLs nor ES modules.
 */
const importModule = new Function('specifier', 'return import(specifier)') as (
  specifier: string,
) => Promise<unknown>;

async function construct(): Promise<Record<string, unknown>> {
  const { module, exportName, args } = data.target;
  const namespace = (await importModule(module)) as Record<string, unknown>;
  const Cls = (namespace[exportName] ??
    (namespace.default as Record<string, unknown> | undefined)?.[exportName]) as
    | (new (
        ...a: unknown[]
      ) => Record<string, unknown>)
    | undefined;
  if (typeof Cls !== 'function') throw new TypeError(`${module} has no export named ${exportName}`);
  return new Cls(...decodeFunctions(args, callback));
}

const instance = construct();
// A construction failure is reported to each call; it must not also crash the thread.
instance.catch(() => {});

/** Messages taken from the port so far, to compare with the count the caller posted. */
let received = 0;
/** Calls started and not yet answered. */
let inFlight = 0;
let closing = false;
/** Resolves the driver's wait for the next call to end or message to arrive. */
let stirred: (() => void) | undefined;

function stir(): void {
  const resolve = stirred;
  stirred = undefined;
  resolve?.();
}

port.on('message', (request: CallRequest) => {
  received++;
  stir();
  void handle(request);
});
void instance.then(drive, drive);

/**
 * Runs the worker's calls. Idle (no call in flight, every posted request received), the thread parks in
 * `Atomics.wait` until the caller bumps the request counter: a plain futex wake-up, where a wait on the
 * event loop would cost a task and a turn of the loop each call. Once woken, the request in shared memory,
 * if any, starts at once (what came due meanwhile, such as a keep-alive connection the server dropped, is
 * seen before the request is written: the HTTP client yields to the loop before it reuses an idle
 * connection); a posted request arrives through the loop. While calls run, the loop runs them and the
 * driver waits for the last to end.
 */
async function drive(): Promise<void> {
  const bytes = new Uint8Array(data.request);
  // From 0, not the counter's present value: a request written before this thread started is taken at once.
  let seen = 0;
  while (!closing) {
    if (inFlight > 0 || received !== Atomics.load(signal, REQUEST_POSTED)) {
      await new Promise<void>((resolve) => {
        stirred = resolve;
      });
      continue;
    }
    Atomics.wait(signal, REQUEST_COUNTER, seen);
    seen = Atomics.load(signal, REQUEST_COUNTER);
    if (Atomics.load(signal, REQUEST_CALL) === 0) continue;
    const text = Buffer.from(bytes.buffer, 0, Atomics.load(signal, REQUEST_LENGTH)).toString('utf8');
    Atomics.store(signal, REQUEST_CALL, 0);
    void handle(JSON.parse(text) as CallRequest);
  }
}

async function handle(request: CallRequest): Promise<void> {
  current = request.id;
  inFlight++;
  try {
    if (request.method === null) {
      closing = true;
      // Closing an instance that never came to be has nothing to release.
      const target = await instance.catch(() => undefined);
      const close = target?.close;
      if (typeof close === 'function') await close.call(target);
      send({ id: request.id, ok: true, value: undefined });
      port.close();
      return;
    }
    const target = await instance;
    const method = target[request.method];
    if (typeof method !== 'function') throw new TypeError(`${request.method} is not a method of the client`);
    const value = await method.apply(target, decodeFunctions(request.args, callback));
    answer(request.id, isResponse(value) ? await toRawResponse(value) : value);
  } catch (error) {
    send({ id: request.id, ok: false, error: serializeError(error) });
  } finally {
    current = undefined;
    inFlight--;
    stir();
  }
}

// Anything escaping the instance's promises must still answer the blocked caller, never leave it waiting.
const failCurrent = (error: unknown): void => {
  if (current !== undefined) send({ id: current, ok: false, error: serializeError(error) });
};
process.on('uncaughtException', failCurrent);
process.on('unhandledRejection', failCurrent);
process.on('exit', () => {
  Atomics.store(signal, EXITED_FLAG, 1);
  Atomics.add(signal, MESSAGE_COUNTER, 1);
  Atomics.notify(signal, MESSAGE_COUNTER);
});

function isResponse(value: unknown): value is Response {
  return (
    value instanceof Response ||
    (typeof value === 'object' &&
      value !== null &&
      typeof (value as Response).status === 'number' &&
      typeof (value as Response).text === 'function' &&
      typeof (value as Response).headers?.forEach === 'function')
  );
}

async function toRawResponse(response: Response): Promise<SyncRawResponse> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { status: response.status, headers, body: await response.text(), url: response.url };
}
