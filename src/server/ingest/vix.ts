import { IngestError } from './ingest-error.js';
import { eachLine } from './lines.js';
import { sessionStartParser } from './local-time.js';
import { indexTicker } from './reference.js';
import type { RowSink } from './staging.js';

const HEADER = 'DATE,OPEN,HIGH,LOW,CLOSE';

/**
 * The Cboe VIX daily history (`DATE,OPEN,HIGH,LOW,CLOSE`, ISO dates, index points) as `I:VIX` daily
 * bars stamped at midnight of the session date in `tz` (New York). An index has no volume: v = 0.
 */
export function parseVixCsv(file: string, bytes: Uint8Array, sink: RowSink, tz: string): void {
  const text = new TextDecoder().decode(bytes);
  const ticker = 'I:VIX';
  sink.ticker(indexTicker(ticker));
  const session = sessionStartParser(tz);
  let sawHeader = false;
  eachLine(text, (line, n) => {
    const where = { file, line: n };
    if (n === 1) {
      if (line.trim().toUpperCase() !== HEADER) {
        throw new IngestError(where, `expected the header ${HEADER}, found ${JSON.stringify(line)}`);
      }
      sawHeader = true;
      return;
    }
    const f = line.split(',');
    if (f.length !== 5) throw new IngestError(where, `expected 5 columns, found ${f.length}`);
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(f[0] as string);
    if (!m) throw new IngestError(where, `DATE is not YYYY-MM-DD: ${JSON.stringify(f[0])}`);
    const values = f.slice(1).map(Number);
    if (f.slice(1).some((s) => s === '') || values.some((v) => !Number.isFinite(v))) {
      throw new IngestError(where, 'OPEN, HIGH, LOW and CLOSE must be numbers');
    }
    const [o, h, l, c] = values as [number, number, number, number];
    const t = session({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) });
    sink.bar({ ticker, resolution: 'day', t, o, h, l, c, v: 0, vw: null, n: null });
  });
  if (!sawHeader) throw new IngestError({ file }, 'the file is empty');
}
