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
  const encoding = () => (encodeTables ??= buildEncodeTables(source(), decoding()));

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
        // A pair the table knows is always the right parse: no scheme gives such a pair another length.
        const paired = index + 1 < bytes.length ? tables.pairs[(bytes[index]! << 8) | bytes[index + 1]!]! : 0;
        if (paired !== 0) {
          units[count++] = paired;
          index += 2;
          continue;
        }
        const length = scheme.sequenceLength(bytes, index);
        if (index + length > bytes.length) {
          if (truncated && scheme.isProperPrefix(tables, bytes, index)) break;
          throw decodeFailed(name, index);
        }
        const codePoint = scheme.decodeSequence(tables, bytes, index);
        if (codePoint < 0) throw decodeFailed(name, index);
        if (codePoint > 0xffff) {
          units[count++] = 0xd7c0 + (codePoint >> 10);
          units[count++] = 0xdc00 | (codePoint & 0x3ff);
        } else {
          units[count++] = codePoint;
        }
        index += length;
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
          const length = value >>> 24;
          if (length === 1) output[size++] = value & 0xff;
          else if (length === 2) {
            output[size++] = (value >> 8) & 0xff;
            output[size++] = value & 0xff;
          } else if (length === 3) {
            output[size++] = (value >> 16) & 0xff;
            output[size++] = (value >> 8) & 0xff;
            output[size++] = value & 0xff;
          } else {
            writeLinear(output, size, value & 0xffffff);
            size += 4;
          }
        } else {
          const next = value === 0 && scheme.encodeFallback ? scheme.encodeFallback(tables, codePoint, output, size) : -1;
          if (next < 0) throw encodeFailed(name, text, index);
          size = next;
        }
        if (codePoint > 0xffff) index++;
      }
      return output.slice(0, size);
    },
  };
}
