import { once } from 'node:events';
import { stringifyJson } from '../../core/json.js';
import { NEW_YORK } from '../../dates/time-zone.js';
import { STREAM_MARKETS, type StreamMarket } from '../../stream/channels.js';
import type { StreamEvent } from '../../stream/events.js';
import { openStream } from '../../stream/index.js';
import { formatTime } from '../../table/time-format.js';
import { type CommandDef, type CommandInput, flagOption, intOption } from '../command.js';
import type { CliContext } from '../context.js';
import { UsageError } from '../usage-error.js';

/** The field that names an event's ticker, by channel family. */
const TICKER_FIELDS = ['sym', 'pair', 'p', 'T'] as const;

function tickerOf(ev: StreamEvent): [string, string] | undefined {
  for (const f of TICKER_FIELDS) {
    const v = (ev as unknown as Record<string, unknown>)[f];
    if (typeof v === 'string') return [f, v];
  }
  return undefined;
}

/** One readable line: time on the market's clock, channel, ticker, then the other fields. */
export function eventLine(ev: StreamEvent, timeZone: string): string {
  const record = ev as unknown as Record<string, unknown>;
  const ticker = tickerOf(ev);
  // Aggregates are stamped by their window's start `s` (a trade's `s` is its size).
  const windowed = typeof record.e === 'number';
  const time = windowed ? record.s : record.t;
  const ms =
    typeof time === 'bigint' ? Number(time / 1_000_000n) : typeof time === 'number' ? time : undefined;
  const rest = Object.entries(record)
    .filter(([k]) => k !== 'ev' && k !== ticker?.[0] && !(k === 't' && !windowed))
    .map(([k, v]) => `${k}=${typeof v === 'object' ? stringifyJson(v) : String(v)}`);
  return [
    ms === undefined ? '' : formatTime(ms, timeZone),
    String(record.ev).padEnd(4),
    (ticker?.[1] ?? '').padEnd(8),
    rest.join(' '),
  ].join('  ');
}

function durationOption(input: CommandInput): number | undefined {
  const raw = input.options.get('duration');
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n <= 0) {
    throw new UsageError(`Invalid --duration: ${JSON.stringify(raw)}; expected a positive number of seconds`);
  }
  return n;
}

/** `mdq stream <market> <channels...>`: prints the events of a stream until a limit, a duration or Ctrl-C. */
export const streamCommand: CommandDef = {
  path: 'stream',
  summary: 'Stream real-time events (trades, quotes, aggregates …) of channels such as T.SPY or AM.*.',
  args: [
    { name: 'market', type: STREAM_MARKETS.join('|'), doc: 'The market.' },
    {
      name: 'channels',
      type: 'channel',
      variadic: true,
      doc: '<channel>.<ticker> or <channel>.*, e.g. T.SPY Q.SPY AM.*',
    },
  ],
  options: [
    { name: 'limit', type: 'int ≥ 1', doc: 'Stop after this many events.' },
    { name: 'duration', type: 'seconds', doc: 'Stop after this long.' },
    {
      name: 'stream-url',
      type: 'ws(s) url',
      default: '$MDQ_STREAM_URL, else wss://socket.massive.com',
      doc: 'Streaming service (mdq serve: ws://127.0.0.1:8765).',
    },
    { name: 'delayed', type: 'flag', flag: true, doc: 'The delayed feed instead of the real-time one.' },
  ],
  notes:
    'Output: one line per event on a terminal, ndjson otherwise (--output json and ndjson alike). Ctrl-C ends it (exit 0).',
  async run(ctx: CliContext, input: CommandInput) {
    const market = input.args[0] as string;
    if (!(STREAM_MARKETS as readonly string[]).includes(market)) {
      throw new UsageError(
        `Invalid market: ${JSON.stringify(market)}; allowed: ${STREAM_MARKETS.join(', ')}`,
      );
    }
    const channels = input.args.slice(1);
    if (channels.length === 0) throw new UsageError('No channels: give at least one, e.g. T.SPY or AM.*');
    if (ctx.output === 'csv') throw new UsageError('Invalid --output: "csv"; stream writes table or ndjson');
    const limit = input.options.has('limit') ? intOption(input, 'limit', 1) : undefined;
    const duration = durationOption(input);
    const url = input.options.get('stream-url') ?? ctx.streams.env.MDQ_STREAM_URL;
    const stream = openStream(market as StreamMarket, ctx.connection.apiKey, {
      ...(url !== undefined && { baseUrl: url }),
      delayed: flagOption(input, 'delayed'),
      logger: (line) => ctx.note(line),
    });
    stream.subscribe(channels);
    const timeZone = market === 'forex' || market === 'crypto' ? 'UTC' : NEW_YORK;
    const stop = () => void stream.close();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    const timer = duration === undefined ? undefined : setTimeout(stop, duration * 1000);
    let n = 0;
    try {
      for await (const ev of stream) {
        const line = ctx.output === 'table' ? `${eventLine(ev, timeZone)}\n` : `${stringifyJson(ev)}\n`;
        // A reader slower than the feed holds the stream back (its buffer's 'pause' policy) instead of
        // queueing output in memory.
        if (!ctx.streams.stdout.write(ctx.redact(line))) await once(ctx.streams.stdout, 'drain');
        if (++n === limit) break;
      }
    } finally {
      clearTimeout(timer);
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      await stream.close();
    }
  },
};
