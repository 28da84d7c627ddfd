import type { ParamSpec, ParamType } from '../core/operation.js';
import { UsageError } from './usage-error.js';

/** How a parameter's type reads in `--help`. */
export function typeLabel(type: ParamType): string {
  switch (type.kind) {
    case 'int':
    case 'number': {
      const range =
        type.min !== undefined && type.max !== undefined
          ? ` ${type.min}..${type.max}`
          : type.min !== undefined
            ? ` ≥ ${type.min}`
            : type.max !== undefined
              ? ` ≤ ${type.max}`
              : '';
      return `${type.kind}${range}`;
    }
    case 'enum':
      return type.values.join('|');
    case 'ticker':
      return type.prefix ? `ticker (${type.prefix} optional)` : 'ticker';
    case 'pair':
      return 'currency code';
    case 'date':
      return 'YYYY-MM-DD';
    case 'dateOrMs':
      return 'YYYY-MM-DD|unix ms';
    case 'nsTimestamp':
      return 'YYYY-MM-DD|unix ns';
    case 'nsOffset':
      return 'unix ns';
    case 'msOffset':
      return 'unix ms';
    case 'list':
      return type.values ? `comma separated list of ${type.values.join('|')}` : 'comma separated list';
    default:
      return type.kind;
  }
}

/**
 * Converts a command-line string into the value the client takes for `param`. Numbers are checked
 * here (the message names the option); the client validates the rest (ranges, enums, dates) itself.
 */
export function parseParamValue(param: ParamSpec, raw: string, label: string): unknown {
  const type = param.type;
  switch (type.kind) {
    case 'int':
    case 'number': {
      const n = Number(raw);
      const ok = raw.trim() !== '' && Number.isFinite(n) && (type.kind === 'number' || Number.isInteger(n));
      if (!ok) throw new UsageError(`Invalid ${label}: ${JSON.stringify(raw)}; expected ${typeLabel(type)}`);
      return n;
    }
    case 'boolean':
      if (raw === 'true') return true;
      if (raw === 'false') return false;
      throw new UsageError(`Invalid ${label}: ${JSON.stringify(raw)}; expected true or false`);
    case 'dateOrMs':
    case 'msOffset':
      return /^\d+$/.test(raw) ? Number(raw) : raw;
    case 'nsTimestamp':
    case 'nsOffset':
      return /^\d+$/.test(raw) ? BigInt(raw) : raw;
    default:
      return raw;
  }
}
