import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestbed } from './support/harness.js';

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

describe('read_text_file', () => {
  it('reads a whole file with its hash', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('notes/a.txt', 'héllo\nwörld\n');
    expect(await bed.ok('read_text_file', { path: 'notes/a.txt' })).toEqual({
      path: 'notes/a.txt',
      content: 'héllo\nwörld\n',
      encoding: 'utf-8',
      bytes_read: 14,
      truncated: false,
      content_sha256: sha256('héllo\nwörld\n'),
    });
  });

  it('reads an empty file', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('empty', '');
    expect(await bed.ok('read_text_file', { path: 'empty' })).toEqual({
      path: 'empty',
      content: '',
      encoding: 'utf-8',
      bytes_read: 0,
      truncated: false,
      content_sha256: sha256(''),
    });
  });

  it('reports the canonical name of the codec for an alias', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('a.txt', 'x');
    for (const encoding of ['UTF-8', 'utf8', 'Utf8']) {
      expect(await bed.ok('read_text_file', { path: 'a.txt', encoding })).toMatchObject({ encoding: 'utf-8' });
    }
  });

  it('reads a prefix of at most max_bytes and drops the hash when truncated', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('a.txt', 'abcdef');
    expect(await bed.ok('read_text_file', { path: 'a.txt', max_bytes: 4 })).toEqual({
      path: 'a.txt',
      content: 'abcd',
      encoding: 'utf-8',
      bytes_read: 4,
      truncated: true,
      content_sha256: null,
    });
    expect(await bed.ok('read_text_file', { path: 'a.txt', max_bytes: 6 })).toMatchObject({
      content: 'abcdef',
      truncated: false,
      content_sha256: sha256('abcdef'),
    });
    expect(await bed.ok('read_text_file', { path: 'a.txt', max_bytes: 1 })).toMatchObject({ content: 'a', bytes_read: 1, truncated: true });
  });

  it('uses bounds.read_max_bytes_default when max_bytes is not given', async () => {
    const bed = await createTestbed({ config: { bounds: { read_max_bytes_default: 3 } } });
    await bed.fixtures.writeFile('a.txt', 'abcdef');
    expect(await bed.ok('read_text_file', { path: 'a.txt' })).toMatchObject({ content: 'abc', bytes_read: 3, truncated: true });
  });

  it('drops a character cut by truncation but counts its bytes', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('a.txt', 'a€b'); // € is E2 82 AC
    expect(await bed.ok('read_text_file', { path: 'a.txt', max_bytes: 2 })).toMatchObject({ content: 'a', bytes_read: 2, truncated: true });
    expect(await bed.ok('read_text_file', { path: 'a.txt', max_bytes: 3 })).toMatchObject({ content: 'a', bytes_read: 3, truncated: true });
    expect(await bed.ok('read_text_file', { path: 'a.txt', max_bytes: 4 })).toMatchObject({ content: 'a€', bytes_read: 4, truncated: true });
  });

  it('fails with decode_failed on invalid bytes, truncated or not', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('bad.bin', new Uint8Array([0x61, 0xff, 0x62, 0x63]));
    await bed.fixtures.writeFile('cut.bin', new Uint8Array([0x61, 0xe2, 0x82]));
    expect(await bed.fail('read_text_file', { path: 'bad.bin' })).toMatchObject({ code: 'decode_failed', effect: 'none' });
    expect(await bed.fail('read_text_file', { path: 'bad.bin', max_bytes: 3 })).toMatchObject({ code: 'decode_failed' });
    // Not truncated: an incomplete character at the end of the whole file is invalid.
    expect(await bed.fail('read_text_file', { path: 'cut.bin' })).toMatchObject({ code: 'decode_failed' });
    expect(await bed.ok('read_text_file', { path: 'bad.bin', max_bytes: 1 })).toMatchObject({ content: 'a', truncated: true });
  });

  it('keeps a UTF-8 byte-order mark as U+FEFF under utf-8', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('bom.txt', new Uint8Array([0xef, 0xbb, 0xbf, 0x78]));
    expect(await bed.ok('read_text_file', { path: 'bom.txt' })).toMatchObject({ content: '\ufeffx', bytes_read: 4 });
  });

  it('checks the encoding before anything is read', async () => {
    const bed = await createTestbed();
    expect(await bed.fail('read_text_file', { path: 'missing.txt', encoding: 'utf-32' })).toMatchObject({
      code: 'unsupported_encoding',
      effect: 'none',
    });
  });

  it('reads regular files only and never follows links', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('file.txt', 'x');
    await bed.fixtures.makeDirectory('dir');
    await bed.fixtures.symlink('link.txt', 'file.txt');
    await bed.fixtures.symlink('dirlink', 'dir');
    await bed.fixtures.writeFile('dir/inner.txt', 'y');
    await bed.fixtures.symlink('escape.txt', bed.fixtures.outside.fileTarget('.'));
    await bed.fixtures.hardLink('file.txt', 'twin.txt');
    await bed.fixtures.fifo('pipe');
    const cases: [string, string][] = [
      ['missing.txt', 'not_found'],
      ['dir', 'not_a_file'],
      ['.', 'not_a_file'],
      ['pipe', 'not_a_file'],
      ['link.txt', 'symlink_refused'],
      ['dirlink/inner.txt', 'symlink_refused'],
      ['escape.txt', 'symlink_refused'],
      ['twin.txt', 'hard_link_refused'],
      ['file.txt', 'hard_link_refused'],
      ['twin.txt/x', 'not_a_directory'],
      ['../x', 'outside_workspace'],
      ['.git/config', 'protected_path'],
      ['.Git./HEAD', 'protected_path'],
      ['.git::$INDEX_ALLOCATION/x', 'protected_path'],
    ];
    for (const [path, code] of cases) {
      const error = await bed.fail('read_text_file', { path });
      expect(error, path).toMatchObject({ code, effect: 'none' });
      expect(JSON.stringify(error)).not.toContain('OUTSIDE');
    }
  });
});
