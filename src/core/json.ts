/**
 * JSON with exact big integers. The service sends nanosecond timestamps (~1.7e18) as bare JSON integers,
 * beyond `Number.MAX_SAFE_INTEGER`; `JSON.parse` would round them. `parseJson` decodes every integer
 * literal outside the safe range as a `bigint` and everything else exactly as `JSON.parse` does;
 * `stringifyJson` writes `bigint` values back as bare integers.
 */

const MARK = '\u0001';
// A run of 16+ digits can only be unsafe; bodies without one (aggregates, snapshots) take the fast path.
const LONG_DIGITS = /\d{16}/;

/** Parses JSON text; integers outside the safe range become `bigint`. */
export function parseJson(text: string): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text);
  return JSON.parse(markBigIntegers(text), (_key, value) =>
    typeof value === 'string' && value.charCodeAt(0) === 1 ? BigInt(value.slice(1)) : value,
  );
}

/** Wraps unsafe integer literals that stand outside strings into marked strings. */
function markBigIntegers(text: string): string {
  let out = '';
  let last = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text.charCodeAt(i);
    if (ch === 34 /* " */) {
      i++;
      while (i < n) {
        const c = text.charCodeAt(i);
        if (c === 92 /* \ */) i += 2;
        else if (c === 34) break;
        else i++;
      }
      i++;
      continue;
    }
    if (ch === 45 /* - */ || (ch >= 48 && ch <= 57)) {
      const start = i;
      i++;
      while (i < n) {
        const c = text.charCodeAt(i);
        if ((c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45) i++;
        else break;
      }
      const literal = text.slice(start, i);
      if (/^-?\d{16,}$/.test(literal) && !Number.isSafeInteger(Number(literal))) {
        out += `${text.slice(last, start)}"\\u0001${literal}"`;
        last = i;
      }
      continue;
    }
    i++;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** `JSON.stringify` that writes `bigint` values as bare integers. */
export function stringifyJson(value: unknown, space?: number): string {
  let sawBigInt = false;
  const text = JSON.stringify(
    value,
    (_key, v) => {
      if (typeof v === 'bigint') {
        sawBigInt = true;
        return `${MARK}${v}`;
      }
      return v;
    },
    space,
  );
  return sawBigInt ? text.replace(/"\\u0001(-?\d+)"/g, '$1') : text;
}
