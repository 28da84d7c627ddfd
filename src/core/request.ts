import { InvalidParameterError } from './errors.js';
import type { OperationSpec, ParamSpec } from './operation.js';
import { expandPath } from './path.js';
import { encodeParam } from './wire-values.js';

/** A request built from an operation and a caller's arguments: ready for the transport. */
export interface BuiltRequest {
  /** Path and query, e.g. `/v3/trades/AAPL?limit=5000`. */
  readonly target: string;
  readonly path: string;
}

/**
 * Validates the caller's arguments against the operation's declaration and builds the request.
 * Required parameters come positionally, in declaration order; optional ones from `options` (keys
 * in `callOptionKeys` belong to the client, not to the operation). Nothing is sent when a value is
 * invalid: the error names the parameter, the value and what is allowed.
 */
export function buildRequest(
  op: OperationSpec,
  positional: readonly unknown[],
  options: Readonly<Record<string, unknown>> | undefined,
  callOptionKeys: ReadonlySet<string>,
  overrides?: Readonly<Record<string, unknown>>,
): BuiltRequest {
  const required = requiredParams(op);
  if (positional.length > required.length) {
    throw new InvalidParameterError(
      `${op.name} arguments`,
      positional.length,
      `${op.name} takes ${required.length} positional argument(s) (${required.map((p) => p.name).join(', ') || 'none'}) and an options object`,
    );
  }
  if (options !== undefined && (typeof options !== 'object' || options === null || Array.isArray(options))) {
    throw new InvalidParameterError(
      'options',
      options,
      `the last argument of ${op.name} must be an options object`,
    );
  }
  if (options) {
    for (const key of Object.keys(options)) {
      if (!callOptionKeys.has(key) && !optionalNames(op).has(key)) {
        throw new InvalidParameterError(
          key,
          options[key],
          `${op.name} has no option ${key}; its options are ${[...optionalNames(op), ...callOptionKeys].join(', ')}`,
        );
      }
    }
  }

  const pathValues: Record<string, string> = {};
  const wireValues: Record<string, string> = {};
  let query = '';
  let r = 0;
  for (const param of op.params) {
    let value: unknown;
    if (param.required) {
      value = overrides && param.name in overrides ? overrides[param.name] : positional[r];
      r++;
      if (value === undefined || value === null) {
        throw new InvalidParameterError(param.name, value, `${op.name} requires ${param.name}: ${param.doc}`);
      }
    } else {
      value = overrides && param.name in overrides ? overrides[param.name] : options?.[param.name];
      if (value === undefined || value === null) value = param.default;
      if (value === undefined) continue;
    }
    if (param.in === 'client') {
      encodeParam(param, value); // still validated, never sent
      continue;
    }
    const wire = encodeParam(param, resolveAlias(param, value));
    wireValues[param.name] = wire;
    if (param.in === 'path') pathValues[param.wire] = wire;
    else query += `${query ? '&' : '?'}${encodeURIComponent(param.wire)}=${encodeURIComponent(wire)}`;
  }
  for (const [a, b] of op.ordered ?? []) checkOrder(a, wireValues[a], b, wireValues[b]);
  const path = expandPath(op.path, pathValues);
  return { path, target: path + query };
}

/** A wire date or timestamp as a comparable instant (a date counts from its UTC midnight). */
function instantOf(wire: string): number {
  return /^\d{4}-\d{2}-\d{2}$/.test(wire) ? Date.parse(`${wire}T00:00:00Z`) : Number(wire);
}

function checkOrder(a: string, va: string | undefined, b: string, vb: string | undefined): void {
  if (va === undefined || vb === undefined) return;
  if (instantOf(va) > instantOf(vb)) {
    throw new InvalidParameterError(a, va, `${a} must not be after ${b} (${vb})`);
  }
}

function resolveAlias(param: ParamSpec, value: unknown): unknown {
  if (param.type.kind === 'enum' && typeof value === 'string' && param.type.aliases) {
    return param.type.aliases[value] ?? value;
  }
  return value;
}

const requiredCache = new WeakMap<OperationSpec, readonly ParamSpec[]>();
/** The positional parameters of an operation, in order. */
export function requiredParams(op: OperationSpec): readonly ParamSpec[] {
  let r = requiredCache.get(op);
  if (!r) {
    r = op.params.filter((p) => p.required);
    requiredCache.set(op, r);
  }
  return r;
}

const optionalCache = new WeakMap<OperationSpec, ReadonlySet<string>>();
/** The option keys an operation takes. */
export function optionalNames(op: OperationSpec): ReadonlySet<string> {
  let s = optionalCache.get(op);
  if (!s) {
    s = new Set(op.params.filter((p) => !p.required).map((p) => p.name));
    optionalCache.set(op, s);
  }
  return s;
}
