import { crc32, inflateRawSync } from 'node:zlib';

/** One entry of a zip archive, still compressed. */
export interface RawZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: 0 | 8;
  crc32: number;
  /** Uncompressed size in bytes. */
  size: number;
  /** The entry's bytes as stored in the archive (a raw deflate stream when deflated). */
  data: Uint8Array;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const ZIP64_EXTRA = 0x0001;
const MAX32 = 0xffffffff;

/**
 * The entries of a zip archive without inflating them, read from its central directory (zip64
 * included); undefined when the archive is not one this reader takes apart (encrypted entries, other
 * compression methods, anything inconsistent), for the general reader to handle.
 */
export function rawZipEntries(bytes: Uint8Array): RawZipEntry[] | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (at: number) => view.getUint16(at, true);
  const u32 = (at: number) => view.getUint32(at, true);
  const u64 = (at: number) => Number(view.getBigUint64(at, true));
  // The end-of-central-directory record: 22 bytes plus a comment of up to 65 535.
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (u32(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return undefined;
  let count = u16(eocd + 10);
  let at = u32(eocd + 16);
  if (count === 0xffff || at === MAX32) {
    const locator = eocd - 20;
    if (locator < 0 || u32(locator) !== ZIP64_LOCATOR) return undefined;
    const record = u64(locator + 8);
    if (record + 56 > bytes.length || u32(record) !== ZIP64_EOCD) return undefined;
    count = u64(record + 32);
    at = u64(record + 48);
  }
  const entries: RawZipEntry[] = [];
  for (let k = 0; k < count; k++) {
    if (at + 46 > bytes.length || u32(at) !== CENTRAL) return undefined;
    const flags = u16(at + 8);
    const method = u16(at + 10);
    const crc32 = u32(at + 16);
    let compressed = u32(at + 20);
    let size = u32(at + 24);
    const nameLength = u16(at + 28);
    const extraLength = u16(at + 30);
    let local = u32(at + 42);
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    // The zip64 extra field holds, in this order, each of the three values that is MAX32 above.
    for (let e = at + 46 + nameLength; e + 4 <= at + 46 + nameLength + extraLength; ) {
      const tag = u16(e);
      const length = u16(e + 2);
      if (tag === ZIP64_EXTRA) {
        let field = e + 4;
        if (size === MAX32) {
          size = u64(field);
          field += 8;
        }
        if (compressed === MAX32) {
          compressed = u64(field);
          field += 8;
        }
        if (local === MAX32) local = u64(field);
      }
      e += 4 + length;
    }
    at += 46 + nameLength + extraLength + u16(at + 32);
    if (flags & 1 || (method !== 0 && method !== 8)) return undefined;
    if (local + 30 > bytes.length || u32(local) !== LOCAL) return undefined;
    const start = local + 30 + u16(local + 26) + u16(local + 28);
    if (start + compressed > bytes.length) return undefined;
    entries.push({ name, method, crc32, size, data: bytes.subarray(start, start + compressed) });
  }
  return entries;
}

/** A gzip member holding a raw deflate stream, for readers that take gzip but not zip (DuckDB's). */
export function gzipOfDeflated(entry: RawZipEntry): Uint8Array[] {
  const header = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]);
  const trailer = new Uint8Array(8);
  const view = new DataView(trailer.buffer);
  view.setUint32(0, entry.crc32, true);
  view.setUint32(4, entry.size % 2 ** 32, true);
  return [header, entry.data, trailer];
}

/**
 * Why the inflated bytes of `entry` are not what the archive declares (its uncompressed size and
 * CRC-32), or undefined when they are: a damaged archive can still inflate, to fewer or other bytes.
 */
export function entryDamage(entry: RawZipEntry, inflated: Uint8Array): string | undefined {
  if (inflated.length !== entry.size) {
    return `the zip entry is damaged: it inflates to ${inflated.length} bytes, the archive declares ${entry.size}`;
  }
  const crc = crc32(inflated) >>> 0;
  if (crc !== entry.crc32 >>> 0) {
    return `the zip entry is damaged: its CRC-32 is ${hex(crc)}, the archive declares ${hex(entry.crc32)}`;
  }
  return undefined;
}

/** What a failed inflate of `entry` says about it. */
export function inflateFailure(entry: RawZipEntry, e: unknown): string {
  // zlib stops at the declared size (maxOutputLength) with a RangeError.
  if ((e as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') {
    return `the zip entry is damaged: it inflates to more than the ${entry.size} bytes the archive declares`;
  }
  return `the zip entry is damaged: it does not inflate (${(e as Error).message})`;
}

const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');

/**
 * The content of `entry`, checked against its declared size and CRC-32; throws an `Error` saying what
 * is wrong (a stream that does not inflate, a size or checksum that does not match).
 */
export function inflateEntry(entry: RawZipEntry): Uint8Array {
  let inflated: Uint8Array;
  if (entry.method === 0) inflated = entry.data;
  else {
    try {
      // The declared size bounds the output: a damaged stream cannot inflate without limit.
      inflated = inflateRawSync(entry.data, { maxOutputLength: Math.max(1, entry.size) });
    } catch (e) {
      throw new Error(inflateFailure(entry, e));
    }
  }
  const damage = entryDamage(entry, inflated);
  if (damage) throw new Error(damage);
  return inflated;
}
