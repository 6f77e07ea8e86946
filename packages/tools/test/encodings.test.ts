import { LibosError } from '@libos/core';
import { describe, expect, it } from 'vitest';
import { ENCODING_NAMES, resolveEncoding } from '../src/index.js';
import { decodeFailure, decodeResult, encodeFailure, encodeResult, hex, toHex } from './encodings-test-helpers.js';

// Every expectation below was checked against Python 3.11.7's codecs (the reference runtime).

describe('resolveEncoding', () => {
  it.each([
    ['utf8', 'utf-8'],
    ['UTF-8', 'utf-8'],
    ['Utf_8', 'utf-8'],
    ['UTF-8-SIG', 'utf-8-sig'],
    ['utf_16_le', 'utf-16-le'],
    ['latin1', 'latin-1'],
    ['latin_1', 'latin-1'],
    ['iso-8859-1', 'latin-1'],
    ['ISO_8859_1', 'latin-1'],
    ['CP1252', 'cp1252'],
    ['koi8_r', 'koi8-r'],
  ])('resolves %s to %s', (label, name) => {
    expect(resolveEncoding(label).name).toBe(name);
  });

  it('resolves every canonical name to itself', () => {
    for (const name of ENCODING_NAMES) expect(resolveEncoding(name).name).toBe(name);
  });

  it.each(['utf-32', 'windows-1252', 'us-ascii', 'cp932', 'utf-16le', ' utf-8', '', 'utf'])(
    'refuses %j with unsupported_encoding listing the supported names',
    (label) => {
      let caught: unknown;
      try {
        resolveEncoding(label);
      } catch (error) {
        caught = error;
      }
      expect(LibosError.is(caught, 'unsupported_encoding')).toBe(true);
      expect((caught as LibosError).details).toEqual({ encoding: label, supported: ENCODING_NAMES });
      expect((caught as LibosError).message).toMatch(/^The encoding ".*" is not supported; use one of utf-8, /);
    },
  );
});

describe('UTF family', () => {
  it.each([
    ['utf-8', 'EF BB BF 41', '\ufeffA'],
    ['utf-8-sig', 'EF BB BF EF BB BF 41', '\ufeffA'],
    ['utf-8-sig', '41 EF BB BF', 'A\ufeff'],
    ['utf-8-sig', '41', 'A'],
    ['utf-16', 'FF FE FF FE', '\ufeff'],
    ['utf-16', 'FE FF FF FE', '\ufffe'],
    ['utf-16', 'FE FF 00 41', 'A'],
    ['utf-16', 'FF FE 41 00', 'A'],
    ['utf-16', '00 41', '\u4100'],
    ['utf-16', '00 41 00 42', '\u4100\u4200'],
    ['utf-16', 'FF FE', ''],
    ['utf-16', '', ''],
    ['utf-16-le', 'FF FE 41 00', '\ufeffA'],
    ['utf-16-be', 'FE FF 00 41', '\ufeffA'],
    ['utf-8', 'EF BF BD', '\ufffd'],
    ['utf-16-le', 'FD FF', '\ufffd'],
    ['utf-16-le', '3D D8 00 DE', '😀'],
  ])('%s decodes %s as Python does (BOM rules)', (encoding, bytes, text) => {
    expect(decodeResult(encoding, bytes)).toBe(text);
  });

  it.each([
    ['utf-8', '41 C3 28', 1],
    ['utf-8', 'ED A0 80', 0],
    ['utf-8', 'C0 80', 0],
    ['utf-8', 'F4 90 80 80', 0],
    ['utf-8', '41 E3 81', 1],
    ['utf-8-sig', 'EF BB', 0],
    ['utf-16', '41', 0],
    ['utf-16', 'FF FE 41 00 00 DC', 4],
    ['utf-16-le', '41 00 41', 2],
    ['utf-16-le', '00 D8', 0],
    ['utf-16-le', '41 00 00 DC', 2],
    ['utf-16-be', 'D8 00 00 41', 0],
  ])('%s refuses %s with decode_failed at offset %i', (encoding, bytes, offset) => {
    expect(decodeResult(encoding, bytes)).toEqual(decodeFailure(encoding, offset));
  });

  it.each([
    ['utf-8', 'E3 81', ''],
    ['utf-8', '41 F0 9F 98', 'A'],
    ['utf-8-sig', 'EF', ''],
    ['utf-8-sig', 'EF BB', ''],
    ['utf-8-sig', 'EF BB BF E3', ''],
    ['utf-16', '41', ''],
    ['utf-16', 'FF FE 41', ''],
    ['utf-16-le', '41 00 41', 'A'],
    ['utf-16-le', '41 00 3D D8', 'A'],
    ['utf-16-le', '41 00 3D D8 00', 'A'],
    ['utf-16-be', '00 41 D8 3D DE', 'A'],
  ])('%s truncated drops the final proper prefix of %s', (encoding, bytes, text) => {
    expect(decodeResult(encoding, bytes, true)).toBe(text);
  });

  it.each([
    ['utf-8', 'ED A0', 0],
    ['utf-8', '41 E0 80', 1],
    ['utf-8', 'F4 90', 0],
    ['utf-8', '41 FF', 1],
    ['utf-16-le', '00 DC', 0],
    ['utf-16-le', '3D D8 41 00', 0],
  ])('%s truncated still refuses %s, which starts no valid sequence', (encoding, bytes, offset) => {
    expect(decodeResult(encoding, bytes, true)).toEqual(decodeFailure(encoding, offset));
  });

  it('keeps no pending bytes between calls', () => {
    const codec = resolveEncoding('utf-8');
    expect(codec.decode(hex('E3 81'), { truncated: true })).toBe('');
    expect(codec.decode(hex('41'), { truncated: false })).toBe('A');
  });

  it.each([
    ['utf-8', '', ''],
    ['utf-8-sig', '', 'efbbbf'],
    ['utf-8-sig', 'A', 'efbbbf41'],
    ['utf-16', '', 'fffe'],
    ['utf-16', 'A😀', 'fffe41003dd800de'],
    ['utf-16-le', 'A', '4100'],
    ['utf-16-be', 'A😀', '0041d83dde00'],
  ])('%s encodes %j as Python does', (encoding, text, bytes) => {
    expect(encodeResult(encoding, text)).toBe(bytes);
  });

  it.each(['utf-8', 'utf-8-sig', 'utf-16', 'utf-16-le', 'utf-16-be', 'ascii', 'latin-1', 'cp1252', 'koi8-r'])(
    '%s refuses a lone surrogate before anything else',
    (encoding) => {
      expect(encodeResult(encoding, 'ab\ud800')).toEqual(encodeFailure(encoding, 2, 'U+D800'));
      expect(encodeResult(encoding, '😀\udc00x')).toEqual(encodeFailure(encoding, 1, 'U+DC00'));
      expect(encodeResult(encoding, '\udbff')).toEqual(encodeFailure(encoding, 0, 'U+DBFF'));
    },
  );

  it.each(['utf-8', 'utf-8-sig', 'utf-16', 'utf-16-le', 'utf-16-be'])('%s round-trips mixed text', (encoding) => {
    const text = '\ufeffHello, wörld — 日本語 😀 \u0000 end';
    const codec = resolveEncoding(encoding);
    expect(codec.decode(codec.encode(text), { truncated: false })).toBe(text);
  });
});

describe('single-byte codecs', () => {
  it.each([
    ['ascii', '48 69 7F 00', 'Hi\u007f\u0000'],
    ['latin-1', 'FF', 'ÿ'],
    ['latin-1', 'FF 41', 'ÿA'],
    ['latin-1', 'FF FF 41', 'ÿÿA'],
    ['latin-1', '80 9F A0', '\u0080\u009f\u00a0'],
    ['cp1252', '80', '€'],
    ['cp1252', '9F 8E FF', 'ŸŽÿ'],
    ['cp1252', 'FF', 'ÿ'],
    ['koi8-r', 'C1 FF 80 9A', 'аЪ─\u00a0'],
  ])('%s decodes %s as Python does', (encoding, bytes, text) => {
    expect(decodeResult(encoding, bytes)).toBe(text);
    expect(decodeResult(encoding, bytes, true)).toBe(text);
  });

  it.each([
    ['ascii', 'FF', 0],
    ['ascii', '41 E9 80', 1],
    ['ascii', '41 80', 1],
    ['cp1252', '41 81', 1],
    ['cp1252', '8D', 0],
    ['cp1252', '8F', 0],
    ['cp1252', '90', 0],
    ['cp1252', '9D', 0],
  ])('%s refuses %s at offset %i, truncated or not', (encoding, bytes, offset) => {
    expect(decodeResult(encoding, bytes)).toEqual(decodeFailure(encoding, offset));
    expect(decodeResult(encoding, bytes, true)).toEqual(decodeFailure(encoding, offset));
  });

  it.each([
    ['ascii', 'é', 0, 'U+00E9'],
    ['ascii', '\ufffd', 0, 'U+FFFD'],
    ['ascii', 'a😀é', 1, 'U+1F600'],
    ['latin-1', 'aĀ', 1, 'U+0100'],
    ['latin-1', '€', 0, 'U+20AC'],
    ['cp1252', '\u0081', 0, 'U+0081'],
    ['cp1252', '\ufffd', 0, 'U+FFFD'],
    ['cp1252', 'ok😀', 2, 'U+1F600'],
    ['koi8-r', 'Привет é', 7, 'U+00E9'],
  ])('%s refuses to encode %j at character %i', (encoding, text, index, codePoint) => {
    expect(encodeResult(encoding, text)).toEqual(encodeFailure(encoding, index, codePoint));
  });

  it.each([
    ['ascii', 'Hi~\u007f', '48697e7f'],
    ['latin-1', 'ÿé\u0080', 'ffe980'],
    ['cp1252', '€ŸŽ“', '809f8e93'],
    ['koi8-r', 'Привет', 'f0d2c9d7c5d4'],
  ])('%s encodes %j as Python does', (encoding, text, bytes) => {
    expect(encodeResult(encoding, text)).toBe(bytes);
  });

  it.each([
    ['cp1252', 251],
    ['koi8-r', 256],
    ['latin-1', 256],
  ])('%s round-trips each of its %i valid bytes', (encoding, count) => {
    const codec = resolveEncoding(encoding);
    const valid = Array.from({ length: 256 }, (_, byte) => byte).filter((byte) => {
      try {
        return codec.decode(Uint8Array.of(byte), { truncated: false }).length === 1;
      } catch {
        return false;
      }
    });
    expect(valid).toHaveLength(count);
    const text = codec.decode(Uint8Array.from(valid), { truncated: false });
    expect(toHex(codec.encode(text))).toBe(toHex(Uint8Array.from(valid)));
  });

  it.each([
    ['cp1252', 'Hello, “wörld” – 5 € ™'],
    ['koi8-r', 'Съешь же ещё этих мягких французских булок'],
    ['latin-1', 'Ærøskøbing, São Paulo, ¿qué?'],
    ['ascii', 'plain text\n\twith controls'],
  ])('%s round-trips representative text', (encoding, text) => {
    const codec = resolveEncoding(encoding);
    expect(codec.decode(codec.encode(text), { truncated: false })).toBe(text);
  });
});
