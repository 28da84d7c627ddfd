import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { crc32, gunzipSync, inflateRawSync } from 'node:zlib';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { isIngestError } from '../../../src/server/ingest/ingest-error.js';
import { ingestLean } from '../../../src/server/ingest/lean.js';
import { numberLines } from '../../../src/server/ingest/native-ticks.js';
import { gzipOfDeflated, rawZipEntries } from '../../../src/server/ingest/zip-entries.js';
import { hasShared, leanDir } from '../../support/shared.js';
import { tempStore } from './helpers.js';

/** Lean trade-tick lines: ms of the day, deci-cent price, size, exchange, condition mask, suspicious. */
function tickLines(count: number): string[] {
  return Array.from(
    { length: count },
    (_, i) =>
      `${14_400_000 + Math.floor(i / 3)},${1_674_100 + (i % 17) * 100},${100 + (i % 7)},${'PQNTZ'[i % 5]},${(i % 4 === 0 ? 0x2000 : 0x10).toString(16)},${i % 11 === 0 ? 1 : 0}`,
  );
}

function writeTickZip(root: string, ticker: string, text: string, level: 0 | 6): string {
  const path = join(root, `equity/usa/tick/${ticker}/20131007_trade.zip`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, zipSync({ [`20131007_${ticker}_Trade_Tick.csv`]: [strToU8(text), { level }] }));
  return path;
}

describe('rawZipEntries and gzipOfDeflated', () => {
  it('read entries without inflating them, stored or deflated, and wrap deflated ones as gzip', () => {
    const texts = { 'a.csv': 'x,1\ny,2\n'.repeat(500), 'dir/b.csv': 'z', 'c.csv': '' };
    for (const level of [0, 6] as const) {
      const zip = zipSync(
        Object.fromEntries(Object.entries(texts).map(([name, text]) => [name, [strToU8(text), { level }]])),
      );
      const entries = rawZipEntries(zip);
      assert.ok(entries);
      assert.deepEqual(
        entries.map((e) => e.name),
        Object.keys(texts),
      );
      for (const entry of entries) {
        const text = texts[entry.name as keyof typeof texts];
        const content = entry.method === 8 ? inflateRawSync(entry.data) : Buffer.from(entry.data);
        assert.equal(content.toString(), text);
        assert.equal(entry.size, Buffer.byteLength(text));
        assert.equal(entry.crc32, crc32(text));
        // gunzip checks the CRC and the size of the member.
        if (entry.method === 8)
          assert.equal(gunzipSync(Buffer.concat(gzipOfDeflated(entry))).toString(), text);
      }
    }
  });

  it('leave what they do not take apart to the general reader', () => {
    assert.equal(rawZipEntries(strToU8('not a zip archive at all, just text')), undefined);
    const zip = zipSync({ 'a.csv': strToU8('x,1\n') });
    assert.equal(rawZipEntries(zip.subarray(0, zip.length - 30)), undefined);
  });

  it('read the zip64 archives of the market-data folder', (t) => {
    if (!hasShared(t, leanDir)) return;
    const zip = readFileSync(join(leanDir, 'equity/usa/tick/spy/20131007_trade.zip'));
    const entries = rawZipEntries(zip);
    assert.equal(entries?.length, 1);
    const [entry] = entries ?? [];
    const expected = Object.values(unzipSync(zip))[0] as Uint8Array;
    assert.ok(entry && entry.method === 8);
    assert.equal(Buffer.compare(gunzipSync(Buffer.concat(gzipOfDeflated(entry))), Buffer.from(expected)), 0);
  });
});

describe('tick entries staged deflated (DuckDB inflates) or as numbered lines', () => {
  it('give the same rows, sequence numbers included, with LF or CRLF lines', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mdq-tick-staging-'));
    const { store, cleanup } = await tempStore();
    try {
      const lines = tickLines(5000);
      // Stored entries go through numbered lines, deflated ones to DuckDB still compressed.
      writeTickZip(root, 'numbered', `${lines.join('\n')}\n`, 0);
      const deflated = writeTickZip(root, 'deflated', `${lines.join('\n')}\n`, 6);
      writeTickZip(root, 'crlf', lines.join('\r\n'), 6);
      assert.equal(rawZipEntries(readFileSync(deflated))?.[0]?.method, 8);
      await ingestLean(store, root);
      const rows = (ticker: string) =>
        store.all(
          `SELECT sequence_number, sip_timestamp, price, size, exchange, conditions FROM trades WHERE ticker = $1 ORDER BY sequence_number`,
          [ticker],
        );
      const numbered = await rows('NUMBERED');
      assert.equal(numbered.length, 5000);
      assert.deepEqual(await rows('DEFLATED'), numbered);
      assert.deepEqual(await rows('CRLF'), numbered);
    } finally {
      cleanup();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuse a damaged deflate stream with an ingest error naming the file', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mdq-tick-staging-'));
    const { store, cleanup } = await tempStore();
    try {
      const path = writeTickZip(root, 'damaged', `${tickLines(3000).join('\n')}\n`, 6);
      const zip = readFileSync(path);
      const entry = rawZipEntries(zip)?.[0];
      assert.ok(entry);
      // Overwrite the middle of the compressed stream.
      const at = entry.data.byteOffset - zip.byteOffset + Math.floor(entry.data.length / 2);
      zip.fill(0xff, at, at + 64);
      writeFileSync(path, zip);
      await assert.rejects(ingestLean(store, root), (e: unknown) => {
        assert.ok(isIngestError(e), String(e));
        assert.equal(e.file, path);
        return true;
      });
      assert.deepEqual(await store.all('SELECT count(*)::INT AS n FROM trades'), [{ n: 0 }]);
    } finally {
      cleanup();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuse an empty line at the line numberLines names, wherever it is', async () => {
    const lines = tickLines(3000);
    const texts = [
      `\n${lines.join('\n')}\n`,
      `${lines.slice(0, 1500).join('\r\n')}\r\n\r\n${lines.slice(1500).join('\r\n')}`,
      `${lines.join('\n')}\n\n`,
      `${lines.slice(0, 2).join('\n')}\n\n${lines.slice(2).join('\n')}\n\n`,
    ];
    for (const [i, text] of texts.entries()) {
      const expected = numberLines(strToU8(text));
      assert.equal(typeof expected, 'number');
      const root = mkdtempSync(join(tmpdir(), 'mdq-tick-staging-'));
      const { store, cleanup } = await tempStore();
      try {
        const path = writeTickZip(root, `case${i}`, text, 6);
        await assert.rejects(ingestLean(store, root), (e: unknown) => {
          assert.ok(isIngestError(e), String(e));
          assert.equal(e.file, path);
          assert.match(e.message, new RegExp(`:${expected}: empty line`));
          return true;
        });
        assert.deepEqual(await store.all('SELECT count(*)::INT AS n FROM trades'), [{ n: 0 }]);
      } finally {
        cleanup();
        rmSync(root, { recursive: true, force: true });
      }
    }
  });
});
