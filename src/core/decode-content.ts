import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';

/**
 * The body of a response sent with `Content-Encoding`, decoded. mdq asks for no coding, and HTTP then
 * lets a server (or a proxy before it) choose any: gzip, deflate and br are decoded, in the reverse of
 * the order they were applied. A `deflate` body is a zlib stream, or a raw deflate one as some servers
 * send.
 *
 * @throws Error naming the coding when it is not one of these, or the bytes are not valid in it.
 */
export function decodeContent(body: Buffer, contentEncoding: string): Buffer {
  const codings = contentEncoding
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  let out = body;
  for (const coding of codings.reverse()) out = decodeOne(out, coding);
  return out;
}

function decodeOne(body: Buffer, coding: string): Buffer {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(body);
    case 'br':
      return brotliDecompressSync(body);
    case 'deflate':
      // A zlib stream starts with a header whose 16-bit value is a multiple of 31.
      return body.length >= 2 && (body[0]! & 0x0f) === 8 && ((body[0]! << 8) | body[1]!) % 31 === 0
        ? inflateSync(body)
        : inflateRawSync(body);
    default:
      throw new Error(
        `unsupported content-encoding ${JSON.stringify(coding)} (gzip, deflate and br are decoded)`,
      );
  }
}

/** True when `contentEncoding` names a coding other than `identity`. */
export function isEncoded(contentEncoding: string | undefined): contentEncoding is string {
  return contentEncoding?.split(',').some((c) => !/^\s*(identity)?\s*$/i.test(c)) === true;
}
