import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENCODING_NAMES, resolveEncoding } from '../src/index.js';
import { decodeFailure, decodeResult, encodeFailure, encodeResult, hex } from './encodings-test-helpers.js';

// Expectations checked against Python 3.11.7; the fixture file was written by scripts/generate-encodings.py.

interface CodecFixtures {
  readonly decode: readonly { readonly hex: string; readonly text?: string; readonly error?: number }[];
  readonly truncated: readonly { readonly hex: string; readonly text: string }[];
  readonly encode: readonly { readonly text: string; readonly hex?: string; readonly error?: number }[];
}

const fixtures = JSON.parse(readFileSync(new URL('./encodings-fixtures.json', import.meta.url), 'utf8')) as Record<string, CodecFixtures>;
const CJK = ['shift_jis', 'euc-jp', 'gbk', 'gb18030', 'big5', 'euc-kr'] as const;

describe.each(CJK)('%s against Python fixtures', (encoding) => {
  const cases = fixtures[encoding]!;

  it('decodes every fixture exactly (text, or failure at the same offset)', () => {
    expect(cases.decode.length).toBeGreaterThanOrEqual(300);
    for (const fixture of cases.decode) {
      const expected = fixture.error === undefined ? fixture.text : decodeFailure(encoding, fixture.error);
      expect([fixture.hex, decodeResult(encoding, fixture.hex)]).toEqual([fixture.hex, expected]);
    }
  });

  it('drops the cut end of valid text as Python does when truncated', () => {
    for (const fixture of cases.truncated) {
      expect([fixture.hex, decodeResult(encoding, fixture.hex, true)]).toEqual([fixture.hex, fixture.text]);
    }
  });

  it('encodes every fixture exactly (bytes, or failure at the same character)', () => {
    for (const fixture of cases.encode) {
      const result = encodeResult(encoding, fixture.text);
      if (fixture.error === undefined) expect([fixture.text, result]).toEqual([fixture.text, fixture.hex]);
      else expect(result).toMatchObject({ error: 'encode_failed', details: { character_index: fixture.error } });
    }
  });
});

describe('CJK codecs', () => {
  it('are all listed and resolved by their aliases', () => {
    expect(ENCODING_NAMES).toEqual([
      'utf-8',
      'utf-8-sig',
      'utf-16',
      'utf-16-le',
      'utf-16-be',
      'ascii',
      'latin-1',
      'cp1252',
      'shift_jis',
      'euc-jp',
      'gbk',
      'gb18030',
      'big5',
      'euc-kr',
      'koi8-r',
    ]);
    expect(resolveEncoding('SHIFT-JIS').name).toBe('shift_jis');
    expect(resolveEncoding('Shift_JIS').name).toBe('shift_jis');
    expect(resolveEncoding('EUC_JP').name).toBe('euc-jp');
    expect(resolveEncoding('euc_kr').name).toBe('euc-kr');
    expect(resolveEncoding('GB18030').name).toBe('gb18030');
    expect(resolveEncoding('BIG5').name).toBe('big5');
  });

  it.each([
    ['shift_jis', '日本語のテキスト、ｶﾀｶﾅ〜 ASCII\\~'],
    ['euc-jp', '日本語のテキスト、ｶﾀｶﾅ 丂 ~'],
    ['gbk', '中文文本，汉字。简体 繁體'],
    ['gb18030', '中文 😀 € ᠀ \ue78d \uffff 𠀀'],
    ['big5', '繁體中文，測試'],
    ['euc-kr', '한국어 텍스트 똠방각하 갂'],
  ])('%s round-trips representative text', (encoding, text) => {
    const codec = resolveEncoding(encoding);
    expect(codec.decode(codec.encode(text), { truncated: false })).toBe(text);
  });

  it.each([
    // Valid in Python although iconv-lite or ICU reject or remap them (note, section 8.2, 8.4, 8.6).
    ['big5', 'A2 A4', '═'],
    ['euc-jp', 'A1 C1', '〜'],
    ['shift_jis', '81 60', '〜'],
    ['gb18030', 'A3 A0', '\ue5e5'],
    ['gb18030', 'A6 D9 A8 BC', '\ue78d\ue7c7'],
    ['gb18030', '84 31 A4 37', '\ufffd'],
    ['gb18030', '84 31 A4 39', '\uffff'],
    ['gb18030', '84 31 81 30', '\ufe00'],
    ['gb18030', '90 30 81 30', '𐀀'],
    ['gb18030', 'E3 32 9A 35', '\u{10ffff}'],
    ['euc-kr', 'A2 E6 A2 E7', '€®'],
    ['shift_jis', '1A 1C 7F 5C 7E', '\u001a\u001c\u007f\\~'],
    // Two byte sequences for one text in Python's own codecs (section 8.3).
    ['euc-jp', '8F A2 B7 7E', '~~'],
    ['big5', 'A1 FE A2 41 A2 40 A2 42', '／／＼＼'],
    ['euc-kr', 'A4 D4 A4 A1 A4 BF A4 D4 B0 A1', '가가'],
    ['euc-kr', 'A4 D4 A4 A1 A4 BF A4 A2', '갂'],
  ])('%s decodes %s as Python does', (encoding, bytes, text) => {
    expect(decodeResult(encoding, bytes)).toBe(text);
  });

  it.each([
    // Invalid in Python although iconv-lite or ICU accept them (section 8.1, 8.4, 8.6).
    ['gbk', '80', 0],
    ['gbk', '41 FF', 1],
    ['shift_jis', '87 40', 0],
    ['euc-jp', 'AD A1', 0],
    ['big5', '87 40', 0],
    ['euc-kr', '81 41', 0],
    ['euc-kr', 'A4 D4', 0],
    ['euc-kr', '41 A4 D4 A4 A3 A4 BF A4 D4', 1],
    ['gb18030', 'E3 32 9A 36', 0],
    ['gb18030', '84 31 A5 30', 0],
    ['gb18030', '85 30 81 30', 0],
    ['gb18030', '41 80', 1],
  ])('%s refuses %s at offset %i', (encoding, bytes, offset) => {
    expect(decodeResult(encoding, bytes)).toEqual(decodeFailure(encoding, offset));
  });

  it.each([
    ['shift_jis', '41 81', 'A'],
    ['shift_jis', '41 EA', 'A'],
    ['euc-jp', '41 8E', 'A'],
    ['euc-jp', '41 8F', 'A'],
    ['euc-jp', '41 8F A2', 'A'],
    ['gbk', '41 81', 'A'],
    ['gb18030', '41 81 30', 'A'],
    ['gb18030', '41 81 30 81', 'A'],
    ['gb18030', '41 84 31', 'A'],
    ['gb18030', '41 90 30', 'A'],
    ['gb18030', '41 E3 32 9A', 'A'],
    ['big5', '41 A1', 'A'],
    ['big5', '41 F9', 'A'],
    ['euc-kr', '41 A4', 'A'],
    ['euc-kr', '41 A4 D4', 'A'],
    ['euc-kr', '41 A4 D4 A4 A1 A4 BF A4', 'A'],
  ])('%s truncated drops the proper prefix at the end of %s', (encoding, bytes, text) => {
    expect(decodeResult(encoding, bytes, true)).toBe(text);
  });

  it.each([
    // Python holds these back when reading incrementally; the contract's rule refuses them (section 8.7).
    ['shift_jis', '41 85', 1],
    ['shift_jis', '41 80', 1],
    ['euc-jp', '41 8F 43', 1],
    ['gbk', '41 FF', 1],
    ['gbk', '41 80', 1],
    ['gb18030', '41 F6 38', 1],
    ['gb18030', '41 84 32', 1],
    ['gb18030', '41 E3 33', 1],
    ['big5', '41 C8', 1],
    ['euc-kr', '41 A4 D4 41', 1],
    ['euc-kr', '41 A4 D4 A4 A3', 1],
    ['euc-kr', '41 A4 D4 A4 A1 A4 41', 1],
  ])('%s truncated refuses %s, which no valid sequence starts with', (encoding, bytes, offset) => {
    expect(decodeResult(encoding, bytes, true)).toEqual(decodeFailure(encoding, offset));
  });

  it.each([
    ['shift_jis', '\\~', '5c7e'],
    ['euc-kr', '\uac02똠', 'a4d4a4a1a4bfa4a2a4d4a4a8a4c7a4b1'],
    ['euc-kr', '가', 'b0a1'],
    ['big5', '═／＼十卅', 'a2a4a241a242a451a4ca'],
    ['gb18030', '😀€᠀\u3000', '9439fc36a2e38134d238a1a1'],
    ['gb18030', '\uffff\u{10ffff}', '8431a439e3329a35'],
  ])('%s encodes %j as Python does', (encoding, text, bytes) => {
    expect(encodeResult(encoding, text)).toBe(bytes);
  });

  it.each([
    ['shift_jis', '①', 0, 'U+2460'],
    // Python writes these as bytes that read back as `\\`, `~` and nothing: refused (they would not round-trip).
    ['shift_jis', 'a¥', 1, 'U+00A5'],
    ['euc-jp', '‾', 0, 'U+203E'],
    ['euc-kr', '가\u3164', 1, 'U+3164'],
    ['shift_jis', 'ab№', 2, 'U+2116'],
    ['euc-jp', '～', 0, 'U+FF5E'],
    ['gbk', '中€', 1, 'U+20AC'],
    ['gbk', '😀', 0, 'U+1F600'],
    ['big5', '繁😀', 1, 'U+1F600'],
    ['euc-kr', '한\u00e9', 1, 'U+00E9'],
    ['euc-jp', '日本\ud800', 2, 'U+D800'],
    ['gb18030', '😀\udfff', 1, 'U+DFFF'],
  ])('%s refuses to encode %j at character %i', (encoding, text, index, codePoint) => {
    expect(encodeResult(encoding, text)).toEqual(encodeFailure(encoding, index, codePoint));
  });

  it('grows its output for long text', () => {
    const codec = resolveEncoding('euc-kr');
    const text = '똠'.repeat(5000);
    const bytes = codec.encode(text);
    expect(bytes.length).toBe(40_000);
    expect(codec.decode(bytes, { truncated: false })).toBe(text);
    expect(codec.decode(hex('A4 D4 A4 A8'), { truncated: true })).toBe('');
  });
});
