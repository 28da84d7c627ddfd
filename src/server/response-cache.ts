import { stringBytes } from './approx-bytes.js';

/** Options of {@link ResponseCache}. */
export interface ResponseCacheOptions {
  /**
   * Bytes of bodies and their keys (request URLs) kept in all, as `stringBytes` counts them; the least
   * recently used are dropped first.
   * @default 128 MiB
   */
  maxBytes?: number;
  /**
   * Bodies (with their key) larger than this are not kept.
   * @default 8 MiB
   */
  maxBodyBytes?: number;
}

/** Bytes of one kept body besides its key and text: the map entry and the split record. */
const ENTRY_BYTES = 160;

/** A kept body, split around its request id: `head + id + tail` (no tail: the body has no id). */
interface Kept {
  head: string;
  tail: string | undefined;
  /** Bytes counted for the entry, key included. */
  bytes: number;
}

/**
 * Bodies of successful answers, by request URL, for a server whose answers cannot change: a store
 * nothing writes to and a fixed "now". A repeated request then costs the key check and one string
 * concatenation; its body is the first one's with the new request's own id.
 */
export class ResponseCache {
  private readonly kept = new Map<string, Kept>();
  private total = 0;
  readonly maxBytes: number;
  readonly maxBodyBytes: number;

  constructor(options: ResponseCacheOptions = {}) {
    this.maxBytes = options.maxBytes ?? 128 * 2 ** 20;
    this.maxBodyBytes = Math.min(options.maxBodyBytes ?? 8 * 2 ** 20, this.maxBytes);
  }

  /** The body kept for `key`, with `requestId` in place of the first request's id. */
  get(key: string, requestId: string): string | undefined {
    const hit = this.kept.get(key);
    if (hit === undefined) return undefined;
    this.kept.delete(key);
    this.kept.set(key, hit);
    return hit.tail === undefined ? hit.head : hit.head + requestId + hit.tail;
  }

  /** Keeps `body`, the answer to `key` written with `requestId` (which appears at most once in it). */
  set(key: string, body: string, requestId: string): void {
    // A cheap bound first (a character takes at most two bytes), then the count.
    if (body.length + key.length > this.maxBodyBytes) return;
    const bytes = ENTRY_BYTES + stringBytes(key) + stringBytes(body);
    if (bytes > this.maxBodyBytes) return;
    const at = requestId === '' ? -1 : body.indexOf(requestId);
    if (at >= 0 && body.indexOf(requestId, at + 1) >= 0) return;
    const old = this.kept.get(key);
    if (old) this.forget(key, old);
    // The two parts of a split body share its text (V8 slices), so the body's size is what is held.
    const entry: Kept =
      at < 0
        ? { head: body, tail: undefined, bytes }
        : { head: body.slice(0, at), tail: body.slice(at + requestId.length), bytes };
    this.kept.set(key, entry);
    this.total += bytes;
    for (const [oldest, kept] of this.kept) {
      if (this.total <= this.maxBytes) break;
      this.forget(oldest, kept);
    }
  }

  /** Number of bodies kept. */
  get size(): number {
    return this.kept.size;
  }

  /** Bytes counted for everything kept, keys included. */
  get bytes(): number {
    return this.total;
  }

  private forget(key: string, entry: Kept): void {
    this.kept.delete(key);
    this.total -= entry.bytes;
  }
}

/**
 * The cache key of a request URL: the URL without its `apiKey` query parameter (the same request made
 * with another key gets the same answer once the key is accepted).
 */
export function responseKey(url: string): string {
  const q = url.indexOf('?');
  if (q < 0 || !url.includes('apiKey=', q)) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  params.delete('apiKey');
  const rest = params.toString();
  return rest === '' ? url.slice(0, q) : `${url.slice(0, q)}?${rest}`;
}
