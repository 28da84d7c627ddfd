import type { OptionGroup, OptionSpec } from '../core/option-group.js';
import { kebabCase } from './argv.js';
import { type CommandInput, flagOption, intOption, type OptionDef } from './command.js';

/** The command-line flags of an option group: its options declared `cli`, as `--kebab-case` options. */
export function groupFlags(group: OptionGroup): OptionDef[] {
  return group.options.filter((spec) => spec.cli).map(flagOf);
}

function flagOf(spec: OptionSpec): OptionDef {
  const type = spec.type.kind === 'int' ? `int ≥ ${spec.type.min}` : spec.type.kind;
  return {
    name: kebabCase(spec.name),
    type: spec.type.kind === 'boolean' ? 'flag' : type,
    ...(spec.type.kind === 'boolean' && { flag: true }),
    ...(spec.default !== undefined && { default: String(spec.default) }),
    doc: spec.doc,
  };
}

/**
 * The values of a group's flags given on the command line, by option key (flags not given are left out, so
 * the client's defaults apply). A bad value is a usage error naming the flag.
 */
export function groupFlagValues(group: OptionGroup, input: CommandInput): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const spec of group.options) {
    const flag = kebabCase(spec.name);
    if (!spec.cli || !input.options.has(flag)) continue;
    if (spec.type.kind === 'boolean') out[spec.name] = flagOption(input, flag);
    else if (spec.type.kind === 'int') out[spec.name] = intOption(input, flag, 0, spec.type.min);
  }
  return out;
}
