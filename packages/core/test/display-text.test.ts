import { describe, expect, it } from 'vitest';
import { escapeForDisplay } from '../src/display-text.js';

describe('escapeForDisplay', () => {
  it.each([
    ['CR', 'public/notes.txt\rprivate', 'public/notes.txt\\rprivate'],
    ['LF', 'a\nb', 'a\\nb'],
    ['TAB', 'a\tb', 'a\\tb'],
    ['ESC (an ANSI colour or cursor move)', 'x\u001b[2K\u001b[1Gy', 'x\\u{001B}[2K\\u{001B}[1Gy'],
    ['NUL and DEL', '\u0000\u007f', '\\u{0000}\\u{007F}'],
    ['NEL', 'a\u0085b', 'a\\u{0085}b'],
    ['U+2028 and U+2029', 'a\u2028b\u2029c', 'a\\u{2028}b\\u{2029}c'],
    ['U+202E (right-to-left override)', 'txt.\u202Eexe', 'txt.\\u{202E}exe'],
    ['U+2066..U+2069 (isolates)', '\u2066a\u2067b\u2068c\u2069', '\\u{2066}a\\u{2067}b\\u{2068}c\\u{2069}'],
    ['ZWJ, ZWNJ, ZWSP, word joiner', 'a\u200Db\u200Cc\u200Bd\u2060e', 'a\\u{200D}b\\u{200C}c\\u{200B}d\\u{2060}e'],
    ['LRM, RLM, ALM', 'a\u200Eb\u200Fc\u061Cd', 'a\\u{200E}b\\u{200F}c\\u{061C}d'],
    ['the BOM and soft hyphen', '\uFEFFa\u00ADb', '\\u{FEFF}a\\u{00AD}b'],
    ['tag characters (invisible ASCII)', 'ok\u{E0072}\u{E006D}', 'ok\\u{E0072}\\u{E006D}'],
    [
      'variation selectors, CGJ, Hangul fillers, Mongolian vowel separator',
      'a\uFE0Fb\u034Fc\u3164d\u115Fe\u180Ef\u{E0100}',
      'a\\u{FE0F}b\\u{034F}c\\u{3164}d\\u{115F}e\\u{180E}f\\u{E0100}',
    ],
    ['a lone surrogate', 'a\uD800b', 'a\\u{D800}b'],
    ['an unassigned code point', 'a\u{50000}b', 'a\\u{50000}b'],
    ['a backslash (so escapes stay unambiguous)', 'C:\\u{202E}', 'C:\\\\u{202E}'],
  ])('escapes %s', (_label, text, shown) => {
    expect(escapeForDisplay(text)).toBe(shown);
  });

  it('escapes every default-ignorable code point, whatever the plane', () => {
    for (let code = 0; code <= 0x10ffff; code += 1) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const character = String.fromCodePoint(code);
      if (/\p{Default_Ignorable_Code_Point}/u.test(character)) expect(escapeForDisplay(character)).toMatch(/^\\u\{[0-9A-F]{4,6}\}$/u);
    }
  });

  it('leaves printable text alone: accents, CJK, emoji (a ZWJ sequence shows its joiners)', () => {
    expect(escapeForDisplay('plain ünïcödé 日本語 😀 "q"')).toBe('plain ünïcödé 日本語 😀 "q"');
    expect(escapeForDisplay('👩\u200D💻')).toBe('👩\\u{200D}💻');
  });

  it('makes two different texts look different', () => {
    const spoof = 'private/keys\r\u001b[2Kpublic/notes.txt';
    expect(escapeForDisplay(spoof)).not.toContain('\r');
    expect(escapeForDisplay(spoof)).toMatch(/^private\/keys\\r\\u\{001B\}\[2Kpublic/u);
    expect(escapeForDisplay('a\\u{000D}')).not.toBe(escapeForDisplay('a\r'));
  });

  it('escapes quotes only when asked, and keeps lines and backslashes in multiline mode', () => {
    expect(escapeForDisplay('say "x"', { quotes: true })).toBe('say \\"x\\"');
    expect(escapeForDisplay('line 1\n\tline 2 \\d\r\n\u001b[31m', { multiline: true })).toBe('line 1\n\tline 2 \\d\\r\n\\u{001B}[31m');
  });

  it('cuts at maxLength without cutting an escape or a surrogate pair', () => {
    expect(escapeForDisplay('x'.repeat(10), { maxLength: 4 })).toBe('xxxx');
    expect(escapeForDisplay('xx\u202E', { maxLength: 5 })).toBe('xx');
    expect(escapeForDisplay('x😀😀', { maxLength: 4 })).toBe('x😀');
  });
});
