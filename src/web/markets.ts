/** What the page needs to know of a ticker's market: its class, time zone, bars, ticks and stream. */

export type AssetClass = 'stocks' | 'options' | 'indices' | 'fx' | 'crypto' | 'futures';

/** A futures contract as the service writes them: product code, month code, one or two year digits. */
const FUTURES = /^[A-Z0-9]{1,4}[FGHJKMNQUVXZ]\d{1,2}$/;

/** The class of a ticker by its form (`O:`, `I:`, `C:`, `X:` prefixes; futures contracts; else a stock). */
export function assetClassOf(ticker: string, knownFutures: ReadonlySet<string>): AssetClass {
  if (ticker.startsWith('O:')) return 'options';
  if (ticker.startsWith('I:')) return 'indices';
  if (ticker.startsWith('C:')) return 'fx';
  if (ticker.startsWith('X:')) return 'crypto';
  if (knownFutures.has(ticker) || (FUTURES.test(ticker) && knownFutures.size === 0)) return 'futures';
  return 'stocks';
}

/** The zone times are shown in: the exchange's for US markets and futures (CME), UTC for forex and crypto. */
export function zoneOf(cls: AssetClass): { zone: string; label: string } {
  return cls === 'fx' || cls === 'crypto'
    ? { zone: 'UTC', label: 'UTC' }
    : { zone: 'America/New_York', label: 'New York time' };
}

const STREAM_MARKETS: Record<AssetClass, string> = {
  stocks: 'stocks',
  options: 'options',
  indices: 'indices',
  fx: 'forex',
  crypto: 'crypto',
  futures: 'futures',
};

/** The WebSocket market of a class (`/stocks` … `/futures`). */
export function streamMarketOf(cls: AssetClass): string {
  return STREAM_MARKETS[cls];
}

/** The stream's name of a ticker: forex and crypto pairs are written with a dash (`C:EUR-USD`). */
export function streamTicker(ticker: string, cls: AssetClass): string {
  if ((cls === 'fx' || cls === 'crypto') && !ticker.includes('-')) {
    return `${ticker.slice(0, -3)}-${ticker.slice(-3)}`;
  }
  return ticker;
}

/** The channels the stream view subscribes to by default. */
export function defaultChannels(ticker: string, cls: AssetClass): string {
  const t = streamTicker(ticker, cls);
  switch (cls) {
    case 'fx':
      return `C.${t},CA.${t}`;
    case 'crypto':
      return `XT.${t},XQ.${t},XA.${t}`;
    case 'indices':
      return `V.${t},AM.${t}`;
    default:
      return `T.${t},Q.${t},AM.${t}`;
  }
}

/** The underlying of an option chain: the ticker itself, or an option contract's root. */
export function underlyingOf(ticker: string): string {
  const m = /^O:([A-Z.]+?)\d{6}[CP]\d{8}$/.exec(ticker);
  return m ? m[1]! : ticker;
}
