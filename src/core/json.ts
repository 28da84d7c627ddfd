/**
 * JSON with exact big integers. The service sends nanosecond timestamps (~1.7e18) as bare JSON integers,
 * beyond `Number.MAX_SAFE_INTEGER`; `JSON.parse` would round them. `parseJson` decodes every integer
 * literal outside the safe range as a `bigint` and everything else exactly as `JSON.parse` does;
 * `stringifyJson` writes `bigint` values back as bare integers.
 */

const MARK = '\u0001';

/** Parses JSON text; integers outside the safe range become `bigint`. */
export function parseJson(text: string): unknown {
  // Only a run of 16+ digits can be unsafe; bodies without one (aggregates, snapshots) take the fast path.
  if (!hasLongDigitRun(text)) return JSON.parse(text);
  return JSON.parse(markBigIntegers(text), (_key, value) =>
    typeof value === 'string' && value.charCodeAt(0) === 1 ? BigInt(value.slice(1)) : value,
  );
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * Whether `text` holds 16 or more digits in a row. Any such run covers one of every 16th character,
 * so only those are looked at, and the runs around the digits among them measured (a regular
 * expression tries every position, and costs about as much as `JSON.parse` on a body of numbers).
 */
function hasLongDigitRun(text: string): boolean {
  const n = text.length;
  for (let i = 15; i < n; i += 16) {
    if (!isDigit(text.charCodeAt(i))) continue;
    let start = i;
    while (start > 0 && isDigit(text.charCodeAt(start - 1))) start--;
    let end = i + 1;
    while (end < n && isDigit(text.charCodeAt(end))) end++;
    if (end - start >= 16) return true;
  }
  return false;
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

/**
 * `JSON.stringify` that writes `bigint` values as bare integers. The plain `JSON.stringify` is tried
 * first: it throws a `TypeError` at the first `bigint`, which costs a small body about 2 µs more (the
 * error is made without a stack) and spares every large body without one a walk looking for it. Only
 * bodies with a `bigint` take the replacer, which costs several times as much per value. While an
 * application gives `BigInt` a `toJSON`, every body takes the replacer, which reads the raw values.
 */
export function stringifyJson(value: unknown, space?: number): string {
  if (!('toJSON' in BigInt.prototype)) {
    const stackLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      return JSON.stringify(value, undefined, space);
    } catch (error) {
      // A bigint, or a cycle, which the replacer meets again below. Anything else came from a `toJSON`:
      // run again with stacks, so that its error has one.
      Error.stackTraceLimit = stackLimit;
      if (!(error instanceof TypeError)) return JSON.stringify(value, undefined, space);
    } finally {
      Error.stackTraceLimit = stackLimit;
    }
  }
  let sawBigInt = false;
  const text = JSON.stringify(
    value,
    function (this: Record<string, unknown>, key, v) {
      // The holder's own value: `v` has been through a `toJSON` an application may give BigInt.
      const raw = this[key];
      const big = typeof raw === 'bigint' ? raw : typeof v === 'bigint' ? v : undefined;
      if (big === undefined) return v;
      sawBigInt = true;
      return `${MARK}${big}`;
    },
    space,
  );
  return sawBigInt ? text.replace(/"\\u0001(-?\d+)"/g, '$1') : text;
}
