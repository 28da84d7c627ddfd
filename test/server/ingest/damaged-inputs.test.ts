/**
 * Damaged inputs are refused whole, never half-ingested: copies of real Lean files from
 * `../shared/marketdata` with bytes flipped or cut off, rows with NaN, negative or out-of-range
 * values (each a clear error of its own file under `continueOnError`, never the database's message),
 * and paths that are not files or are gone (passed over with the reason, not waited on).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { unzipSync, zipSync } from 'fflate';
import { ingestFlatFiles } from '../../../src/server/ingest/flatfiles.js';
import { ingestLean } from '../../../src/server/ingest/lean.js';
import type { DuckDbStore } from '../../../src/server/store/duckdb-store.js';
import { hasShared, leanDir } from '../../support/shared.js';
import { n, storeAndLeanRootEachTest } from './helpers.js';

const MINUTE_ZIP = 'equity/usa/minute/spy/20131007_trade.zip';
const TICK_ZIP = 'equity/usa/tick/ibm/20131011_trade.zip';
/** What the database says in its own words; an ingest error must never read like this. */
const RAW_DATABASE =
  /Conversion Error|Binder Error|Invalid Input Error|INTERNAL|Out of Range Error|Catalog Error/;

describe('damaged inputs', () => {
  let store: DuckDbStore;
  let root: string;
  storeAndLeanRootEachTest('mdq-damaged-', (s, r) => {
    store = s;
    root = r;
  });

  /** Writes `bytes` at `path` under the temporary Lean root. */
  const put = (path: string, bytes: Uint8Array | string) => {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, bytes);
    return full;
  };
  const count = async (table: string) =>
    n((await store.all<{ n: bigint }>(`SELECT count(*) AS n FROM ${table}`))[0]?.n);
  /**
   * A real entry's name as it is in the folder of `ticker`: Lean names an entry for its file's ticker and
   * day, and ingest refuses one named for another, so each copy under a folder of its own is renamed.
   */
  const entryOf = (name: string, ticker: string) => name.replace(/^(\d{8})_[^_]+_/, `$1_${ticker}_`);
  /** A real zip's bytes with its entry named for `ticker`, as long as the real name: no other byte moves. */
  const renamed = (bytes: Buffer, ticker: string) => {
    const [name] = Object.keys(unzipSync(bytes)) as [string];
    const to = Buffer.from(entryOf(name, ticker));
    assert.equal(to.length, Buffer.byteLength(name), 'a name as long as the real one');
    const copy = Buffer.from(bytes);
    for (let at = copy.indexOf(name); at >= 0; at = copy.indexOf(name, at + 1)) to.copy(copy, at);
    return copy;
  };
  /** A real Lean zip with its one entry's rows edited, zipped again, the entry named for `ticker`. */
  const edited = (path: string, ticker: string, edit: (rows: string[][]) => void) => {
    const [[real, data]] = Object.entries(unzipSync(readFileSync(join(leanDir, path)))) as [
      [string, Uint8Array],
    ];
    const name = entryOf(real, ticker);
    const rows = Buffer.from(data)
      .toString('utf8')
      .split('\n')
      .map((line) => line.split(','));
    edit(rows);
    return zipSync({ [name]: Buffer.from(rows.map((r) => r.join(',')).join('\n')) });
  };

  it('a minute zip with a flipped byte or cut short is refused whole, whichever byte it is', async (t) => {
    if (!hasShared(t, leanDir)) return;
    const original = readFileSync(join(leanDir, MINUTE_ZIP));
    // Bytes of the deflate stream: many of them still inflate, to other rows (1555 did, to 828 lines
    // with wrong values, before the CRC-32 and size were checked).
    const offsets = Array.from({ length: 30 }, (_, k) => 1555 + k * 97);
    for (const [k, at] of offsets.entries()) {
      const folder = `f${String(k).padStart(2, '0')}`;
      const copy = renamed(original, folder);
      copy[at] = (copy[at] as number) ^ 0x55;
      put(`equity/usa/minute/${folder}/20131007_trade.zip`, copy);
    }
    const cut = renamed(original, 'cut');
    put('equity/usa/minute/cut/20131007_trade.zip', cut.subarray(0, cut.length >> 1));
    // The declared size of the entry (central directory) no longer matching what it inflates to, in
    // the same rows zipped again without zip64 fields (Lean's archives have them).
    const [[name, data]] = Object.entries(unzipSync(original)) as [[string, Uint8Array]];
    const resized = Buffer.from(zipSync({ [entryOf(name, 'size')]: data }));
    const central = resized.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    resized.writeUInt32LE(resized.readUInt32LE(central + 24) - 1, central + 24);
    put('equity/usa/minute/size/20131007_trade.zip', resized);

    const summary = await ingestLean(store, root, { continueOnError: true });
    assert.equal(summary.filesIngested, 0, 'no damaged copy is ingested');
    assert.equal(summary.filesFailed, offsets.length + 2);
    assert.equal(await count('bars'), 0);
    assert.equal(await count('ingested_files'), 0);
    const message = (ticker: string) =>
      summary.errors.find((e) => e.file.includes(`/${ticker}/`))?.message ?? '';
    for (const e of summary.errors.filter((e) => /\/f\d\d\//.test(e.file))) {
      assert.match(e.message, /the zip entry is damaged/, e.file);
    }
    assert.match(message('f00'), /!20131007_f00_minute_trade\.csv: the zip entry is damaged: its CRC-32 is/);
    assert.match(message('cut'), /not a readable zip archive/);
    assert.match(
      message('size'),
      /the zip entry is damaged: it inflates to more than the \d+ bytes the archive declares/,
    );
  });

  it('a zip entry in UTF-16 or with bytes UTF-8 does not allow is named as such, at its line', async (t) => {
    if (!hasShared(t, leanDir)) return;
    const recoded = (path: string, ticker: string, encode: (text: string) => Buffer) => {
      const [[name, data]] = Object.entries(unzipSync(readFileSync(join(leanDir, path)))) as [
        [string, Uint8Array],
      ];
      return zipSync({ [entryOf(name, ticker)]: encode(Buffer.from(data).toString('utf8')) });
    };
    const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    // A Latin-1 byte (0xE9) on the third line.
    const latin1 = (text: string) => {
      const lines = text.split('\n');
      lines[2] = `${lines[2]}\u00e9`;
      return Buffer.from(lines.join('\n'), 'latin1');
    };
    put('equity/usa/minute/u16/20131007_trade.zip', recoded(MINUTE_ZIP, 'u16', utf16));
    put('equity/usa/minute/lat/20131007_trade.zip', recoded(MINUTE_ZIP, 'lat', latin1));
    put('equity/usa/tick/u16/20131011_trade.zip', recoded(TICK_ZIP, 'u16', utf16));
    const before = await count('bars');
    const summary = await ingestLean(store, root, { continueOnError: true });
    assert.equal(summary.filesIngested, 0);
    assert.equal(await count('bars'), before);
    assert.equal(await count('trades'), 0);
    const message = (dir: string) => summary.errors.find((e) => e.file.includes(dir))?.message ?? '';
    assert.match(message('minute/u16/'), /csv:1: is not UTF-8 text/);
    assert.match(message('minute/lat/'), /csv:3: is not UTF-8 text/);
    assert.match(message('tick/u16/'), /csv:1: is not UTF-8 text/);
    for (const e of summary.errors) assert.doesNotMatch(e.message, RAW_DATABASE);
  });

  it('a tick zip with a flipped byte is refused whole', async (t) => {
    if (!hasShared(t, leanDir)) return;
    const original = readFileSync(join(leanDir, TICK_ZIP));
    const offsets = [0.3, 0.5, 0.7, 0.9].map((f) => Math.floor(original.length * f));
    for (const [k, at] of offsets.entries()) {
      const copy = renamed(original, `f0${k}`);
      copy[at] = (copy[at] as number) ^ 0x55;
      put(`equity/usa/tick/f0${k}/20131011_trade.zip`, copy);
    }
    const summary = await ingestLean(store, root, { continueOnError: true });
    assert.equal(summary.filesIngested, 0);
    assert.equal(summary.filesFailed, offsets.length);
    assert.equal(await count('trades'), 0);
    for (const e of summary.errors) assert.match(e.message, /the zip entry is damaged/);
  });

  it('NaN, negative and out-of-range values are each a clear error of their own file', async (t) => {
    if (!hasShared(t, leanDir)) return;
    const setField = (row: number, field: number, value: string) => (rows: string[][]) => {
      (rows[row] as string[])[field] = value;
    };
    put('equity/usa/minute/neg/20131007_trade.zip', edited(MINUTE_ZIP, 'neg', setField(3, 1, '-1000')));
    put('equity/usa/minute/nan/20131007_trade.zip', edited(MINUTE_ZIP, 'nan', setField(3, 4, 'NaN')));
    put('equity/usa/minute/big/20131007_trade.zip', edited(MINUTE_ZIP, 'big', setField(3, 5, '1e400')));
    put('equity/usa/tick/nan/20131011_trade.zip', edited(TICK_ZIP, 'nan', setField(3, 1, 'nan')));
    put('equity/usa/tick/inf/20131011_trade.zip', edited(TICK_ZIP, 'inf', setField(3, 2, 'inf')));
    put('equity/usa/tick/neg/20131011_trade.zip', edited(TICK_ZIP, 'neg', setField(3, 1, '-5')));
    put('equity/usa/tick/late/20131011_trade.zip', edited(TICK_ZIP, 'late', setField(3, 0, '1e300')));
    put('equity/usa/minute/spy/20131007_trade.zip', readFileSync(join(leanDir, MINUTE_ZIP)));

    const summary = await ingestLean(store, root, { continueOnError: true });
    assert.equal(summary.filesIngested, 1, 'the intact file is ingested');
    assert.equal(summary.filesFailed, 7);
    const expected: [string, RegExp][] = [
      ['minute/neg', /csv:4: open \(column 2\) is negative: "-1000"$/],
      ['minute/nan', /csv:4: close \(column 5\) is not a number: "NaN"$/],
      ['minute/big', /csv:4: volume \(column 6\) is not a number: "1e400"$/],
      ['tick/nan', /csv:4: price is not a finite number ≥ 0$/],
      ['tick/inf', /csv:4: size is not a finite number ≥ 0$/],
      ['tick/neg', /csv:4: price is not a finite number ≥ 0$/],
      ['tick/late', /csv:4: time is not milliseconds of the day \(0 to 25 hours\)$/],
    ];
    for (const [where, pattern] of expected) {
      const error = summary.errors.find((e) => e.file.includes(`/${where}/`));
      assert.ok(error, `no error for ${where}`);
      assert.match(error.message, pattern);
      assert.doesNotMatch(error.message, RAW_DATABASE);
    }
    assert.equal(await count('trades'), 0);
    assert.equal(await count('ingested_files'), 1);
  });

  it('flat files: NaN, negative, overflowing and out-of-range values are clear per-file errors', async () => {
    const header = 'ticker,price,size,participant_timestamp\n';
    const ts = '1600000000000000000';
    const files = {
      nan: `${header}X:BTCUSD,NaN,1,${ts}\n`,
      negative: `${header}X:BTCUSD,10,-1,${ts}\n`,
      infinite: `${header}X:BTCUSD,1e999,1,${ts}\n`,
      overflow: `${header}X:BTCUSD,10,1,99999999999999999999999\n`,
      future: `ticker,volume,open,close,high,low,window_start,transactions\nAAA,1,2,2,2,2,9223372036854775807,1\n`,
      good: `${header}X:BTCUSD,10,1,${ts}\n`,
    };
    const paths = Object.entries(files).map(([name, text]) => put(`${name}_trades.csv`, text));
    const summary = await ingestFlatFiles(store, paths, { continueOnError: true });
    assert.equal(summary.filesIngested, 1);
    assert.equal(summary.filesFailed, 5);
    const messages = summary.errors.map((e) => e.message).sort();
    const expected = [
      /future_trades\.csv:2: window_start is not a time in ns from 1970 to 2200$/,
      /infinite_trades\.csv:2: price is not a finite number ≥ 0$/,
      /nan_trades\.csv:2: price is not a finite number ≥ 0$/,
      /negative_trades\.csv:2: size is not a finite number ≥ 0$/,
      /overflow_trades\.csv:2: participant_timestamp is not an integer from -2\^63 to 2\^63 - 1: "99999999999999999999999"$/,
    ];
    expected.forEach((pattern, i) => {
      assert.match(messages[i] as string, pattern);
      assert.doesNotMatch(messages[i] as string, RAW_DATABASE);
    });
    assert.equal(await count('trades'), 1);
  });

  it('flat files: text not in UTF-8 (rows or a UTF-16 header), a row with extra columns and a gzip cut short are named as such', async () => {
    const header = 'ticker,price,size,participant_timestamp\n';
    const row = 'X:BTCUSD,10,1,1600000000000000000\n';
    // Rows that differ, so that the compressed file is larger than the part read for its header.
    const rows = Array.from(
      { length: 60_000 },
      (_, i) => `X:BTCUSD,${10 + i / 997},${(i % 89) + 1},${1e18 + i * 7919}\n`,
    );
    const whole = gzipSync(Buffer.from(header + rows.join('')));
    assert.ok(whole.length > 2 * 65_536, `${whole.length} bytes`);
    const paths = [
      put(
        'latin1_trades.csv',
        Buffer.concat([Buffer.from(header), Buffer.from([0xff, 0xfe]), Buffer.from(row)]),
      ),
      put('wide_trades.csv', `${header}${row}X:BTCUSD,10,1,1600000000000000000,7,8\n`),
      put('short_trades.csv.gz', whole.subarray(0, 20)),
      put('cut_trades.csv.gz', whole.subarray(0, Math.floor(whole.length / 2))),
      put(
        'utf16_trades.csv',
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(header + row, 'utf16le')]),
      ),
      put('good_trades.csv', header + row),
    ];
    const summary = await ingestFlatFiles(store, paths, { continueOnError: true });
    assert.equal(summary.filesIngested, 1);
    const messages = summary.errors.map((e) => e.message);
    const expected = [
      /latin1_trades\.csv:2: is not UTF-8 text$/,
      /wide_trades\.csv:3: expected 4 columns, found more$/,
      /short_trades\.csv\.gz: is cut short: its gzip stream ends early$/,
      /cut_trades\.csv\.gz: is cut short: its gzip stream ends early$/,
      /utf16_trades\.csv:1: is not UTF-8 text$/,
    ];
    assert.equal(messages.length, expected.length, messages.join('\n'));
    expected.forEach((pattern, i) => {
      assert.match(messages[i] as string, pattern);
      assert.doesNotMatch(messages[i] as string, RAW_DATABASE);
    });
    assert.equal(await count('trades'), 1);
  });

  it('a FIFO, a dangling link and a file removed during the run are passed over with the reason', async (t) => {
    if (!hasShared(t, leanDir)) return;
    put(MINUTE_ZIP, readFileSync(join(leanDir, MINUTE_ZIP)));
    const later = put(
      'equity/usa/minute/spy/20131008_trade.zip',
      readFileSync(join(leanDir, 'equity/usa/minute/spy/20131008_trade.zip')),
    );
    // Reading a FIFO would wait for a writer forever.
    const fifo = join(root, 'equity/usa/minute/spy/20131009_trade.zip');
    execFileSync('mkfifo', [fifo]);
    const dangling = join(root, 'equity/usa/minute/spy/20131010_trade.zip');
    symlinkSync(join(root, 'nowhere.zip'), dangling);
    const summary = await ingestLean(store, root, {
      // The second file goes once the first is done: after the walk found it, before it is read.
      onProgress: (p) => {
        if (p.filesDone === 1) rmSync(later);
      },
    });
    assert.equal(summary.filesIngested, 1);
    assert.equal(summary.filesFailed, 0);
    const reasons = Object.fromEntries(summary.passedOver.map((p) => [p.path, p.reason]));
    assert.deepEqual(reasons, {
      [fifo]: 'it is not a regular file (a FIFO, socket or device)',
      [dangling]: 'it is gone (removed while ingest ran)',
      [later]: 'it is gone (removed while ingest ran)',
    });
  });
});
