/**
 * The `strftime` subset that date formats use here: `%Y` (4-digit year), `%m`, `%d`, `%H`, `%M`, `%S`
 * (2 digits each) and `%%`. Other characters stand for themselves.
 */
import { InvalidParameterError } from '../core/errors.js';
import { isRealDay } from './calendar.js';

/** Calendar and clock fields, as formatted or parsed. */
export interface DateTimeFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const DIRECTIVES = new Set(['Y', 'm', 'd', 'H', 'M', 'S', '%']);

/** Splits a format into literal text and directive letters; throws for an unsupported directive. */
function tokens(format: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < format.length; i++) {
    const ch = format[i] as string;
    if (ch !== '%') {
      out.push(ch);
      continue;
    }
    const d = format[i + 1];
    if (d === undefined || !DIRECTIVES.has(d)) {
      throw new InvalidParameterError('format', format, 'supported directives are %Y %m %d %H %M %S and %%');
    }
    out.push(d === '%' ? '%' : `%${d}`);
    i++;
  }
  return out;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** Writes `fields` with `format`. */
export function formatFields(fields: DateTimeFields, format: string): string {
  let out = '';
  for (const tok of tokens(format)) {
    switch (tok) {
      case '%Y':
        out += String(fields.year).padStart(4, '0');
        break;
      case '%m':
        out += pad2(fields.month);
        break;
      case '%d':
        out += pad2(fields.day);
        break;
      case '%H':
        out += pad2(fields.hour);
        break;
      case '%M':
        out += pad2(fields.minute);
        break;
      case '%S':
        out += pad2(fields.second);
        break;
      default:
        out += tok;
    }
  }
  return out;
}

/** Parsed fields, and whether the format carried a time of day. */
export interface ParsedFields extends DateTimeFields {
  hasTime: boolean;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Reads `text` written in `format`. `%Y`, `%m` and `%d` are required; missing clock fields are 0.
 * Returns `undefined` when the text does not match or names an impossible date or time.
 */
export function parseWithFormat(text: string, format: string): ParsedFields | undefined {
  const order: string[] = [];
  let source = '^';
  for (const tok of tokens(format)) {
    if (tok.length === 2) {
      order.push(tok[1] as string);
      source += tok === '%Y' ? '(\\d{4})' : '(\\d{2})';
    } else source += escapeRegExp(tok);
  }
  const m = new RegExp(`${source}$`).exec(text);
  if (!m) return undefined;
  const f: Record<string, number> = {};
  order.forEach((letter, i) => {
    f[letter] = Number(m[i + 1]);
  });
  if (f.Y === undefined || f.m === undefined || f.d === undefined) return undefined;
  const fields: ParsedFields = {
    year: f.Y,
    month: f.m,
    day: f.d,
    hour: f.H ?? 0,
    minute: f.M ?? 0,
    second: f.S ?? 0,
    hasTime: f.H !== undefined || f.M !== undefined || f.S !== undefined,
  };
  if (!isRealDay(fields.year, fields.month, fields.day)) return undefined;
  if (fields.hour > 23 || fields.minute > 59 || fields.second > 59) return undefined;
  return fields;
}
