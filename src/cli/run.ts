import { VERSION } from '../core/version.js';
import { parseArgv } from './argv.js';
import { closest } from './closest.js';
import { type CommandDef, commandHelp, commandInput, GLOBAL_OPTIONS } from './command.js';
import { CliContext, type CliStreams } from './context.js';
import { describeError, EXIT } from './exit-code.js';
import { type TopLevel, topLevel } from './registry.js';
import { UsageError } from './usage-error.js';

function mainHelp(groups: readonly TopLevel[]): string {
  const lines = [
    'Usage: mdq <command> [arguments] [options]',
    '',
    'Market data from the command line: every operation of every client, option symbols, dates,',
    'charts, the local server and a demo over a simulated market.',
    '',
    'Commands:',
    ...groups.map((g) => `  ${g.name.padEnd(12)}${g.summary}`),
    '',
    'Global options:',
    ...GLOBAL_OPTIONS.map(
      (o) => `  --${o.name.padEnd(10)}${o.doc}${o.default ? ` [default: ${o.default}]` : ''}`,
    ),
    '',
    'Run `mdq <command> --help` for the operations of a command and their parameters.',
    'Exit codes: 0 success, 1 API or network error, 2 bad usage.',
  ];
  return `${lines.join('\n')}\n`;
}

function groupHelp(group: TopLevel): string {
  const width = Math.max(...group.commands.map((c) => c.path.length - group.name.length)) + 2;
  const lines = [
    `Usage: mdq ${group.name} <operation> [arguments] [options]`,
    '',
    group.summary,
    '',
    'Operations:',
    ...group.commands.map((c) => `  ${c.path.slice(group.name.length + 1).padEnd(width)}${c.summary}`),
    '',
    `Run \`mdq ${group.name} <operation> --help\` for its parameters, types and defaults.`,
  ];
  return `${lines.join('\n')}\n`;
}

/** Finds the command named by the leading words of `argv`; the rest of `argv` is its input. */
function findCommand(
  argv: readonly string[],
  groups: readonly TopLevel[],
): { group?: TopLevel; command?: CommandDef; rest: readonly string[] } {
  const first = argv[0];
  if (first === undefined || first.startsWith('-')) return { rest: argv };
  const group = groups.find((g) => g.name === first);
  if (!group) {
    const names = groups.map((g) => g.name);
    throw new UsageError(
      `Unknown command ${JSON.stringify(first)}; allowed: ${names.join(', ')}${hint(first, names)}`,
    );
  }
  if (group.commands.length === 1 && group.commands[0]?.path === group.name) {
    return { group, command: group.commands[0], rest: argv.slice(1) };
  }
  const second = argv[1];
  if (second === undefined || second.startsWith('-')) return { group, rest: argv.slice(1) };
  const command = group.commands.find((c) => c.path === `${group.name} ${second}`);
  if (!command) {
    const names = group.commands.map((c) => c.path.slice(group.name.length + 1));
    throw new UsageError(
      `Unknown operation ${JSON.stringify(second)} for mdq ${group.name}; allowed: ${names.join(', ')}${hint(second, names)}`,
    );
  }
  return { group, command, rest: argv.slice(2) };
}

/**
 * Runs the CLI on `argv` (without `node` and the script) and returns the exit code: 0 success,
 * 1 an API or network error, 2 bad usage. Nothing here calls `process.exit`.
 */
export async function runCli(argv: readonly string[], streams: CliStreams): Promise<number> {
  // Until the command line is parsed, errors are still written through a context that knows the key.
  const fallback = new CliContext(streams, { quiet: false, output: 'json', apiKey: rawApiKey(argv) });
  let ctx = fallback;
  try {
    const groups = topLevel();
    const found = findCommand(argv, groups);
    const declared = [...(found.command?.options ?? []), ...GLOBAL_OPTIONS];
    const flags = new Set(declared.filter((o) => o.flag).map((o) => o.name));
    const where = ['mdq', found.command?.path ?? found.group?.name].filter(Boolean).join(' ');
    const parsed = parseArgv(found.rest, flags, { names: [...new Set(declared.map((o) => o.name))], where });
    const wantsHelp = parsed.options.get('help')?.at(-1) === 'true';
    if (parsed.options.get('version')?.at(-1) === 'true') {
      streams.stdout.write(`${VERSION}\n`);
      return EXIT.ok;
    }
    if (!found.command) {
      if (found.group) {
        if (wantsHelp) {
          streams.stdout.write(groupHelp(found.group));
          return EXIT.ok;
        }
        streams.stderr.write(groupHelp(found.group));
        const allowed = found.group.commands
          .map((c) => c.path.slice(found.group!.name.length + 1))
          .join(', ');
        throw new UsageError(`Missing operation for mdq ${found.group.name}; allowed: ${allowed}`);
      }
      if (wantsHelp) {
        streams.stdout.write(mainHelp(groups));
        return EXIT.ok;
      }
      // Without a command there is nothing to do: the help goes with the usage error.
      if (argv.length === 0) streams.stderr.write(mainHelp(groups));
      throw new UsageError(`Missing command; allowed: ${groups.map((g) => g.name).join(', ')}`);
    }
    if (wantsHelp) {
      streams.stdout.write(commandHelp(found.command));
      return EXIT.ok;
    }
    const last = (name: string) => parsed.options.get(name)?.at(-1);
    ctx = new CliContext(streams, {
      output: last('output'),
      columns: last('columns'),
      out: last('out'),
      quiet: last('quiet') === 'true',
      baseUrl: last('base-url'),
      apiKey: last('api-key'),
    });
    const input = commandInput(found.command, parsed);
    await found.command.run(ctx, input);
    return EXIT.ok;
  } catch (e) {
    const { code, message } = describeError(e);
    ctx.error(message);
    return code;
  }
}

/** `. Did you mean x?` when `word` looks like a typo of one of `names`. */
function hint(word: string, names: readonly string[]): string {
  const near = closest(word, names);
  return near === undefined ? '' : `. Did you mean ${near}?`;
}

function rawApiKey(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg.startsWith('--api-key=')) return arg.slice('--api-key='.length);
    if (arg === '--api-key') return argv[i + 1];
  }
  return undefined;
}
