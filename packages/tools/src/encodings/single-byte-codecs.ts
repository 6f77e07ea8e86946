import { Buffer, isAscii } from 'node:buffer';
import { assertWellFormed, decodeFailed, encodeFailed } from './codec-errors.js';
import { SINGLE_BYTE_TABLES } from './generated/single-byte-tables.js';
import type { TextCodec } from './text-codec.js';
import { latin1ToString, unitsToString } from './units-to-string.js';

const INVALID = 0xffff;

/** A codec for the code units 0..`highest`, byte for byte (ascii, latin-1); nothing to drop when truncated. */
function rangeCodec(name: string, highest: number): TextCodec {
  return {
    name,
    decode(bytes) {
      if (highest < 0xff && !isAscii(bytes))
        throw decodeFailed(
          name,
          bytes.findIndex((byte) => byte > highest),
        );
      return latin1ToString(bytes);
    },
    encode(text) {
      assertWellFormed(name, text);
      // Buffer.from(text, 'latin1') keeps the low byte of anything larger, so the range is checked first.
      for (let index = 0; index < text.length; index++) {
        if (text.charCodeAt(index) > highest) throw encodeFailed(name, text, index);
      }
      return Buffer.from(text, 'latin1');
    },
  };
}

/** A codec driven by a 256-entry table generated from Python; U+FFFF marks a byte Python rejects. */
function tableCodec(name: keyof typeof SINGLE_BYTE_TABLES): TextCodec {
  let decodeTable: Uint16Array | undefined;
  let encodeTable: Int16Array | undefined;
  const decodeUnits = () => {
    if (decodeTable === undefined) {
      const source = SINGLE_BYTE_TABLES[name];
      decodeTable = new Uint16Array(256);
      for (let byte = 0; byte < 256; byte++) decodeTable[byte] = source.charCodeAt(byte);
    }
    return decodeTable;
  };
  const byteOf = () => {
    if (encodeTable === undefined) {
      encodeTable = new Int16Array(65536).fill(-1);
      const units = decodeUnits();
      for (let byte = 255; byte >= 0; byte--) {
        if (units[byte] !== INVALID) encodeTable[units[byte]!] = byte;
      }
    }
    return encodeTable;
  };
  return {
    name,
    decode(bytes) {
      const table = decodeUnits();
      // Both tables map 00–7F to themselves (the generator's output says so), so ASCII needs no lookup.
      if (isAscii(bytes)) return latin1ToString(bytes);
      const units = new Uint16Array(bytes.length);
      for (let index = 0; index < bytes.length; index++) {
        if ((units[index] = table[bytes[index]!]!) === INVALID) throw decodeFailed(name, index);
      }
      return unitsToString(units);
    },
    encode(text) {
      assertWellFormed(name, text);
      const table = byteOf();
      const bytes = new Uint8Array(text.length);
      for (let index = 0; index < text.length; index++) {
        const byte = table[text.charCodeAt(index)]!;
        if (byte < 0) throw encodeFailed(name, text, index);
        bytes[index] = byte;
      }
      return bytes;
    },
  };
}

/** ascii: bytes 00–7F only. */
export const asciiCodec = rangeCodec('ascii', 0x7f);
/** latin-1 (ISO-8859-1): every byte is valid and maps to the same code point. */
export const latin1Codec = rangeCodec('latin-1', 0xff);
/** cp1252 as Python has it: 81 8D 8F 90 9D are undefined. */
export const cp1252Codec = tableCodec('cp1252');
/** koi8-r: every byte is valid. */
export const koi8RCodec = tableCodec('koi8-r');
