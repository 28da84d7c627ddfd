/**
 * Masks the API key in text that may reach the caller (error messages, bodies, headers). The key is
 * replaced where it stands as a whole token, as it is and URL-encoded, so that a short key never
 * corrupts the words around it: with the key `k`, `Ticker not found.` stays intact while `apiKey=k` and
 * `Unknown API Key k` are masked.
 */

/** What replaces the key. */
export const KEY_MASK = '<api key>';

/**
 * Keys at least this long are masked wherever they appear, also inside a longer token (`req-KEY42`):
 * no word of a message contains such a string by chance, and the service's keys are 32 characters.
 */
const ANYWHERE_LENGTH = 16;

// A token is a run of letters, digits and `_`; the key matches only with none of them on either side.
const TOKEN_CHAR = '[\\p{L}\\p{N}_]';

const patterns = new Map<string, RegExp | undefined>();

/**
 * `text` with every whole-token occurrence of `key` (and of its URL-encoded form) replaced by `mask`.
 * An empty key masks nothing.
 *
 * @example maskKey('Unknown API Key k', 'k') // 'Unknown API Key <api key>'
 * @example maskKey('Ticker not found.', 'k') // 'Ticker not found.'
 */
export function maskKey(text: string, key: string, mask: string = KEY_MASK): string {
  const pattern = patternOf(key);
  if (pattern === undefined) return text;
  return text.replace(pattern, () => mask);
}

/** `value` with the key masked in every string it holds (objects and arrays copied, others as they are). */
export function maskKeyDeep<T>(value: T, key: string): T {
  if (typeof value === 'string') return maskKey(value, key) as T;
  if (Array.isArray(value)) return value.map((v) => maskKeyDeep(v, key)) as T;
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[maskKey(k, key)] = maskKeyDeep(v, key);
    return out as T;
  }
  return value;
}

function patternOf(key: string): RegExp | undefined {
  if (patterns.has(key)) return patterns.get(key);
  let pattern: RegExp | undefined;
  if (key !== '') {
    const forms = [...new Set([key, encodeURIComponent(key)])]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join('|');
    pattern =
      key.length >= ANYWHERE_LENGTH
        ? new RegExp(forms, 'gu')
        : new RegExp(`(?<!${TOKEN_CHAR})(?:${forms})(?!${TOKEN_CHAR})`, 'gu');
  }
  if (patterns.size > 64) patterns.clear();
  patterns.set(key, pattern);
  return pattern;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
