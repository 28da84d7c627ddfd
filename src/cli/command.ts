import type { ParsedArgv } from './argv.js';
import type { CliContext } from './context.js';
import { UsageError, unknownOption } from './usage-error.js';

/** One `--option` of a command, for parsing and for `--help`. */
export interface OptionDef {
  /** Long name without `--` (kebab-case). */
  readonly name: string;
  /** Type as shown in `--help` (`int ≥ 1`, `minute|hour|day`, `path`). */
  readonly type: string;
  /** Takes no value: `--name` sets it, `--no-name` clears it. */
  readonly flag?: boolean;
  /** Default as shown in `--help`. */
  readonly default?: string;
  /** May be given several times (every value is kept). */
  readonly repeatable?: boolean;
  readonly doc: string;
}

/** One positional argument of a command. */
export interface ArgDef {
  readonly name: string;
  readonly type: string;
  readonly doc: string;
  /** Takes every remaining positional argument. */
  readonly variadic?: boolean;
  /** May be left out. */
  readonly optional?: boolean;
}

/** A runnable command (`mdq stocks get-trades`, `mdq chart`). */
export interface CommandDef {
  /** The words that select it, e.g. `stocks get-aggregate-bars`. */
  readonly path: string;
  readonly summary: string;
  readonly args: readonly ArgDef[];
  readonly options: readonly OptionDef[];
  /** Extra help text after the options. */
  readonly notes?: string;
  run(ctx: CliContext, input: CommandInput): Promise<void>;
}

/** What a command receives: its positional arguments and its option values, checked against its declaration. */
export interface CommandInput {
  readonly args: readonly string[];
  /** Last value of each given option, by kebab-case name. */
  readonly options: ReadonlyMap<string, string>;
  /** Every value of each given option. */
  readonly all: ReadonlyMap<string, readonly string[]>;
}

/** Options every command accepts. */
export const GLOBAL_OPTIONS: readonly OptionDef[] = [
  {
    name: 'output',
    type: 'table|json|csv|ndjson|parquet',
    default: 'table on a terminal, else json',
    doc: 'Output format (-o); parquet (binary) needs --out or a redirected output.',
  },
  {
    name: 'out',
    type: 'file',
    default: 'standard output',
    doc: 'Write the result to this file instead.',
  },
  {
    name: 'columns',
    type: 'a,b,c',
    default: 'every column',
    doc: 'Columns of a table or CSV, in order (day picks day.o, day.c, …).',
  },
  {
    name: 'base-url',
    type: 'url',
    default: '$MDQ_BASE_URL, else https://api.massive.com',
    doc: 'Service to query.',
  },
  {
    name: 'api-key',
    type: 'string',
    default: '$MASSIVE_API_KEY, else $POLYGON_API_KEY',
    doc: 'API key (never printed); a local server needs none.',
  },
  { name: 'quiet', type: 'flag', flag: true, doc: 'No progress or notes on standard error (-q).' },
  { name: 'help', type: 'flag', flag: true, doc: 'Show help (-h).' },
  { name: 'version', type: 'flag', flag: true, doc: 'Print the version of mdq (-V).' },
];

/** Checks a parsed command line against a command's declaration. */
export function commandInput(cmd: CommandDef, parsed: ParsedArgv): CommandInput {
  // A command may give a global option its own meaning (`serve --api-key`: a key it accepts).
  const known = new Map([...GLOBAL_OPTIONS, ...cmd.options].map((o) => [o.name, o]));
  const options = new Map<string, string>();
  for (const [name, values] of parsed.options) {
    const def = known.get(name);
    if (!def) throw unknownOption(name, [...known.keys()], `mdq ${cmd.path}`);
    if (values.length > 1 && !def.repeatable && new Set(values).size > 1) {
      throw new UsageError(
        `Option --${name} was given ${values.length} times with different values; give it once`,
      );
    }
    options.set(name, values[values.length - 1] as string);
  }
  const required = cmd.args.filter((a) => !a.optional && !a.variadic);
  const variadic = cmd.args.some((a) => a.variadic);
  if (parsed.positionals.length < required.length) {
    const missing = required[parsed.positionals.length] as ArgDef;
    throw new UsageError(
      `Missing argument <${missing.name}> (${missing.type}) of mdq ${cmd.path}; usage: ${usageLine(cmd)}`,
    );
  }
  if (!variadic && parsed.positionals.length > cmd.args.length) {
    const extra = parsed.positionals[cmd.args.length];
    throw new UsageError(
      `Unexpected argument ${JSON.stringify(extra)} for mdq ${cmd.path}; usage: ${usageLine(cmd)}`,
    );
  }
  return { args: parsed.positionals, options, all: parsed.options };
}

/** `mdq stocks get-trades <symbol> <date> [options]`. */
export function usageLine(cmd: CommandDef): string {
  const args = cmd.args.map((a) =>
    a.variadic ? `<${a.name}...>` : a.optional ? `[${a.name}]` : `<${a.name}>`,
  );
  return ['mdq', cmd.path, ...args, '[options]'].join(' ');
}

/** The `--help` text of a command. */
export function commandHelp(cmd: CommandDef): string {
  const lines = [`Usage: ${usageLine(cmd)}`, '', cmd.summary];
  if (cmd.args.length > 0) {
    lines.push('', 'Arguments:');
    for (const a of cmd.args) lines.push(helpRow(`<${a.name}>`, a.type, undefined, a.doc));
  }
  if (cmd.options.length > 0) {
    lines.push('', 'Options:');
    for (const o of cmd.options) lines.push(helpRow(`--${o.name}`, o.type, o.default, o.doc));
  }
  lines.push('', 'Global options:');
  for (const o of GLOBAL_OPTIONS) {
    if (!cmd.options.some((c) => c.name === o.name))
      lines.push(helpRow(`--${o.name}`, o.type, o.default, o.doc));
  }
  if (cmd.notes) lines.push('', cmd.notes);
  return `${lines.join('\n')}\n`;
}

function helpRow(name: string, type: string, def: string | undefined, doc: string): string {
  const head = `  ${name} ${type === 'flag' ? '' : `(${type})`}`.trimEnd();
  const tail = `${doc}${def === undefined ? '' : ` [default: ${def}]`}`;
  return head.length < 34 ? `${head.padEnd(34)}${tail}` : `${head}\n${' '.repeat(34)}${tail}`;
}

/** Reads an integer option; a usage error names the option and what it allows. */
export function intOption(
  input: CommandInput,
  name: string,
  fallback: number,
  min = 1,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const raw = input.options.get(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    const allowed = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`Invalid --${name}: ${JSON.stringify(raw)}; expected an integer ${allowed}`);
  }
  return n;
}

/** Reads a flag option (`--x`, `--no-x`, `--x=false`). */
export function flagOption(input: CommandInput, name: string, fallback = false): boolean {
  const raw = input.options.get(name);
  if (raw === undefined) return fallback;
  if (raw === 'true' || raw === '') return true;
  if (raw === 'false') return false;
  throw new UsageError(`Invalid --${name}: ${JSON.stringify(raw)}; expected true or false`);
}
