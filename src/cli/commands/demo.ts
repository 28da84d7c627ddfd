import type { CommandDef } from '../command.js';

/** `mdq demo`. */
export const demoCommand: CommandDef = {
  path: 'demo',
  summary:
    'Start the local server in-process over a simulated market (no download, no key, no network) and walk through mdq.',
  args: [],
  options: [
    {
      name: 'data',
      type: 'path',
      repeatable: true,
      doc: 'Use real data: a Lean data folder (e.g. ../shared/marketdata/lean), ingested first; repeat it for several roots (--data ../shared/marketdata --data ../shared/marketdata-futures).',
    },
    {
      name: 'db',
      type: 'path',
      default: '$MDQ_DEMO_DB, else the mdq data folder',
      doc: 'Store file of the demo.',
    },
    { name: 'out-dir', type: 'path', default: '<tmp>/mdq-demo', doc: 'Folder for chart.svg and chart.png.' },
  ],
  notes: `The simulated market is deterministic: five stocks (SIMA…SIME) with a year of minute bars, trades and NBBO quotes on the last days, an option chain on SIMA, forex, crypto, the index I:SIMX and a split. None of it is real.`,
  async run(ctx, input) {
    // Loaded on demand: the other commands need neither DuckDB nor the server.
    const { runDemo } = await import('../../demo/run-demo.js');
    await runDemo(ctx, {
      data: input.all.get('data'),
      db: input.options.get('db'),
      outDir: input.options.get('out-dir'),
    });
  },
};
