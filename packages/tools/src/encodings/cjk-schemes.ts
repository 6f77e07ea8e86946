import { GB18030_BMP_LINEAR_COUNT, type CjkDecodeTables, type CjkEncodeTables } from './cjk-tables.js';

/** How one family of CJK codecs frames its multi-byte sequences (a lead byte whose single entry is empty). */
export interface CjkScheme {
  /** Length of the sequence led by `bytes[index]`; may look at the byte after the lead. */
  sequenceLength(bytes: Uint8Array, index: number): number;
  /** Code point of the complete sequence at `index`, or -1 when Python rejects it. */
  decodeSequence(tables: CjkDecodeTables, bytes: Uint8Array, index: number): number;
  /** Whether the bytes from `index` to the end are a proper prefix of some valid sequence. */
  isProperPrefix(tables: CjkDecodeTables, bytes: Uint8Array, index: number): boolean;
  /** Writes a code point the table lacks (gb18030 beyond the BMP, euc-kr make-up Hangul); new size or -1. */
  encodeFallback?(tables: CjkEncodeTables, codePoint: number, output: Uint8Array, size: number): number;
}

const pair = (tables: CjkDecodeTables, bytes: Uint8Array, index: number) => tables.pairs[(bytes[index]! << 8) | bytes[index + 1]!]! || -1;

/** shift_jis, gbk, big5: every lead takes one trail byte. */
export const doubleByteScheme: CjkScheme = {
  sequenceLength: () => 2,
  decodeSequence: pair,
  isProperPrefix: (tables, bytes, index) => tables.leads[bytes[index]!] === 1,
};

/** euc-jp: `8F` leads a 3-byte JIS X 0212 sequence, every other lead a pair. */
export const eucJpScheme: CjkScheme = {
  sequenceLength: (bytes, index) => (bytes[index] === 0x8f ? 3 : 2),
  decodeSequence(tables, bytes, index) {
    if (bytes[index] !== 0x8f) return pair(tables, bytes, index);
    return tables.triples[(bytes[index + 1]! << 8) | bytes[index + 2]!]! || -1;
  },
  isProperPrefix(tables, bytes, index) {
    if (bytes[index] !== 0x8f) return tables.leads[bytes[index]!] === 1;
    if (index + 1 === bytes.length) return tables.tripleSeconds.includes(1);
    return tables.tripleSeconds[bytes[index + 1]!] === 1;
  },
};

const isDigit = (byte: number | undefined) => byte !== undefined && byte >= 0x30 && byte <= 0x39;

/** gb18030 4-byte sequence to code point, or -1: the BMP area by table, the rest linear from `90 30 81 30`. */
function gb18030FourByte(tables: CjkDecodeTables, b1: number, b2: number, b3: number, b4: number): number {
  if (b1 < 0x81 || b1 > 0xfe || b3 < 0x81 || b3 > 0xfe || !isDigit(b4)) return -1;
  const tail = (b2 - 0x30) * 1260 + (b3 - 0x81) * 10 + (b4 - 0x30);
  if (b1 <= 0x84) {
    const linear = (b1 - 0x81) * 12600 + tail;
    return linear < GB18030_BMP_LINEAR_COUNT ? tables.fourByteBmp[linear]! : -1;
  }
  if (b1 < 0x90) return -1;
  const codePoint = 0x10000 + (b1 - 0x90) * 12600 + tail;
  return codePoint <= 0x10ffff ? codePoint : -1;
}

/** gb18030: a second byte `30`–`39` makes a 4-byte sequence, anything else a pair. */
export const gb18030Scheme: CjkScheme = {
  sequenceLength: (bytes, index) => (isDigit(bytes[index + 1]) ? 4 : 2),
  decodeSequence(tables, bytes, index) {
    if (!isDigit(bytes[index + 1])) return pair(tables, bytes, index);
    return gb18030FourByte(tables, bytes[index]!, bytes[index + 1]!, bytes[index + 2]!, bytes[index + 3]!);
  },
  isProperPrefix(tables, bytes, index) {
    const rest = bytes.subarray(index);
    if (rest.length === 1 && tables.leads[rest[0]!] === 1) return true;
    // At most 12,600 completions, tried once at the end of a truncated read.
    for (let b2 = 0x30; b2 <= 0x39; b2++) {
      if (rest.length > 1 && rest[1] !== b2) continue;
      for (let b3 = 0x81; b3 <= 0xfe; b3++) {
        if (rest.length > 2 && rest[2] !== b3) continue;
        for (let b4 = 0x30; b4 <= 0x39; b4++) {
          if (gb18030FourByte(tables, rest[0]!, b2, b3, b4) >= 0) return true;
        }
      }
    }
    return false;
  },
  encodeFallback(_tables, codePoint, output, size) {
    if (codePoint < 0x10000) return -1;
    const linear = codePoint - 0x10000;
    output[size] = 0x90 + Math.floor(linear / 12600);
    output[size + 1] = 0x30 + (Math.floor(linear / 1260) % 10);
    output[size + 2] = 0x81 + (Math.floor(linear / 10) % 126);
    output[size + 3] = 0x30 + (linear % 10);
    return size + 4;
  },
};

const JAMO_LEAD = 0xa4;
const JAMO_FILLER = 0xd4;
const HANGUL_FIRST = 0xac00;
const HANGUL_LAST = 0xd7a3;

/** euc-kr: `A4 D4` leads an 8-byte KS X 1001 make-up sequence (choseong, jungseong, jongseong), else a pair. */
export const eucKrScheme: CjkScheme = {
  sequenceLength: (bytes, index) => (bytes[index] === JAMO_LEAD && bytes[index + 1] === JAMO_FILLER ? 8 : 2),
  decodeSequence(tables, bytes, index) {
    if (bytes[index] !== JAMO_LEAD || bytes[index + 1] !== JAMO_FILLER) return pair(tables, bytes, index);
    if (bytes[index + 2] !== JAMO_LEAD || bytes[index + 4] !== JAMO_LEAD || bytes[index + 6] !== JAMO_LEAD) return -1;
    const choseong = tables.choseong[bytes[index + 3]!]!;
    const jungseong = tables.jungseong[bytes[index + 5]!]!;
    const jongseong = tables.jongseong[bytes[index + 7]!]!;
    if (choseong < 0 || jungseong < 0 || jongseong < 0) return -1;
    return HANGUL_FIRST + choseong * 588 + jungseong * 28 + jongseong;
  },
  isProperPrefix(tables, bytes, index) {
    if (bytes[index] !== JAMO_LEAD || bytes[index + 1] !== JAMO_FILLER) return tables.leads[bytes[index]!] === 1;
    const slots = [null, null, null, tables.choseong, null, tables.jungseong, null];
    for (let offset = 2; index + offset < bytes.length; offset++) {
      const byte = bytes[index + offset]!;
      const slot = slots[offset];
      if (slot === null || slot === undefined ? byte !== JAMO_LEAD : slot[byte]! < 0) return false;
    }
    return true;
  },
  encodeFallback(tables, codePoint, output, size) {
    if (codePoint < HANGUL_FIRST || codePoint > HANGUL_LAST) return -1;
    const index = codePoint - HANGUL_FIRST;
    output.set(
      [
        JAMO_LEAD,
        JAMO_FILLER,
        JAMO_LEAD,
        tables.choseongBytes[Math.floor(index / 588)]!,
        JAMO_LEAD,
        tables.jungseongBytes[Math.floor(index / 28) % 21]!,
        JAMO_LEAD,
        tables.jongseongBytes[index % 28]!,
      ],
      size,
    );
    return size + 8;
  },
};
