import { resolveEncoding, type TextCodec } from '../encodings/index.js';

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => prefix.every((byte, index) => bytes[index] === byte);

/**
 * Encodes edited text so the bytes outside the edits stay as they were: the codecs that add a
 * byte-order mark on every encode (`utf-8-sig`, `utf-16`) keep the original's mark and byte order
 * instead, so an edit never adds a BOM or flips a big-endian file to little-endian.
 */
export function encodeLikeOriginal(codec: TextCodec, original: Uint8Array, text: string): Uint8Array {
  if (codec.name === 'utf-8-sig' && !startsWith(original, [0xef, 0xbb, 0xbf])) return resolveEncoding('utf-8').encode(text);
  if (codec.name === 'utf-16') {
    if (startsWith(original, [0xfe, 0xff])) {
      const body = resolveEncoding('utf-16-be').encode(text);
      const bytes = new Uint8Array(body.length + 2);
      bytes.set([0xfe, 0xff]);
      bytes.set(body, 2);
      return bytes;
    }
    if (!startsWith(original, [0xff, 0xfe])) return resolveEncoding('utf-16-le').encode(text);
  }
  return codec.encode(text);
}
