import type { CommandDef } from './command.js';
import { cacheCommands } from './commands/cache.js';
import { chartCommand } from './commands/chart.js';
import { datesCommands } from './commands/dates.js';
import { demoCommand } from './commands/demo.js';
import { ingestCommands } from './commands/ingest.js';
import { serveCommand } from './commands/serve.js';
import { streamCommand } from './commands/stream.js';
import { symbolsCommands } from './commands/symbols.js';
import { CLIENT_FAMILIES } from './families.js';
import { familyCommands } from './operation-command.js';

/** A word of the top level: a group of commands (`stocks`) or a command itself (`chart`). */
export interface TopLevel {
  readonly name: string;
  readonly summary: string;
  readonly commands: readonly CommandDef[];
}

/** Every command of the CLI, grouped by their first word. */
export function topLevel(): TopLevel[] {
  return [
    ...CLIENT_FAMILIES.map((f) => ({ name: f.name, summary: f.summary, commands: familyCommands(f) })),
    { name: 'symbols', summary: 'Option symbols: build, parse, convert, detect', commands: symbolsCommands },
    { name: 'dates', summary: 'Date helpers: split a range into full-range chunks', commands: datesCommands },
    {
      name: 'chart',
      summary: 'Candlestick chart with volume, in the terminal or as SVG/PNG',
      commands: [chartCommand],
    },
    {
      name: 'serve',
      summary: 'Run the local server over a DuckDB or ClickHouse store',
      commands: [serveCommand],
    },
    {
      name: 'cache',
      summary: 'What the caching server (serve --upstream) stored: status, clear, refresh',
      commands: cacheCommands,
    },
    {
      name: 'stream',
      summary: 'Print the events of streamed channels (T.SPY, AM.*)',
      commands: [streamCommand],
    },
    {
      name: 'ingest',
      summary: 'Load Lean data folders, flat files or saved API responses into the store',
      commands: ingestCommands,
    },
    {
      name: 'demo',
      summary: 'A walk through mdq over a simulated market (or --data)',
      commands: [demoCommand],
    },
  ];
}
