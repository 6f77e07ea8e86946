import { describe, expect, it } from 'vitest';
import { mayHaveLookAlikes, nameKey, pathKey } from '../src/index.js';

describe('nameKey', () => {
  it('gives NFC and NFD spellings, and look-alike spaces, one key', () => {
    expect(nameKey('cafe\u0301.txt')).toBe(nameKey('caf\u00E9.txt'));
    expect(nameKey('a\u00A0b')).toBe('a b');
    expect(nameKey('a\u202Fb')).toBe('a b');
    expect(nameKey('\u212Aelvin')).toBe('Kelvin');
    // Not a case fold and not a compatibility fold: these stay distinct names.
    expect(nameKey('Cafe')).not.toBe(nameKey('cafe'));
    expect(nameKey('\uFB01le')).not.toBe(nameKey('file'));
  });

  it('keys each component of a path and keeps its separators', () => {
    expect(pathKey('cafe\u0301/x\u00A0y.txt')).toBe('caf\u00E9/x y.txt');
    expect(pathKey('.')).toBe('.');
  });

  it('says "no look-alike" only for names no other string can equal', () => {
    // Every code point outside ASCII whose key is ASCII must make its ASCII key a "may have look-alikes" name.
    for (let codePoint = 0x80; codePoint <= 0x10ffff; codePoint++) {
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
      const key = nameKey(String.fromCodePoint(codePoint));
      if (/^[\x20-\x7E]*$/.test(key)) expect(mayHaveLookAlikes(key), `U+${codePoint.toString(16)}`).toBe(true);
    }
    expect(mayHaveLookAlikes('src/index.ts')).toBe(false);
    expect(mayHaveLookAlikes('notes;v2')).toBe(true);
    expect(mayHaveLookAlikes('caf\u00E9')).toBe(true);
  });
});
