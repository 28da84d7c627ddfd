import { UsageError, unknownOption } from './usage-error.js';

/** A command line split into positional arguments and `--options`. */
export interface ParsedArgv {
  readonly positionals: string[];
  /** Option values by long name (kebab-case, without `--`); flags map to `'true'` or `'false'`. */
  readonly options: Map<string, string[]>;
}

/** Short options and the long names they stand for. */
const SHORT: Readonly<Record<string, string>> = { h: 'help', o: 'output', q: 'quiet', V: 'version' };

/** The options a command line may hold, for naming a mistyped one at once. */
export interface KnownOptions {
  readonly names: readonly string[];
  /** The command they belong to, as the message names it (`mdq stocks get-trades`). */
  readonly where: string;
}

/**
 * Splits `argv`. `--name=value` and `--name value` set an option, `--flag` sets a flag (names in
 * `flags`) and `--no-flag` clears it; a flag may also be followed by `true` or `false`. `--` ends the
 * options. An option given twice keeps both values (the last one wins where one value is expected).
 * With `known`, an option not among them is an error naming the closest known one.
 */
export function parseArgv(
  argv: readonly string[],
  flags: ReadonlySet<string>,
  known?: KnownOptions,
): ParsedArgv {
  const positionals: string[] = [];
  const options = new Map<string, string[]>();
  const add = (name: string, value: string) => options.set(name, [...(options.get(name) ?? []), value]);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    const short = /^-([a-zA-Z])$/.exec(arg);
    const long = /^--([a-zA-Z][\w-]*)(?:=(.*))?$/s.exec(arg);
    if (!short && !long) {
      // A negative number is a value, not an option.
      if (arg.startsWith('-') && !/^-\d/.test(arg) && arg !== '-') {
        throw new UsageError(`Unknown option ${arg}: options are written --name or --name=value`);
      }
      positionals.push(arg);
      continue;
    }
    const name = short ? SHORT[short[1] as string] : (long?.[1] as string);
    if (name === undefined)
      throw new UsageError(`Unknown option ${arg}; short options are -h, -o, -q and -V`);
    const negated = name.startsWith('no-') && flags.has(name.slice(3));
    if (known && !negated && !known.names.includes(name)) throw unknownOption(name, known.names, known.where);
    const inline = long?.[2];
    if (inline !== undefined) {
      add(name, inline);
      continue;
    }
    if (flags.has(name)) {
      const next = argv[i + 1];
      if (next === 'true' || next === 'false') {
        add(name, next);
        i++;
      } else add(name, 'true');
      continue;
    }
    if (name.startsWith('no-') && flags.has(name.slice(3))) {
      add(name.slice(3), 'false');
      continue;
    }
    const next = argv[i + 1];
    if (next === undefined || (next.startsWith('--') && next.length > 2)) {
      throw new UsageError(`Option --${name} needs a value (--${name} <value>)`);
    }
    add(name, next);
    i++;
  }
  return { positionals, options };
}

/** `getAggregateBars` → `get-aggregate-bars`. */
export function kebabCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

/** `get-aggregate-bars` → `getAggregateBars`. */
export function camelCase(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
