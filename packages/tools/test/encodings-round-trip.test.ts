import { LibosError } from '@libos/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENCODING_NAMES, resolveEncoding } from '../src/index.js';

// Every BMP code point (lone surrogates included, which every codec refuses) and every 61st astral one.
const CHARACTERS: string[] = [];
for (let codePoint = 0; codePoint <= 0xffff; codePoint++) CHARACTERS.push(String.fromCharCode(codePoint));
for (let codePoint = 0x10000; codePoint <= 0x10ffff; codePoint += 61) CHARACTERS.push(String.fromCodePoint(codePoint));
CHARACTERS.push('\u{10ffff}', '\u{1f600}', '\u{20000}');

const describeCharacter = (text: string) => `U+${text.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

// Most characters are refused, one thrown error each: without stack traces the whole file takes seconds, not minutes.
let stackTraceLimit: number;
beforeAll(() => {
  stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
});
afterAll(() => {
  Error.stackTraceLimit = stackTraceLimit;
});

describe.each(ENCODING_NAMES)('%s round trip', (encoding) => {
  it('encodes a character only as bytes that decode back to it, alone and in running text', () => {
    const codec = resolveEncoding(encoding);
    const accepted: string[] = [];
    const chunks: Uint8Array[] = [];
    const lossy: string[] = [];
    const wrongError: string[] = [];
    for (const character of CHARACTERS) {
      let bytes: Uint8Array;
      try {
        bytes = codec.encode(character);
      } catch (error) {
        if (!LibosError.is(error, 'encode_failed')) wrongError.push(describeCharacter(character));
        continue;
      }
      let back: string | undefined;
      try {
        back = codec.decode(bytes, { truncated: false });
      } catch {}
      if (back !== character) lossy.push(describeCharacter(character));
      accepted.push(character);
      chunks.push(bytes);
    }
    expect(wrongError).toEqual([]);
    expect(lossy).toEqual([]);
    expect(accepted.length).toBeGreaterThan(encoding === 'ascii' ? 100 : 190);

    // The same characters in one text: an encoding must not depend on what stands next to it.
    // A byte order mark (utf-8-sig, utf-16) leads every encoding once: the empty text's bytes.
    const text = accepted.join('');
    const joined = codec.encode(text);
    const mark = codec.encode('');
    const bodies = chunks.map((chunk) => chunk.subarray(mark.length));
    expect(Buffer.compare(joined, Buffer.concat([mark, ...bodies]))).toBe(0);
    expect(codec.decode(joined, { truncated: false }) === text).toBe(true);
  }, 120_000);
});

describe('encoders Python makes lossy', () => {
  it.each([
    ['shift_jis', '¥', 'U+00A5'],
    ['shift_jis', '‾', 'U+203E'],
    ['euc-jp', '¥', 'U+00A5'],
    ['euc-jp', '‾', 'U+203E'],
    ['euc-kr', '\u3164', 'U+3164'],
  ])('%s refuses %s (%s) with encode_failed', (encoding, character, codePoint) => {
    const codec = resolveEncoding(encoding);
    expect(() => codec.encode(`ab${character}`)).toThrow(
      expect.objectContaining({ code: 'encode_failed', details: { encoding, character_index: 2, code_point: codePoint } }),
    );
  });

  it('still writes the characters those bytes do stand for', () => {
    expect(Buffer.from(resolveEncoding('shift_jis').encode('\\~')).toString('hex')).toBe('5c7e');
    expect(Buffer.from(resolveEncoding('euc-jp').encode('\\~')).toString('hex')).toBe('5c7e');
  });
});
