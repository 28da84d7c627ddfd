import type { CliContext } from './context.js';

/**
 * Prints a helper's result: a plain string as one line in a table (so `$(mdq symbols build ...)`
 * reads naturally), anything else in the chosen format.
 */
export async function printValue(ctx: CliContext, value: unknown, timeZone = 'UTC'): Promise<void> {
  if (typeof value === 'string' && ctx.output !== 'json' && ctx.output !== 'parquet') {
    ctx.out(
      ctx.output === 'csv'
        ? `value\n${value}\n`
        : ctx.output === 'ndjson'
          ? `${JSON.stringify(value)}\n`
          : `${value}\n`,
    );
    return;
  }
  await ctx.print(value, timeZone);
}
