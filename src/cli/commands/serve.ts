import { type CommandDef, intOption } from '../command.js';
import { UsageError } from '../usage-error.js';

/** `mdq serve`: the local server, until interrupted. */
export const serveCommand: CommandDef = {
  path: 'serve',
  summary: "Serve the service's REST paths from a DuckDB store until interrupted (Ctrl-C).",
  args: [],
  options: [
    {
      name: 'db',
      type: 'path',
      default: '$MDQ_DB, else ~/.local/share/mdq/mdq.duckdb',
      doc: 'Database file.',
    },
    {
      name: 'host',
      type: 'host',
      default: '127.0.0.1',
      doc: 'Interface to bind (non-loopback needs --api-key).',
    },
    { name: 'port', type: 'int ≥ 0', default: '8765', doc: 'TCP port; 0 picks a free one.' },
    {
      name: 'api-key',
      type: 'string',
      repeatable: true,
      doc: 'A key the server accepts (repeatable); without any, loopback needs no key (any is accepted).',
    },
    {
      name: 'now',
      type: 'unix ms|ISO time|YYYY-MM-DD',
      default: 'latest data time per asset class',
      doc: '"Now" of snapshots, last trades and quotes, for every asset class (default: each class\'s latest tick or intraday bar).',
    },
    {
      name: 'replay-from',
      type: 'unix ms|ISO time|YYYY-MM-DD',
      default: "the market's latest day of ticks",
      doc: 'Where the WebSocket replay of stored ticks starts.',
    },
    {
      name: 'replay-speed',
      type: 'number|max',
      default: '1',
      doc: 'Replay speed: a multiple of real time, or max (as fast as the client reads).',
    },
  ],
  async run(ctx, input) {
    const db = input.options.get('db');
    const now = input.options.get('now');
    const replayFrom = input.options.get('replay-from');
    const replaySpeed = input.options.get('replay-speed');
    if (replaySpeed !== undefined && replaySpeed !== 'max' && !(Number(replaySpeed) > 0)) {
      throw new UsageError(
        `Invalid --replay-speed: ${JSON.stringify(replaySpeed)}; expected a positive number or max`,
      );
    }
    // On a thread of its own, whose heap is sized for large answers (`YOUNG_GENERATION_MB`).
    const { startServerThread } = await import('../../server/thread.js');
    const server = await startServerThread({
      ...(db !== undefined && { db }),
      host: input.options.get('host') ?? '127.0.0.1',
      port: intOption(input, 'port', 8765, 0),
      apiKeys: [...(input.all.get('api-key') ?? [])],
      ...(now !== undefined && { now: /^\d+$/.test(now) ? Number(now) : now }),
      ...(replayFrom !== undefined && {
        replayFrom: /^\d+$/.test(replayFrom) ? Number(replayFrom) : replayFrom,
      }),
      ...(replaySpeed !== undefined && { replaySpeed: replaySpeed === 'max' ? 'max' : Number(replaySpeed) }),
      log: (line) => ctx.error(line),
    });
    const stopped = await new Promise<boolean>((resolve) => {
      const stop = () => resolve(true);
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      void server.ended.then(() => resolve(false));
    });
    // The thread ends on its own only when the server failed; the reason is already in the log.
    if (!stopped) throw new Error('the server stopped unexpectedly');
    ctx.note('stopping');
    await server.close();
  },
};
