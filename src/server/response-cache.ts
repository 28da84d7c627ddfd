/** Options of {@link ResponseCache}. */
export interface ResponseCacheOptions {
  /**
   * Characters of body text kept in all (least recently used dropped first).
   * @default 128 MiB worth
   */
  maxChars?: number;
  /**
   * Bodies longer than this are not kept.
   * @default 8 MiB worth
   */
  maxBodyChars?: number;
}

/** A kept body, split around its request id: `head + id + tail` (no tail: the body has no id). */
interface Kept {
  head: string;
  tail: string | undefined;
}

/**
 * Bodies of successful answers, by request URL, for a server whose answers cannot change: a store
 * nothing writes to and a fixed "now". A repeated request then costs the key check and one string
 * concatenation; its body is the first one's with the new request's own id.
 */
export class ResponseCache {
  private readonly kept = new Map<string, Kept>();
  private chars = 0;
  private readonly maxChars: number;
  private readonly maxBodyChars: number;

  constructor(options: ResponseCacheOptions = {}) {
    this.maxChars = options.maxChars ?? 128 * 2 ** 20;
    this.maxBodyChars = Math.min(options.maxBodyChars ?? 8 * 2 ** 20, this.maxChars);
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
    if (body.length > this.maxBodyChars) return;
    const at = requestId === '' ? -1 : body.indexOf(requestId);
    if (at >= 0 && body.indexOf(requestId, at + 1) >= 0) return;
    const old = this.kept.get(key);
    if (old) this.forget(key, old);
    const entry: Kept =
      at < 0
        ? { head: body, tail: undefined }
        : { head: body.slice(0, at), tail: body.slice(at + requestId.length) };
    this.kept.set(key, entry);
    this.chars += charsOf(entry);
    while (this.chars > this.maxChars) {
      const [oldest, entry] = this.kept.entries().next().value as [string, Kept];
      this.forget(oldest, entry);
    }
  }

  /** Number of bodies kept. */
  get size(): number {
    return this.kept.size;
  }

  private forget(key: string, entry: Kept): void {
    this.kept.delete(key);
    this.chars -= charsOf(entry);
  }
}

const charsOf = (entry: Kept) => entry.head.length + (entry.tail?.length ?? 0);

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
