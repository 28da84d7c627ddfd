import { CHUNKED_TIMESPANS, splitDateRange } from '../../dates/index.js';
import { NEW_YORK } from '../../dates/time-zone.js';
import { formatTime } from '../../table/time-format.js';
import { type CommandDef, flagOption } from '../command.js';
import { printValue } from '../print-value.js';

/** `mdq dates split`. */
export const datesCommands: readonly CommandDef[] = [
  {
    path: 'dates split',
    summary: 'Split a date range into the chunks a full-range fetch requests, oldest first.',
    args: [
      { name: 'from', type: 'YYYY-MM-DD|unix ms', doc: 'Start of the range.' },
      { name: 'to', type: 'YYYY-MM-DD|unix ms', doc: 'End of the range (inclusive).' },
    ],
    options: [
      {
        name: 'timespan',
        type: CHUNKED_TIMESPANS.join('|'),
        default: 'minute',
        doc: 'Bar size: sets the chunk length.',
      },
      { name: 'high-volatility', type: 'flag', flag: true, default: 'false', doc: 'Smaller chunks.' },
      { name: 'time-zone', type: 'IANA zone', default: NEW_YORK, doc: 'Zone whose midnights bound days.' },
      { name: 'reverse', type: 'flag', flag: true, default: 'false', doc: 'Newest chunk first.' },
    ],
    async run(ctx, input) {
      const bound = (s: string) => (/^\d+$/.test(s) ? Number(s) : s);
      const timeZone = input.options.get('time-zone') ?? NEW_YORK;
      const chunks = splitDateRange(
        bound(input.args[0] as string),
        bound(input.args[1] as string),
        input.options.get('timespan') ?? 'minute',
        {
          highVolatility: flagOption(input, 'high-volatility'),
          reverse: flagOption(input, 'reverse'),
          timeZone,
        },
      );
      await printValue(
        ctx,
        chunks.map(([startMs, endMs]) =>
          ctx.output === 'table'
            ? { start: formatTime(startMs, timeZone), end: formatTime(endMs, timeZone), startMs, endMs }
            : { startMs, endMs, start: new Date(startMs).toISOString(), end: new Date(endMs).toISOString() },
        ),
        timeZone,
      );
    },
  },
];
