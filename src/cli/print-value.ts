import type { CliContext } from './context.js';

/**
 * Prints a helper's result: a plain string as one line in a table (so `$(mdq symbols build ...)`
 * reads naturally), anything else in the chosen format.
 */
export function printValue(ctx: CliContext, value: unknown, timeZone = 'UTC'): void {
  if (typeof value === 'string' && ctx.output !== 'json') {
    ctx.out(
      ctx.output === 'csv'
        ? `value\n${value}\n`
        : ctx.output === 'ndjson'
          ? `${JSON.stringify(value)}\n`
          : `${value}\n`,
    );
    return;
  }
  ctx.print(value, timeZone);
}
