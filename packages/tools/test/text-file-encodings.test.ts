import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ENCODING_NAMES } from '../src/index.js';
import { createTestbed } from './support/harness.js';

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

// A short text each encoding can hold, with characters outside ASCII where it has any.
const SAMPLES: Record<string, string> = {
  'utf-8': 'héllo 😀 日本',
  'utf-8-sig': 'héllo 😀 日本',
  'utf-16': 'héllo 😀 日本',
  'utf-16-le': 'héllo 😀 日本',
  'utf-16-be': 'héllo 😀 日本',
  ascii: 'plain text',
  'latin-1': 'héllo ñ ß ÿ',
  cp1252: 'quotes “ ” € …',
  shift_jis: '日本語のテキスト',
  'euc-jp': '日本語のテキスト',
  gbk: '中文文本',
  gb18030: '中文文本 😀',
  big5: '繁體中文',
  'euc-kr': '한국어 텍스트',
  'koi8-r': 'Привет, мир',
};

describe('read_text_file and write_text_file across encodings', () => {
  it('round-trips a sample of every supported encoding, reporting the canonical name and the hash of the bytes', async () => {
    const bed = await createTestbed();
    expect(Object.keys(SAMPLES).sort()).toEqual([...ENCODING_NAMES].sort());
    for (const encoding of ENCODING_NAMES) {
      const path = `samples/${encoding}.txt`;
      const written = await bed.ok('write_text_file', { path, content: SAMPLES[encoding], encoding });
      const bytes = (await bed.fixtures.readFile(path))!;
      expect(written.bytes_written, encoding).toBe(bytes.length);
      expect(await bed.ok('read_text_file', { path, encoding }), encoding).toEqual({
        path,
        content: SAMPLES[encoding],
        encoding,
        bytes_read: bytes.length,
        truncated: false,
        content_sha256: sha256(bytes),
      });
    }
  });

  it('writes one BOM under utf-8-sig and removes it on read; utf-8 keeps it as U+FEFF', async () => {
    const bed = await createTestbed();
    expect(await bed.ok('write_text_file', { path: 'sig.txt', content: 'x', encoding: 'utf-8-sig' })).toMatchObject({ bytes_written: 4 });
    expect(await bed.fixtures.readFile('sig.txt')).toEqual(new Uint8Array([0xef, 0xbb, 0xbf, 0x78]));
    expect(await bed.ok('read_text_file', { path: 'sig.txt', encoding: 'utf-8-sig' })).toMatchObject({ content: 'x', bytes_read: 4 });
    expect(await bed.ok('read_text_file', { path: 'sig.txt', encoding: 'utf-8' })).toMatchObject({ content: '\ufeffx' });
  });

  it('writes utf-16 as FF FE then little-endian, and counts the BOM', async () => {
    const bed = await createTestbed();
    expect(await bed.ok('write_text_file', { path: 'u16.txt', content: 'hi', encoding: 'utf-16' })).toMatchObject({ bytes_written: 6 });
    expect(await bed.fixtures.readFile('u16.txt')).toEqual(new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]));
    await bed.fixtures.writeFile('be.txt', new Uint8Array([0xfe, 0xff, 0x00, 0x68]));
    expect(await bed.ok('read_text_file', { path: 'be.txt', encoding: 'UTF-16' })).toMatchObject({ content: 'h', encoding: 'utf-16' });
  });

  it('resolves aliases to the canonical name', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('l1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
    for (const encoding of ['latin1', 'iso-8859-1', 'LATIN-1']) {
      expect(await bed.ok('read_text_file', { path: 'l1.txt', encoding })).toMatchObject({ content: 'café', encoding: 'latin-1' });
    }
  });

  it('fails with encode_failed for a character the encoding cannot hold, touching nothing', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('keep.txt', 'old');
    for (const [encoding, content] of [
      ['ascii', 'café'],
      ['latin-1', '€'],
      ['koi8-r', '日本'],
      ['shift_jis', '😀'],
    ] as const) {
      expect(await bed.fail('write_text_file', { path: 'keep.txt', content, encoding }), encoding).toMatchObject({
        code: 'encode_failed',
        effect: 'none',
      });
    }
    expect(new TextDecoder().decode((await bed.fixtures.readFile('keep.txt'))!)).toBe('old');
  });

  it('decodes strictly and drops only a character cut by truncation', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('high.bin', new Uint8Array([0x61, 0x80]));
    expect(await bed.fail('read_text_file', { path: 'high.bin', encoding: 'ascii' })).toMatchObject({ code: 'decode_failed' });
    await bed.fixtures.writeFile('le.bin', new Uint8Array([0x61, 0x00, 0x62, 0x00, 0x63]));
    expect(await bed.fail('read_text_file', { path: 'le.bin', encoding: 'utf-16-le' })).toMatchObject({ code: 'decode_failed' });
    expect(await bed.ok('read_text_file', { path: 'le.bin', encoding: 'utf-16-le', max_bytes: 3 })).toMatchObject({
      content: 'a',
      bytes_read: 3,
      truncated: true,
      content_sha256: null,
    });
    await bed.fixtures.writeFile('sjis.bin', new Uint8Array([0x61, 0x93, 0xfa]));
    expect(await bed.ok('read_text_file', { path: 'sjis.bin', encoding: 'shift_jis', max_bytes: 2 })).toMatchObject({
      content: 'a',
      bytes_read: 2,
      truncated: true,
    });
    expect(await bed.ok('read_text_file', { path: 'sjis.bin', encoding: 'shift_jis' })).toMatchObject({ content: 'a日', truncated: false });
  });
});
