/**
 * Approximate heap bytes of a value held by a cache: rows of query results (objects, arrays and typed
 * arrays of numbers, bigints, strings, booleans and null) and answer bodies. The sizes are those of
 * V8 on a 64-bit machine, rounded up (a header plus 8-byte slots; strings at one byte per character
 * when every character fits in Latin-1, else two), so a byte budget errs towards keeping less.
 * Values shared between rows are counted once per reference: an overestimate, never an under one.
 */
export function approxBytes(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return stringBytes(value);
    case 'number':
      // A slot plus a boxed double (small integers need no box; counted anyway).
      return 24;
    case 'bigint':
      return 32;
    case 'boolean':
    case 'undefined':
      return 8;
    case 'object': {
      if (value === null) return 8;
      if (ArrayBuffer.isView(value)) return 8 + 96 + value.byteLength;
      if (Array.isArray(value)) {
        let bytes = 8 + 48;
        for (const item of value) bytes += approxBytes(item);
        return bytes;
      }
      let bytes = 8 + 48;
      for (const key in value) bytes += 8 + approxBytes((value as Record<string, unknown>)[key]);
      return bytes;
    }
    default:
      return 64;
  }
}

/** Approximate heap bytes of a string: a header, then one byte per character (two past Latin-1). */
export function stringBytes(s: string): number {
  return 8 + 24 + (/[^\u0000-\u00ff]/.test(s) ? 2 * s.length : s.length);
}
