import { isAscii } from 'node:buffer';
import { assertWellFormed, decodeFailed, encodeFailed } from './codec-errors.js';
import type { CjkScheme } from './cjk-schemes.js';
import type { CjkTableData } from './cjk-table-data.js';
import { buildDecodeTables, buildEncodeTables, NO_CHARACTER, REFUSED, type CjkDecodeTables, type CjkEncodeTables } from './cjk-tables.js';
import type { TextCodec } from './text-codec.js';
import { latin1ToString, unitsToString } from './units-to-string.js';

/** Packs a gb18030 BMP linear index (encode tables store it with length 4) into its 4 bytes. */
function writeLinear(output: Uint8Array, size: number, linear: number): void {
  output[size] = 0x81 + Math.floor(linear / 12600);
  output[size + 1] = 0x30 + (Math.floor(linear / 1260) % 10);
  output[size + 2] = 0x81 + (Math.floor(linear / 10) % 126);
  output[size + 3] = 0x30 + (linear % 10);
}

/** `readSequence` and `readCharacter` results: `codePoint * 16 + length` otherwise. */
const INCOMPLETE = -2;
const INVALID = -1;

/**
 * Reads the multi-byte sequence at `index` (whose byte is no character alone) exactly as `decode` parses it:
 * `codePoint * 16 + length`, INCOMPLETE when the bytes end first, INVALID when Python rejects it.
 */
function readSequence(scheme: CjkScheme, tables: CjkDecodeTables, bytes: Uint8Array, index: number): number {
  // A pair the table knows is always the right parse: no scheme gives such a pair another length.
  const paired = index + 1 < bytes.length ? tables.pairs[(bytes[index]! << 8) | bytes[index + 1]!]! : 0;
  if (paired !== 0) return paired * 16 + 2;
  const length = scheme.sequenceLength(bytes, index);
  if (index + length > bytes.length) return INCOMPLETE;
  const codePoint = scheme.decodeSequence(tables, bytes, index);
  return codePoint < 0 ? INVALID : codePoint * 16 + length;
}

/** Reads the character at `index` as `decode` would, single bytes included. */
function readCharacter(scheme: CjkScheme, tables: CjkDecodeTables, bytes: Uint8Array, index: number): number {
  const unit = tables.single[bytes[index]!]!;
  return unit !== NO_CHARACTER ? unit * 16 + 1 : readSequence(scheme, tables, bytes, index);
}

/** Writes one packed encode table entry; returns the new size. */
function writePacked(output: Uint8Array, size: number, value: number): number {
  const length = value >>> 24;
  if (length === 1) {
    output[size] = value & 0xff;
    return size + 1;
  }
  if (length === 2) {
    output[size] = (value >> 8) & 0xff;
    output[size + 1] = value & 0xff;
    return size + 2;
  }
  if (length === 3) {
    output[size] = (value >> 16) & 0xff;
    output[size + 1] = (value >> 8) & 0xff;
    output[size + 2] = value & 0xff;
    return size + 3;
  }
  writeLinear(output, size, value & 0xffffff);
  return size + 4;
}

/**
 * Refuses every entry whose bytes the decoder would not read back as the same character. Python's encoders
 * write some characters as bytes that decode to others (shift_jis and euc-jp `¥` as `5C`, which reads `\`)
 * or to nothing at all (euc-kr U+3164 as `A4 D4`, a make-up lead); such an entry would land text other than
 * the text approved, so it becomes `encode_failed` (docs/tools.md, encodings). Checked once per codec, on
 * first encode: 65,536 table reads.
 */
function refuseLossyEntries(tables: CjkEncodeTables, scheme: CjkScheme, decode: CjkDecodeTables): CjkEncodeTables {
  const scratch = new Uint8Array(8);
  for (let codePoint = 0; codePoint < tables.units.length; codePoint++) {
    const value = tables.units[codePoint]!;
    if (value <= REFUSED) continue;
    const size = writePacked(scratch, 0, value);
    if (readCharacter(scheme, decode, scratch.subarray(0, size), 0) !== codePoint * 16 + size) tables.units[codePoint] = REFUSED;
  }
  return tables;
}

/**
 * A strict CJK codec over tables generated from Python. The data and the tables are built on first
 * use, so an unused codec costs only its source text: a process that never reads gbk never holds
 * its 20,000 characters.
 */
export function createCjkCodec(name: string, generated: () => CjkTableData, scheme: CjkScheme): TextCodec {
  let data: CjkTableData | undefined;
  let decodeTables: CjkDecodeTables | undefined;
  let encodeTables: CjkEncodeTables | undefined;
  const source = () => (data ??= generated());
  const decoding = () => (decodeTables ??= buildDecodeTables(source()));
  const encoding = () => (encodeTables ??= refuseLossyEntries(buildEncodeTables(source(), decoding()), scheme, decoding()));

  return {
    name,
    decode(bytes, { truncated }) {
      const tables = decoding();
      if (tables.asciiIdentity && isAscii(bytes)) return latin1ToString(bytes);
      // Never more UTF-16 units than bytes: a 4-byte gb18030 sequence gives at most two.
      const units = new Uint16Array(bytes.length);
      let count = 0;
      let index = 0;
      while (index < bytes.length) {
        const unit = tables.single[bytes[index]!]!;
        if (unit !== NO_CHARACTER) {
          units[count++] = unit;
          index++;
          continue;
        }
        // The common case inline: a pair the table knows (readSequence's first rule, without its packing).
        const paired = index + 1 < bytes.length ? tables.pairs[(bytes[index]! << 8) | bytes[index + 1]!]! : 0;
        if (paired !== 0) {
          units[count++] = paired;
          index += 2;
          continue;
        }
        const read = readSequence(scheme, tables, bytes, index);
        if (read === INCOMPLETE) {
          if (truncated && scheme.isProperPrefix(tables, bytes, index)) break;
          throw decodeFailed(name, index);
        }
        if (read === INVALID) throw decodeFailed(name, index);
        const codePoint = Math.floor(read / 16);
        if (codePoint > 0xffff) {
          units[count++] = 0xd7c0 + (codePoint >> 10);
          units[count++] = 0xdc00 | (codePoint & 0x3ff);
        } else {
          units[count++] = codePoint;
        }
        index += read % 16;
      }
      return unitsToString(units.subarray(0, count));
    },
    encode(text) {
      assertWellFormed(name, text);
      const tables = encoding();
      let output = new Uint8Array(text.length * 2 + 16);
      let size = 0;
      for (let index = 0; index < text.length; index++) {
        if (size + 8 > output.length) {
          const larger = new Uint8Array(output.length * 2);
          larger.set(output.subarray(0, size));
          output = larger;
        }
        const codePoint = text.codePointAt(index)!;
        const value = codePoint <= 0xffff ? tables.units[codePoint]! : 0;
        if (value > REFUSED) {
          size = writePacked(output, size, value);
        } else {
          const next = value === 0 && scheme.encodeFallback ? scheme.encodeFallback(tables, codePoint, output, size) : -1;
          // A fallback computes its bytes, so they are read back here: only bytes that decode to this very
          // character may land (the table entries were checked once, when the tables were built).
          if (next < 0 || readCharacter(scheme, decoding(), output.subarray(0, next), size) !== codePoint * 16 + (next - size)) {
            throw encodeFailed(name, text, index);
          }
          size = next;
        }
        if (codePoint > 0xffff) index++;
      }
      return output.slice(0, size);
    },
  };
}
