import {
  buildOptionSymbol,
  convertOptionSymbolFormats,
  detectOptionSymbolFormats,
  OPTION_SYMBOL_FORMATS,
  type OptionSymbolFormatName,
  parseOptionSymbol,
} from '../../symbols/index.js';
import { type CommandDef, flagOption, type OptionDef } from '../command.js';
import { printValue } from '../print-value.js';
import { UsageError } from '../usage-error.js';

const FORMATS = `${OPTION_SYMBOL_FORMATS.join('|')} (aliases native, broker_1..broker_5)`;

const formatOption = (doc: string): OptionDef => ({ name: 'format', type: FORMATS, default: 'polygon', doc });
const prefixOption: OptionDef = {
  name: 'prefix-o',
  type: 'flag',
  flag: true,
  default: 'false',
  doc: 'Write the O: prefix (polygon format only).',
};

const format = (v: string | undefined) => (v ?? 'polygon') as OptionSymbolFormatName;

/** `mdq symbols build|parse|convert|detect`. */
export const symbolsCommands: readonly CommandDef[] = [
  {
    path: 'symbols build',
    summary: 'Build an option symbol from its parts.',
    args: [
      { name: 'underlying', type: 'string', doc: 'Root symbol, e.g. AMD or BRK.B.' },
      { name: 'expiry', type: 'YYYY-MM-DD|YYMMDD', doc: 'Expiration day.' },
      { name: 'call-or-put', type: 'call|put|c|p', doc: 'Contract type.' },
      { name: 'strike', type: 'number', doc: 'Strike price, at most three decimals.' },
    ],
    options: [formatOption('Format to write.'), prefixOption],
    async run(ctx, input) {
      const [underlying, expiry, cp, strike] = input.args as [string, string, string, string];
      const prefixO = flagOption(input, 'prefix-o');
      await printValue(
        ctx,
        buildOptionSymbol(underlying, expiry, cp as 'call', strike, {
          format: format(input.options.get('format')),
          ...(prefixO && { prefixO }),
        }),
      );
    },
  },
  {
    path: 'symbols parse',
    summary: 'Parse an option symbol into underlying, expiry, type and strike.',
    args: [{ name: 'symbol', type: 'string', doc: 'The option symbol.' }],
    options: [formatOption('Format of the symbol.')],
    async run(ctx, input) {
      await printValue(
        ctx,
        parseOptionSymbol(input.args[0] as string, {
          format: format(input.options.get('format')),
          outputFormat: 'dict',
          expiryFormat: 'string',
        }),
      );
    },
  },
  {
    path: 'symbols convert',
    summary: 'Convert an option symbol from one format to another.',
    args: [
      { name: 'symbol', type: 'string', doc: 'The option symbol.' },
      {
        name: 'from-format',
        type: 'format',
        doc: 'Its format (or --from; with one format given: the target).',
        optional: true,
      },
      { name: 'to-format', type: 'format', doc: 'The format to write (or --to).', optional: true },
    ],
    options: [
      { name: 'from', type: FORMATS, default: 'polygon', doc: 'Format of the symbol.' },
      { name: 'to', type: FORMATS, doc: 'Format to write.' },
      prefixOption,
    ],
    async run(ctx, input) {
      const [symbol, ...formats] = input.args as [string, ...string[]];
      // `convert SYM tda` reads as "to tda"; `convert SYM polygon tda` as "from polygon to tda".
      const positionalTo = formats.length === 2 ? formats[1] : formats[0];
      const positionalFrom = formats.length === 2 ? formats[0] : undefined;
      const from = input.options.get('from') ?? positionalFrom ?? 'polygon';
      const to = input.options.get('to') ?? positionalTo;
      if (to === undefined) {
        throw new UsageError('Missing the format to write: mdq symbols convert <symbol> --to <format>');
      }
      const prefixO = flagOption(input, 'prefix-o');
      await printValue(
        ctx,
        convertOptionSymbolFormats(symbol, format(from), format(to), { ...(prefixO && { prefixO }) }),
      );
    },
  },
  {
    path: 'symbols detect',
    summary: 'The formats an option symbol is valid in (empty when none).',
    args: [{ name: 'symbol', type: 'string', doc: 'The option symbol.' }],
    options: [],
    async run(ctx, input) {
      const symbol = input.args[0] as string;
      const formats = detectOptionSymbolFormats(symbol);
      if (ctx.output === 'json') await printValue(ctx, formats);
      else
        await printValue(
          ctx,
          formats.map((f) => ({ symbol, format: f })),
        );
    },
  },
];
