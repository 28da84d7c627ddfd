import { fullRangeOptionGroup, paginationOptionGroup } from '../core/call-options.js';
import type { ClientOptions } from '../core/client-options.js';
import type { OperationSpec, ParamSpec } from '../core/operation.js';
import { kebabCase } from './argv.js';
import { type CommandDef, flagOption, type OptionDef } from './command.js';
import type { ClientFamily } from './families.js';
import { groupFlags, groupFlagValues } from './group-flags.js';
import { parseParamValue, typeLabel } from './param-values.js';
import type { Progress } from './progress.js';
import { UsageError } from './usage-error.js';

function paramOption(p: ParamSpec): OptionDef {
  return {
    name: kebabCase(p.name),
    type: p.type.kind === 'boolean' ? 'true|false' : typeLabel(p.type),
    ...(p.type.kind === 'boolean' && { flag: true }),
    ...(p.default !== undefined && { default: String(p.default) }),
    doc: p.doc,
  };
}

/** The commands of one client family: one per declared operation, plus its extra methods. */
export function familyCommands(family: ClientFamily): CommandDef[] {
  const commands = Object.entries(family.operations).map(([method, op]) =>
    operationCommand(family, method, op),
  );
  const bars = family.operations.getAggregateBars;
  if (bars && family.extras.includes('getFullRangeAggregateBars')) {
    commands.push(
      operationCommand(family, 'getFullRangeAggregateBars', bars, {
        summary: 'Every bar of a range as one list, fetched in chunks (timespan defaults to minute).',
        exclude: ['limit'],
        fullRangeImplied: true,
      }),
    );
  }
  if (family.extras.includes('getCurrentPrice') && family.operations.getLastTrade) {
    const last = family.operations.getLastTrade;
    commands.push(
      operationCommand(
        family,
        'getCurrentPrice',
        { ...last, params: last.params.filter((p) => p.required), paging: 'none' },
        { summary: 'The price of the last trade, as a number.' },
      ),
    );
  }
  return commands;
}

interface Variant {
  summary?: string;
  exclude?: readonly string[];
  /** The method fetches the full range itself (no --full-range option). */
  fullRangeImplied?: boolean;
}

function operationCommand(
  family: ClientFamily,
  method: string,
  op: OperationSpec,
  variant: Variant = {},
): CommandDef {
  const required = op.params.filter((p) => p.required);
  const optional = op.params.filter((p) => !p.required && !variant.exclude?.includes(p.name));
  const options: OptionDef[] = optional.map(paramOption);
  if (variant.fullRangeImplied) {
    options.push(...groupFlags(fullRangeOptionGroup).filter((o) => o.name !== 'full-range'));
    const ts = options.find((o) => o.name === 'timespan');
    if (ts) options[options.indexOf(ts)] = { ...ts, default: 'minute' };
  } else {
    if (op.paging === 'next_url') options.push(...groupFlags(paginationOptionGroup));
    if (op.fullRange) options.push(...groupFlags(fullRangeOptionGroup));
  }
  return {
    path: `${family.name} ${kebabCase(method)}`,
    summary: variant.summary ?? op.doc,
    args: required.map((p) => ({ name: kebabCase(p.name), type: typeLabel(p.type), doc: p.doc })),
    options,
    notes: `Calls ${family.name}.${method}() of the async client (${op.path}).`,
    async run(ctx, input) {
      const positional = required.map((p, i) =>
        parseParamValue(p, input.args[i] as string, `<${kebabCase(p.name)}>`),
      );
      const callOptions: Record<string, unknown> = {};
      for (const p of optional) {
        const raw = input.options.get(kebabCase(p.name));
        if (raw !== undefined) callOptions[p.name] = parseParamValue(p, raw, `--${kebabCase(p.name)}`);
      }
      let progress: Progress | undefined;
      const fullRange =
        variant.fullRangeImplied === true || (op.fullRange === true && flagOption(input, 'full-range'));
      if (op.fullRange === true && !fullRange && flagOption(input, 'columnar')) {
        throw new UsageError('Invalid --columnar: columns hold a full range; add --full-range');
      }
      if (fullRange) {
        Object.assign(callOptions, groupFlagValues(fullRangeOptionGroup, input));
        progress = ctx.progress(`${String(positional[0])} bars`);
        callOptions.onProgress = progress.fullRange.bind(progress);
        // Chunk warnings (an empty chunk, a retry) are notes, not results.
        callOptions.info = false;
      }
      const allPages = op.paging === 'next_url' && !fullRange && flagOption(input, 'all-pages');
      if (allPages) {
        Object.assign(callOptions, groupFlagValues(paginationOptionGroup, input));
        progress = ctx.progress(`${family.name} ${kebabCase(method)}`);
        callOptions.onPage = progress.pages.bind(progress);
      }
      const clientOptions: ClientOptions = {
        ...(ctx.connection.baseUrl !== undefined && { baseUrl: ctx.connection.baseUrl }),
        logger: (line) => ctx.note(line),
      };
      const client = family.create(ctx.connection.apiKey, clientOptions);
      try {
        const fn = (client as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method];
        if (typeof fn !== 'function') throw new Error(`${family.name} client has no method ${method}`);
        const result = await fn.call(client, ...positional, callOptions);
        progress?.done();
        await ctx.print(result, family.timeZone);
      } finally {
        progress?.done();
        await (client as unknown as { close(): Promise<void> }).close();
      }
    },
  };
}
