import { InvalidParameterError } from '../core/errors.js';

/** The service's stream clusters: one WebSocket path each (`wss://socket.massive.com/stocks`). */
export const STREAM_MARKETS = ['stocks', 'options', 'forex', 'crypto', 'indices', 'futures'] as const;
export type StreamMarket = (typeof STREAM_MARKETS)[number];

/** The channel prefixes of each market (`T.AAPL` subscribes to AAPL's trades). */
export const STREAM_CHANNELS: Readonly<Record<StreamMarket, readonly string[]>> = {
  stocks: ['T', 'Q', 'A', 'AM', 'LULD', 'NOI', 'FMV'],
  options: ['T', 'Q', 'A', 'AM', 'FMV'],
  forex: ['C', 'CA', 'CAS', 'FMV'],
  crypto: ['XT', 'XQ', 'XA', 'XAS', 'XL2', 'FMV'],
  indices: ['V', 'A', 'AM'],
  futures: ['T', 'Q', 'AM'],
};

/** A parsed channel: its prefix and its ticker (`*` for every ticker). */
export interface Channel {
  prefix: string;
  ticker: string;
}

/** Splits `T.AAPL` into prefix and ticker; undefined when it is not `<prefix>.<ticker>`. */
export function splitChannel(channel: string): Channel | undefined {
  const dot = channel.indexOf('.');
  if (dot <= 0 || dot === channel.length - 1) return undefined;
  const ticker = channel.slice(dot + 1);
  if (/[\s,]/.test(ticker)) return undefined;
  return { prefix: channel.slice(0, dot), ticker };
}

/**
 * Validates channels for `market` (each `<prefix>.<ticker>` or `<prefix>.*`), flattening arrays and
 * comma-separated lists.
 *
 * @throws InvalidParameterError naming the first bad channel and the prefixes the market has.
 */
export function checkChannels(
  market: StreamMarket,
  channels: readonly (string | readonly string[])[],
): string[] {
  const out: string[] = [];
  for (const item of channels.flat()) {
    if (typeof item !== 'string') {
      throw new InvalidParameterError('channels', item, 'expected strings such as "T.AAPL" or "AM.*"');
    }
    for (const raw of item.split(',')) {
      const channel = raw.trim();
      const parsed = splitChannel(channel);
      if (!parsed || !STREAM_CHANNELS[market].includes(parsed.prefix)) {
        throw new InvalidParameterError(
          'channels',
          channel,
          `expected <channel>.<ticker> or <channel>.* with a ${market} channel: ${STREAM_CHANNELS[market].join(', ')}`,
        );
      }
      out.push(channel);
    }
  }
  return out;
}
