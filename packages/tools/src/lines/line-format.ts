import { resolveEncoding, type TextCodec } from '../encodings/index.js';

/**
 * How lines and characters sit in the bytes of one encoding: the newline's bytes, the code unit
 * size, the codecs that decode a slice starting at byte 0 (a byte-order mark there is the codec's
 * business) and one starting anywhere else, and whether a character boundary can be found from
 * any position (UTF-8, UTF-16 and the single-byte encodings: a tail then needs only the end).
 */
export interface LineFormat {
  readonly unit: 1 | 2;
  readonly newline: readonly number[];
  readonly startCodec: TextCodec;
  readonly middleCodec: TextCodec;
  readonly family: 'utf-8' | 'utf-16' | 'single-byte' | 'multi-byte';
}

const SINGLE_BYTE = new Set(['ascii', 'latin-1', 'cp1252', 'koi8-r']);

/**
 * The format of `codec`'s bytes. `head` is the file's first two bytes, which decide the byte order
 * of `utf-16` (a leading `FE FF` is big-endian, anything else little-endian). In every other
 * supported encoding the byte 0x0A is a newline wherever it appears: no multi-byte sequence of
 * Shift_JIS, EUC, GBK, GB18030, Big5 or UTF-8 contains it.
 */
export function lineFormatOf(codec: TextCodec, head: Uint8Array): LineFormat {
  switch (codec.name) {
    case 'utf-8':
    case 'utf-8-sig':
      return { unit: 1, newline: [0x0a], startCodec: codec, middleCodec: resolveEncoding('utf-8'), family: 'utf-8' };
    case 'utf-16': {
      const big = head[0] === 0xfe && head[1] === 0xff;
      const middle = resolveEncoding(big ? 'utf-16-be' : 'utf-16-le');
      return { unit: 2, newline: big ? [0x00, 0x0a] : [0x0a, 0x00], startCodec: codec, middleCodec: middle, family: 'utf-16' };
    }
    case 'utf-16-le':
      return { unit: 2, newline: [0x0a, 0x00], startCodec: codec, middleCodec: codec, family: 'utf-16' };
    case 'utf-16-be':
      return { unit: 2, newline: [0x00, 0x0a], startCodec: codec, middleCodec: codec, family: 'utf-16' };
    default:
      return { unit: 1, newline: [0x0a], startCodec: codec, middleCodec: codec, family: SINGLE_BYTE.has(codec.name) ? 'single-byte' : 'multi-byte' };
  }
}

/** Whether a tail can be found reading back from the end: a character boundary is visible from any byte. */
export function readsBackwards(format: LineFormat): boolean {
  return format.family !== 'multi-byte';
}

/**
 * Indexes (into `bytes`, whose first byte is at absolute offset `offset`) just past each newline, in
 * order. For UTF-16 only unit-aligned newlines count, alignment taken from the start of the file.
 */
export function lineStartsIn(format: LineFormat, bytes: Uint8Array, offset: number): number[] {
  const starts: number[] = [];
  if (format.unit === 1) {
    for (let index = bytes.indexOf(0x0a); index !== -1; index = bytes.indexOf(0x0a, index + 1)) starts.push(index + 1);
    return starts;
  }
  const [first, second] = format.newline;
  for (let index = (offset & 1) === 0 ? 0 : 1; index + 1 < bytes.length; index += 2) {
    if (bytes[index] === first && bytes[index + 1] === second) starts.push(index + 2);
  }
  return starts;
}

/** Whether `bytes` ends with a newline (unit-aligned for UTF-16, `bytes` starting unit-aligned). */
export function endsWithNewline(format: LineFormat, bytes: Uint8Array): boolean {
  const length = bytes.length;
  if (length < format.unit || length % format.unit !== 0) return false;
  return format.newline.every((byte, index) => bytes[length - format.unit + index] === byte);
}

/**
 * The longest prefix length of `bytes` (starting on a character boundary) that ends on one, so a
 * cut never splits a character. The multi-byte codecs have no self-synchronising structure, so
 * their decoder finds it: a truncated decode drops an incomplete final character, and the text
 * kept encodes back to exactly the bytes it came from.
 */
export function boundaryBefore(format: LineFormat, bytes: Uint8Array, codec: TextCodec): number {
  const length = bytes.length;
  switch (format.family) {
    case 'single-byte':
      return length;
    case 'utf-16': {
      const even = length - (length % 2);
      if (even < 2) return even;
      const high = format.newline[0] === 0 ? bytes[even - 2]! : bytes[even - 1]!;
      return high >= 0xd8 && high <= 0xdb ? even - 2 : even;
    }
    case 'utf-8': {
      let start = length;
      // Back over continuation bytes to the lead of the last character, then see whether it is whole.
      while (start > 0 && length - start < 4 && (bytes[start - 1]! & 0xc0) === 0x80) start--;
      if (start === 0) return length;
      const lead = bytes[start - 1]!;
      const needed = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
      return length - (start - 1) >= needed ? length : start - 1;
    }
    default:
      return codec.encode(codec.decode(bytes, { truncated: true })).length;
  }
}

/**
 * The first index of `bytes` (whose first byte is at absolute `offset`) where a character starts,
 * for the encodings that read backwards: past UTF-8 continuation bytes, to a unit boundary and past
 * a low surrogate in UTF-16.
 */
export function boundaryAfter(format: LineFormat, bytes: Uint8Array, offset: number): number {
  if (format.family === 'utf-8') {
    let index = 0;
    while (index < bytes.length && index < 3 && (bytes[index]! & 0xc0) === 0x80) index++;
    return index;
  }
  if (format.family === 'utf-16') {
    const index = offset % 2;
    const high = format.newline[0] === 0 ? bytes[index] : bytes[index + 1];
    return high !== undefined && high >= 0xdc && high <= 0xdf ? index + 2 : index;
  }
  return 0;
}
