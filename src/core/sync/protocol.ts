/**
 * Messages between a `SyncBridge` and its worker, and the codecs both sides share: functions passed as
 * arguments (callbacks such as `logger`) and errors, neither of which survives structured cloning as is.
 */
import type { MessagePort } from 'node:worker_threads';
import { errorClasses, MdqError } from '../errors.js';

/** What the bridge's worker is asked to construct. */
export interface SyncTarget {
  /** Absolute file URL of the module to import in the worker. */
  module: string;
  /** Name of the exported class to construct. */
  exportName: string;
  /** Constructor arguments (plain data; functions become callbacks run on the calling thread). */
  args: unknown[];
}

/** Data handed to the worker at start. */
export interface SyncWorkerData {
  port: MessagePort;
  /** Int32 slots, named by the constants below (`MESSAGE_COUNTER` …). */
  signal: SharedArrayBuffer;
  /** The bytes of a {@link TextAnswer}, as UTF-8. */
  text: GrowableSharedBuffer;
  /** A {@link CallRequest} as JSON text in UTF-8, when it is {@link jsonExact} and fits. */
  request: SharedArrayBuffer;
  target: SyncTarget;
}

/** Main thread → worker. `method` `null` means: close the instance and stop. */
export interface CallRequest {
  id: number;
  method: string | null;
  args: unknown[];
}

/** Worker → main thread. */
export type WorkerMessage =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: SerializedError }
  | { callback: number; args: unknown[] };

/** A raw response (`Response`) as it crosses the thread boundary. */
export interface SyncRawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  url: string;
}

/** An error reduced to cloneable data. */
export interface SerializedError {
  name: string;
  message: string;
  stack: string | undefined;
  /** Every own enumerable property (code, status, requestId, body, attempts, …). */
  props: Record<string, unknown>;
  cause: { name: string; message: string } | undefined;
}

/** Index of the counter in the shared signal array: bumped, and notified, once per wake of the caller. */
export const MESSAGE_COUNTER = 0;
/** Index of the worker-exited flag in the shared signal array. */
export const EXITED_FLAG = 1;
/** Index of the id of the call whose text answer the shared text buffer holds; 0 once the caller took it. */
export const TEXT_CALL = 2;
/** Index of the text answer's length in bytes. */
export const TEXT_LENGTH = 3;
/** Index of the text answer's tag. */
export const TEXT_TAG = 4;
/**
 * Index of the counter the calling thread bumps, and notifies, for each request, written to shared memory
 * or posted: the worker, parked while idle, wakes on it.
 */
export const REQUEST_COUNTER = 5;
/** Index of the id of the call whose request the shared request buffer holds; 0 once the worker read it. */
export const REQUEST_CALL = 6;
/** Index of the request's length in bytes. */
export const REQUEST_LENGTH = 7;
/**
 * Index of the count of requests the calling thread posted on the port: an idle worker parks only once
 * it has received every one.
 */
export const REQUEST_POSTED = 8;
/** Slots of the shared signal array. */
export const SIGNAL_SLOTS = 9;
/** Size of the shared request buffer: a longer request is posted. */
export const REQUEST_BYTES = 4096;
/** The shared text buffer's first size, and the largest it grows to; a longer answer is posted. */
export const TEXT_BYTES = { initial: 64 * 1024, max: 64 * 1024 * 1024 } as const;

/** A growable `SharedArrayBuffer` (ES2024; Node 20 has it, the TypeScript lib in use does not yet). */
export type GrowableSharedBuffer = SharedArrayBuffer & {
  readonly maxByteLength: number;
  grow(byteLength: number): void;
};

/** A shared buffer of {@link TEXT_BYTES}`.initial` bytes that can grow to `.max`, taking memory as it grows. */
export function growableTextBuffer(): GrowableSharedBuffer {
  return new (
    SharedArrayBuffer as unknown as new (
      length: number,
      options: { maxByteLength: number },
    ) => GrowableSharedBuffer
  )(TEXT_BYTES.initial, { maxByteLength: TEXT_BYTES.max });
}

/** Key of the text in a {@link TextAnswer}. */
export const TEXT_ANSWER = '__mdqTextAnswer';

/**
 * An answer the worker holds as text (a response body, which the calling thread decodes itself): its
 * bytes go through the shared text buffer, without a message, when the buffer is free and can hold them,
 * and are posted otherwise. Either way the caller gets this object back. `tag` is the method's own
 * small integer (the synchronous client: whether the result pages).
 */
export interface TextAnswer {
  [TEXT_ANSWER]: string;
  tag: number;
}

/** Makes a {@link TextAnswer}. */
export function textAnswer(text: string, tag: number): TextAnswer {
  return { [TEXT_ANSWER]: text, tag };
}

/** Whether `value` is a {@link TextAnswer}. */
export function isTextAnswer(value: unknown): value is TextAnswer {
  return (
    typeof value === 'object' && value !== null && typeof (value as TextAnswer)[TEXT_ANSWER] === 'string'
  );
}

const CALLBACK_KEY = '__mdqSyncCallback';

/**
 * Replaces functions in `args` (at any depth of arrays and plain objects, where options such as `logger`
 * or `onProgress` live) with markers; `register` stores each function and returns its id. Containers
 * without a function are passed as they are.
 */
export function encodeFunctions(args: unknown[], register: (fn: Function) => number): unknown[] {
  const encode = (value: unknown, depth: number): unknown => {
    if (typeof value === 'function') return { [CALLBACK_KEY]: register(value) };
    if (!hasFunction(value, depth)) return value;
    if (Array.isArray(value)) return value.map((v) => encode(v, depth + 1));
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, encode(v, depth + 1)]),
    );
  };
  return args.map((arg) => encode(arg, 0));
}

/**
 * Whether `value` comes back from `JSON.parse(JSON.stringify(value))` equal to what a structured clone
 * gives: strings, finite numbers (not -0), booleans and null, in arrays without holes and plain
 * objects, no deeper than {@link MAX_DEPTH}. Such a request can travel as JSON text.
 */
export function jsonExact(value: unknown, depth = 0): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null) return true;
      if (depth > MAX_DEPTH) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++)
          if (!(i in value) || !jsonExact(value[i], depth + 1)) return false;
        return true;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return false;
      for (const key in value)
        if (!jsonExact((value as Record<string, unknown>)[key], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}

/** Deeper than this, containers are not searched for functions (and cyclic ones end). */
const MAX_DEPTH = 8;

function hasFunction(value: unknown, depth: number): boolean {
  if (typeof value === 'function') return true;
  if (depth > MAX_DEPTH) return false;
  if (Array.isArray(value)) return value.some((v) => hasFunction(v, depth + 1));
  if (isPlainObject(value)) return Object.values(value).some((v) => hasFunction(v, depth + 1));
  return false;
}

/** Turns the markers left by `encodeFunctions` back into functions built by `make`. */
export function decodeFunctions(args: unknown[], make: (id: number) => Function): unknown[] {
  const isMarker = (value: unknown): value is Record<string, number> =>
    isPlainObject(value) && typeof value[CALLBACK_KEY] === 'number' && Object.keys(value).length === 1;
  const hasMarker = (value: unknown, depth: number): boolean =>
    isMarker(value) ||
    (depth <= MAX_DEPTH &&
      ((Array.isArray(value) && value.some((v) => hasMarker(v, depth + 1))) ||
        (isPlainObject(value) && Object.values(value).some((v) => hasMarker(v, depth + 1)))));
  const decode = (value: unknown, depth: number): unknown => {
    if (isMarker(value)) return make(value[CALLBACK_KEY] as number);
    if (!hasMarker(value, depth)) return value;
    if (Array.isArray(value)) return value.map((v) => decode(v, depth + 1));
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, decode(v, depth + 1)]),
    );
  };
  return args.map((arg) => decode(arg, 0));
}

/** Reduces anything thrown to cloneable data, keeping name, message, code and every own property. */
export function serializeError(thrown: unknown): SerializedError {
  if (!(thrown instanceof Error)) {
    return { name: 'MdqError', message: String(thrown), stack: undefined, props: {}, cause: undefined };
  }
  const props: Record<string, unknown> = {};
  for (const key of Object.keys(thrown)) {
    if (key === 'cause') continue;
    const value = (thrown as unknown as Record<string, unknown>)[key];
    props[key] = cloneable(value) ? value : String(value);
  }
  // `code` may be an accessor or inherited (Node system errors); keep it either way.
  const code = (thrown as { code?: unknown }).code;
  if (props.code === undefined && code !== undefined) props.code = cloneable(code) ? code : String(code);
  const cause = thrown.cause;
  return {
    name: thrown.name,
    message: thrown.message,
    stack: thrown.stack,
    props,
    cause:
      cause === undefined
        ? undefined
        : cause instanceof Error
          ? { name: cause.name, message: cause.message }
          : { name: 'Error', message: String(cause) },
  };
}

const builtinErrors: Record<string, ErrorConstructor> = {
  Error,
  TypeError,
  RangeError,
  SyntaxError,
  ReferenceError,
  EvalError,
  URIError,
};

/**
 * Rebuilds a serialised error as an instance of the same class (an mdq class from `errorClasses`, a
 * built-in error class, else `MdqError`), so `instanceof` and the `isX()` guards work on the calling
 * thread. The calling thread's stack is appended to the worker's.
 */
export function rebuildError(serialized: SerializedError, callerStack?: string): Error {
  const Cls: Function =
    (errorClasses as Record<string, Function>)[serialized.name] ?? builtinErrors[serialized.name] ?? MdqError;
  const error = Object.create(Cls.prototype) as Error & Record<string, unknown>;
  Object.defineProperty(error, 'message', { value: serialized.message, writable: true, configurable: true });
  Object.assign(error, serialized.props);
  if (Cls === MdqError && error.code === undefined) error.code = 'MDQ_ERROR';
  if (!Object.hasOwn(error, 'name') && error.name !== serialized.name) {
    Object.defineProperty(error, 'name', { value: serialized.name, writable: true, configurable: true });
  }
  if (serialized.cause) {
    const cause = new Error(serialized.cause.message);
    cause.name = serialized.cause.name;
    Object.defineProperty(error, 'cause', { value: cause, writable: true, configurable: true });
  }
  const own = serialized.stack ?? `${serialized.name}: ${serialized.message}`;
  const caller = callerStack?.split('\n').slice(1).join('\n');
  Object.defineProperty(error, 'stack', {
    value: caller ? `${own}\n    --- called synchronously from ---\n${caller}` : own,
    writable: true,
    configurable: true,
  });
  return error;
}

/**
 * The buffers of the typed arrays in a result (columnar bars, at any depth of plain objects up to a
 * few levels), each once: posted in the transfer list, they move to the calling thread instead of
 * being copied. Byte arrays are left out (a Node `Buffer` may share a pool that cannot move).
 */
export function transferListOf(value: unknown): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  const visit = (v: unknown, depth: number) => {
    if (ArrayBuffer.isView(v)) {
      if (!(v instanceof Uint8Array) && v.buffer instanceof ArrayBuffer) out.add(v.buffer);
    } else if (depth < 4 && isPlainObject(v)) {
      for (const item of Object.values(v)) visit(item, depth + 1);
    }
  };
  visit(value, 0);
  return [...out];
}

function cloneable(value: unknown): boolean {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return true;
  try {
    structuredClone(value);
    return true;
  } catch {
    return false;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
