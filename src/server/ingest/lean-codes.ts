/**
 * Lean's (AlgoSeek's) tick codes mapped to the service's numeric ids, as far as the two line up.
 *
 * Exchanges: Lean's one-letter codes (`Global.cs` `GetPrimaryExchange`) are the SIP participant ids,
 * which the service's `/v3/reference/exchanges` lists with its own integer ids (A → 1 NYSE American,
 * ... Z → 19 Cboe BZX; Lean's Q and T both mean Nasdaq → 12). Unknown letters map to null.
 *
 * Sale conditions: Lean writes a hexadecimal bit mask (`TradeConditionFlags.cs`); each set bit maps to
 * the service's condition id of the same meaning (`/v3/reference/conditions`). `Regular` has no
 * condition of its own (the service lists regular sales without conditions), and bits without a
 * counterpart are dropped. A trade whose mask leaves no condition gets `conditions = NULL`.
 */

const EXCHANGES: Readonly<Record<string, number>> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  I: 6,
  J: 7,
  K: 8,
  M: 9,
  N: 10,
  P: 11,
  Q: 12,
  T: 12,
  V: 15,
  W: 16,
  X: 17,
  Y: 18,
  Z: 19,
};

/** SQL mapping a column of Lean exchange letters to the service's exchange ids (NULL when unknown). */
export function exchangeSqlCase(column: string): string {
  const arms = Object.entries(EXCHANGES).map(([code, id]) => `WHEN '${code}' THEN ${id}`);
  return `(CASE upper(${column}) ${arms.join(' ')} ELSE NULL END)`;
}

/** Primary-exchange codes of map files (Q, N, P, A) → MIC. */
const MICS: Readonly<Record<string, string>> = { Q: 'XNAS', N: 'XNYS', P: 'ARCX', A: 'XASE', Z: 'BATS' };

/** The MIC of a map file's primary-exchange code, or the code itself when it has none known. */
export function primaryExchangeMic(code: string): string | null {
  if (code === '') return null;
  return MICS[code.toUpperCase()] ?? code;
}

/** [bit, service condition id], in ascending id order after mapping. */
const SALE_CONDITIONS: ReadonlyArray<readonly [number, number]> = [
  [0x2, 7], // Cash → Cash Sale
  [0x4, 20], // NextDay → Next Day
  [0x8, 29], // Seller → Seller
  [0x10, 36], // YellowFlag → Yellow Flag Regular Trade
  [0x20, 14], // IntermarketSweep → Intermarket Sweep
  [0x40, 25], // OpeningPrints → Opening Prints
  [0x80, 8], // ClosingPrints → Closing Prints
  [0x100, 28], // ReOpeningPrints → Re-Opening Prints
  [0x200, 10], // DerivativelyPriced → Derivatively Priced
  [0x400, 12], // FormT → Form T
  [0x800, 30], // Sold (late report) → Sold Last
  [0x1000, 27], // Stopped → Stopped Stock (Regular Trade)
  [0x2000, 12], // ExtendedHours → Form T (the service's extended-hours trade)
  [0x4000, 32], // OutOfSequence → Sold (Out of Sequence)
  [0x100000, 2], // AveragePrice → Average Price Trade
  [0x200000, 9], // Cross → Cross Trade
  [0x1000000, 15], // OfficialClose → Market Center Official Close
  [0x4000000, 16], // OfficialOpen → Market Center Official Open
  [0x20000000, 41], // TradeThroughExempt → Trade Thru Exempt
  [0x80000000, 37], // OddLot → Odd Lot Trade
];

const conditionCache = new Map<string, number[] | null>();

/**
 * The service's condition ids for a Lean hexadecimal sale-condition mask, sorted and without
 * duplicates; null when none maps; undefined when `hex` is not a hexadecimal number.
 */
export function saleConditions(hex: string): number[] | null | undefined {
  const cached = conditionCache.get(hex);
  if (cached !== undefined || conditionCache.has(hex)) return cached;
  if (!/^[0-9a-fA-F]{1,8}$/.test(hex)) return undefined;
  const mask = Number.parseInt(hex, 16);
  const ids = new Set<number>();
  for (const [bit, id] of SALE_CONDITIONS) if ((mask & bit) >>> 0 === bit) ids.add(id);
  const list = ids.size === 0 ? null : [...ids].sort((a, b) => a - b);
  conditionCache.set(hex, list);
  return list;
}
