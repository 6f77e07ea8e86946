import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestbed, text } from './support/harness.js';

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

describe('write_text_file', () => {
  it('creates a file and its missing parents', async () => {
    const bed = await createTestbed();
    expect(await bed.ok('write_text_file', { path: 'a/b/c.txt', content: 'héllo' })).toEqual({
      path: 'a/b/c.txt',
      bytes_written: 6,
      created: true,
    });
    expect(text(await bed.fixtures.readFile('a/b/c.txt'))).toBe('héllo');
    expect(await bed.fixtures.kindOf('a/b')).toBe('directory');
  });

  it('replaces the whole content of an existing file', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('a.txt', 'a long original content');
    expect(await bed.ok('write_text_file', { path: 'a.txt', content: 'short' })).toEqual({ path: 'a.txt', bytes_written: 5, created: false });
    expect(text(await bed.fixtures.readFile('a.txt'))).toBe('short');
  });

  it('writes an empty file', async () => {
    const bed = await createTestbed();
    expect(await bed.ok('write_text_file', { path: 'e', content: '' })).toEqual({ path: 'e', bytes_written: 0, created: true });
    expect(await bed.fixtures.readFile('e')).toEqual(new Uint8Array());
  });

  it('counts encoded bytes, a byte-order mark included', async () => {
    const bed = await createTestbed();
    expect(await bed.ok('write_text_file', { path: 'bom.txt', content: '\ufeffx€' })).toMatchObject({ bytes_written: 7 });
    expect(await bed.fixtures.readFile('bom.txt')).toEqual(new Uint8Array([0xef, 0xbb, 0xbf, 0x78, 0xe2, 0x82, 0xac]));
  });

  it('encodes first: encode_failed touches nothing', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('keep.txt', 'old');
    for (const path of ['keep.txt', 'new/dir/file.txt']) {
      expect(await bed.fail('write_text_file', { path, content: 'bad \udc00 text' })).toMatchObject({ code: 'encode_failed', effect: 'none' });
    }
    expect(text(await bed.fixtures.readFile('keep.txt'))).toBe('old');
    expect(await bed.fixtures.kindOf('new')).toBe('missing');
  });

  it('refuses an unsupported encoding before anything is touched', async () => {
    const bed = await createTestbed();
    expect(await bed.fail('write_text_file', { path: 'n/x.txt', content: 'x', encoding: 'klingon' })).toMatchObject({
      code: 'unsupported_encoding',
      effect: 'none',
    });
    expect(await bed.fixtures.kindOf('n')).toBe('missing');
  });

  it('with overwrite false creates a missing file and refuses an existing one', async () => {
    const bed = await createTestbed();
    expect(await bed.ok('write_text_file', { path: 'a.txt', content: 'first', overwrite: false })).toMatchObject({ created: true });
    expect(await bed.fail('write_text_file', { path: 'a.txt', content: 'second', overwrite: false })).toMatchObject({
      code: 'already_exists',
      effect: 'none',
    });
    expect(text(await bed.fixtures.readFile('a.txt'))).toBe('first');
  });

  it('lets exactly one of two racing exclusive creators win', async () => {
    const bed = await createTestbed();
    const outcomes = await Promise.all(['one', 'two'].map((content) => bed.call('write_text_file', { path: 'race.txt', content, overwrite: false })));
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.error.code === 'already_exists')).toHaveLength(1);
  });

  it('refuses a directory with not_a_file, even when another rule would refuse too', async () => {
    const bed = await createTestbed();
    await bed.fixtures.makeDirectory('dir');
    for (const args of [
      { path: 'dir', content: 'x' },
      { path: 'dir', content: 'x', overwrite: false },
      { path: 'dir', content: 'x', expected_content_sha256: 'missing' },
      { path: '.', content: 'x' },
    ]) {
      expect(await bed.fail('write_text_file', args), JSON.stringify(args)).toMatchObject({ code: 'not_a_file', effect: 'none' });
    }
    expect(await bed.fixtures.kindOf('dir')).toBe('directory');
  });

  it('expected_content_sha256 "missing" requires that no file exists', async () => {
    const bed = await createTestbed();
    expect(await bed.ok('write_text_file', { path: 'a.txt', content: 'one', expected_content_sha256: 'missing' })).toMatchObject({
      created: true,
    });
    expect(await bed.fail('write_text_file', { path: 'a.txt', content: 'two', expected_content_sha256: 'missing' })).toMatchObject({
      code: 'content_conflict',
      effect: 'none',
    });
    expect(text(await bed.fixtures.readFile('a.txt'))).toBe('one');
  });

  it('expected_content_sha256 as a hash requires the current bytes to match', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('a.txt', 'v1');
    const read = await bed.ok('read_text_file', { path: 'a.txt' });
    expect(read.content_sha256).toBe(sha256('v1'));
    expect(await bed.ok('write_text_file', { path: 'a.txt', content: 'v2', expected_content_sha256: read.content_sha256 })).toMatchObject({
      created: false,
    });
    expect(await bed.fail('write_text_file', { path: 'a.txt', content: 'v3', expected_content_sha256: read.content_sha256 })).toMatchObject({
      code: 'content_conflict',
      effect: 'none',
    });
    expect(text(await bed.fixtures.readFile('a.txt'))).toBe('v2');
    expect(await bed.fail('write_text_file', { path: 'new.txt', content: 'x', expected_content_sha256: sha256('') })).toMatchObject({
      code: 'content_conflict',
    });
    expect(await bed.fixtures.kindOf('new.txt')).toBe('missing');
  });

  it('refuses an expected_content_sha256 that is neither "missing" nor 64 lowercase hex', async () => {
    const bed = await createTestbed();
    for (const expected of ['MISSING', sha256('x').toUpperCase(), sha256('x').slice(1), `${sha256('x')}0`, '', 'g'.repeat(64), null, 5]) {
      expect(await bed.fail('write_text_file', { path: 'a.txt', content: 'x', expected_content_sha256: expected })).toMatchObject({
        code: 'invalid_arguments',
      });
    }
    expect(await bed.fixtures.kindOf('a.txt')).toBe('missing');
  });

  it('never writes through a link and refuses hard-linked files', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('real/file.txt', 'real');
    await bed.fixtures.symlink('link.txt', 'real/file.txt');
    await bed.fixtures.symlink('dirlink', 'real');
    await bed.fixtures.symlink('dangling.txt', 'nowhere.txt');
    await bed.fixtures.symlink('out', bed.fixtures.outside.directoryTarget('.'));
    await bed.fixtures.writeFile('twin-a', 'twin');
    await bed.fixtures.hardLink('twin-a', 'twin-b');
    await bed.fixtures.writeFile('plain', 'p');
    const before = await bed.fixtures.outside.fingerprint();
    const cases: [string, string][] = [
      ['link.txt', 'symlink_refused'],
      ['dirlink/file.txt', 'symlink_refused'],
      ['dirlink/new.txt', 'symlink_refused'],
      ['dangling.txt', 'symlink_refused'],
      ['out/secret.txt', 'symlink_refused'],
      ['out/new/deep.txt', 'symlink_refused'],
      ['twin-b', 'hard_link_refused'],
      ['plain/child.txt', 'not_a_directory'],
    ];
    for (const [path, code] of cases) {
      expect(await bed.fail('write_text_file', { path, content: 'x' }), path).toMatchObject({ code });
    }
    expect(text(await bed.fixtures.readFile('real/file.txt'))).toBe('real');
    expect(text(await bed.fixtures.readFile('twin-a'))).toBe('twin');
    expect(await bed.fixtures.kindOf('nowhere.txt')).toBe('missing');
    expect(await bed.fixtures.outside.fingerprint()).toBe(before);
  });

  it('refuses protected and outside paths before anything is touched', async () => {
    const bed = await createTestbed();
    for (const [path, code] of [
      ['.git/hooks/pre-commit', 'protected_path'],
      ['sub/git~1/x', 'protected_path'],
      ['../escape.txt', 'outside_workspace'],
      ['/tmp/x', 'invalid_path'],
    ] as const) {
      expect(await bed.fail('write_text_file', { path, content: 'x' })).toMatchObject({ code, effect: 'none' });
    }
    expect(await bed.ok('read_directory', { path: '.' })).toMatchObject({ count: 0 });
  });
});
