import type { FileSystemProviderV1, WorkspacePath } from '@libos/core';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../src/index.js';
import { checkedCall, createTestbed, text } from './support/harness.js';
import { sha256 } from './support/authority-runtime-testbed.js';

const edit = (old_text: string, new_text: string, replace_all?: boolean) =>
  replace_all === undefined ? { old_text, new_text } : { old_text, new_text, replace_all };

describe('edit_text_file', () => {
  it('replaces one exact occurrence and reports the new hash and a unified diff', async () => {
    const bed = await createTestbed();
    const before = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n';
    await bed.fixtures.writeFile('notes.txt', before);
    const result = await bed.ok('edit_text_file', { path: './notes.txt', edits: [edit('five', 'FIVE')] });
    const after = before.replace('five', 'FIVE');
    expect(result).toEqual({
      path: 'notes.txt',
      bytes_written: after.length,
      replacements: 1,
      content_sha256: sha256(after),
      diff: '--- a/notes.txt\n+++ b/notes.txt\n@@ -2,7 +2,7 @@\n two\n three\n four\n-five\n+FIVE\n six\n seven\n eight\n',
      diff_truncated: false,
    });
    expect(text(await bed.fixtures.readFile('notes.txt'))).toBe(after);
  });

  it('applies edits in order, each on the text the previous one made', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('a.txt', 'alpha beta');
    const result = await bed.ok('edit_text_file', { path: 'a.txt', edits: [edit('alpha', 'gamma'), edit('gamma beta', 'delta')] });
    expect(result).toMatchObject({ replacements: 2 });
    expect(text(await bed.fixtures.readFile('a.txt'))).toBe('delta');
  });

  it('with replace_all replaces every non-overlapping occurrence from the left', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('a.txt', 'aaaaa x aa');
    const result = await bed.ok('edit_text_file', { path: 'a.txt', edits: [edit('aa', 'b', true)] });
    expect(result).toMatchObject({ replacements: 3 });
    expect(text(await bed.fixtures.readFile('a.txt'))).toBe('bba x b');
  });

  it.each([
    ['missing text', 'abc abc', [edit('zzz', 'y')], 0, 0],
    ['a repeated text', 'abc abc', [edit('abc', 'y')], 0, 2],
    ['an overlapping text', 'aaa', [edit('aa', 'y')], 0, 2],
    ['a later edit that no longer matches', 'abc', [edit('abc', 'xyz'), edit('abc', 'q')], 1, 0],
    ['replace_all finding nothing', 'abc', [edit('q', 'r', true)], 0, 0],
  ])('fails with edit_mismatch for %s, naming the edit and its count, and changes nothing', async (_name, content, edits, index, count) => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('a.txt', content);
    const error = await bed.fail('edit_text_file', { path: 'a.txt', edits });
    expect(error).toMatchObject({ code: 'edit_mismatch', effect: 'none', details: { edit: index, occurrences: count } });
    expect(error.message).toContain(`edits[${index}]`);
    expect(text(await bed.fixtures.readFile('a.txt'))).toBe(content);
  });

  it('keeps CRLF line endings, a UTF-8 BOM and every byte outside the edit', async () => {
    const bed = await createTestbed();
    const before = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('first\r\nsecond\r\nthird')]);
    await bed.fixtures.writeFile('w.txt', before);
    const result = await bed.ok('edit_text_file', { path: 'w.txt', edits: [edit('second', '2nd')] });
    const expected = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('first\r\n2nd\r\nthird')]);
    expect(await bed.fixtures.readFile('w.txt')).toEqual(expected);
    expect(result.diff).toBe('--- a/w.txt\n+++ b/w.txt\n@@ -1,3 +1,3 @@\n \ufefffirst\r\n-second\r\n+2nd\r\n third\n\\ No newline at end of file\n');
  });

  it('keeps the byte order and mark of a UTF-16 file, and adds no mark under utf-8-sig', async () => {
    const bed = await createTestbed();
    const be = new Uint8Array([0xfe, 0xff, 0x00, 0x61, 0x00, 0x62]);
    await bed.fixtures.writeFile('be.txt', be);
    await bed.ok('edit_text_file', { path: 'be.txt', edits: [edit('b', 'c')], encoding: 'utf-16' });
    expect(await bed.fixtures.readFile('be.txt')).toEqual(new Uint8Array([0xfe, 0xff, 0x00, 0x61, 0x00, 0x63]));
    await bed.fixtures.writeFile('plain.txt', 'abc');
    await bed.ok('edit_text_file', { path: 'plain.txt', edits: [edit('b', 'x')], encoding: 'utf-8-sig' });
    expect(text(await bed.fixtures.readFile('plain.txt'))).toBe('axc');
  });

  it('edits a legacy encoding strictly: undecodable bytes fail, unencodable text fails, nothing changes', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('l.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
    await bed.ok('edit_text_file', { path: 'l.txt', edits: [edit('café', 'thé')], encoding: 'latin-1' });
    expect(await bed.fixtures.readFile('l.txt')).toEqual(new Uint8Array([0x74, 0x68, 0xe9]));
    expect(await bed.fail('edit_text_file', { path: 'l.txt', edits: [edit('th', '日本')], encoding: 'latin-1' })).toMatchObject({
      code: 'encode_failed',
      effect: 'none',
    });
    expect(await bed.fail('edit_text_file', { path: 'l.txt', edits: [edit('th', 'x')] })).toMatchObject({ code: 'decode_failed', effect: 'none' });
    expect(await bed.fixtures.readFile('l.txt')).toEqual(new Uint8Array([0x74, 0x68, 0xe9]));
  });

  it('keeps the mode bits of the file it replaces', async () => {
    const { provider, fixtures, volume } = createMemfsTestbed();
    const runtime = await createRuntime({ provider });
    await fixtures.writeFile('run.sh', 'echo one\n');
    volume.chmodSync('/workspace/run.sh', 0o751);
    const outcome = await runtime.spawn().call('edit_text_file', { path: 'run.sh', edits: [edit('one', 'two')] });
    expect(outcome.ok).toBe(true);
    expect(Number(volume.statSync('/workspace/run.sh').mode) & 0o7777).toBe(0o751);
  });

  it('checks expected_content_sha256 against the bytes read', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('a.txt', 'abc');
    expect(await bed.fail('edit_text_file', { path: 'a.txt', edits: [edit('b', 'x')], expected_content_sha256: sha256('other') })).toMatchObject({
      code: 'content_conflict',
      effect: 'none',
    });
    expect(text(await bed.fixtures.readFile('a.txt'))).toBe('abc');
    await bed.ok('edit_text_file', { path: 'a.txt', edits: [edit('b', 'x')], expected_content_sha256: sha256('abc') });
    expect(text(await bed.fixtures.readFile('a.txt'))).toBe('axc');
  });

  it.each([
    ['a missing file', async () => {}, 'missing.txt', 'not_found'],
    ['a directory', async (bed: Awaited<ReturnType<typeof createTestbed>>) => bed.fixtures.makeDirectory('d'), 'd', 'not_a_file'],
    ['a FIFO', async (bed: Awaited<ReturnType<typeof createTestbed>>) => bed.fixtures.fifo('pipe'), 'pipe', 'not_a_file'],
    [
      'a symlink to an outside file',
      async (bed: Awaited<ReturnType<typeof createTestbed>>) => bed.fixtures.symlink('ln', bed.fixtures.outside.fileTarget('.')),
      'ln',
      'symlink_refused',
    ],
    [
      'a file behind a directory symlink',
      async (bed: Awaited<ReturnType<typeof createTestbed>>) => bed.fixtures.symlink('dl', bed.fixtures.outside.directoryTarget('.')),
      'dl/secret.txt',
      'symlink_refused',
    ],
    [
      'a hard-linked file',
      async (bed: Awaited<ReturnType<typeof createTestbed>>) => bed.fixtures.outside.hardLinkFromOutside('hl.txt'),
      'hl.txt',
      'hard_link_refused',
    ],
  ] as const)('refuses %s and the outside stays as it was', async (_name, setup, path, code) => {
    const bed = await createTestbed();
    await setup(bed);
    const outside = await bed.fixtures.outside.fingerprint();
    expect(await bed.fail('edit_text_file', { path, edits: [edit('OUTSIDE', 'INSIDE')] })).toMatchObject({ code, effect: 'none' });
    expect(await bed.fixtures.outside.fingerprint()).toBe(outside);
  });

  it.each([
    [{ path: '.git/config', edits: [edit('a', 'b')] }, 'protected_path'],
    [{ path: '.GIT./config', edits: [edit('a', 'b')] }, 'protected_path'],
    [{ path: '../x', edits: [edit('a', 'b')] }, 'outside_workspace'],
    [{ path: '/etc/passwd', edits: [edit('a', 'b')] }, 'invalid_path'],
    [{ path: 'a.txt', edits: [] }, 'invalid_arguments'],
    [{ path: 'a.txt', edits: Array.from({ length: 101 }, () => edit('a', 'b')) }, 'invalid_arguments'],
    [{ path: 'a.txt', edits: [edit('', 'b')] }, 'invalid_arguments'],
    [{ path: 'a.txt', edits: [{ old_text: 'a', new_text: 'b', replace_all: 1 }] }, 'invalid_arguments'],
    [{ path: 'a.txt', edits: [{ old_text: 'a', new_text: 'b', extra: true }] }, 'invalid_arguments'],
    [{ path: 'a.txt', edits: [edit('a', 'b')], expected_content_sha256: 'missing' }, 'invalid_arguments'],
    [{ path: 'a.txt', edits: [edit('a', 'b')], encoding: 'klingon' }, 'unsupported_encoding'],
  ])('refuses %j with %s before touching anything', async (args, code) => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('a.txt', 'a');
    expect(await bed.fail('edit_text_file', args)).toMatchObject({ code, effect: 'none' });
    expect(text(await bed.fixtures.readFile('a.txt'))).toBe('a');
  });

  it('refuses a file over bounds.edit_max_bytes, and an edit that would grow past it', async () => {
    const bed = await createTestbed({ config: { bounds: { edit_max_bytes: 16 } } });
    await bed.fixtures.writeFile('big.txt', 'x'.repeat(17));
    expect(await bed.fail('edit_text_file', { path: 'big.txt', edits: [edit('x', 'y', true)] })).toMatchObject({ code: 'too_large', effect: 'none' });
    await bed.fixtures.writeFile('small.txt', 'ab');
    expect(await bed.fail('edit_text_file', { path: 'small.txt', edits: [edit('a', 'a'.repeat(20))] })).toMatchObject({
      code: 'too_large',
      effect: 'none',
    });
    // A one-character pattern with a long replacement is measured before it is built.
    expect(await bed.fail('edit_text_file', { path: 'small.txt', edits: [edit('b', 'b'.repeat(1000), true)] })).toMatchObject({ code: 'too_large' });
    expect(text(await bed.fixtures.readFile('small.txt'))).toBe('ab');
  });

  it('cuts the diff to fit result_max_bytes and says so, while the edit lands whole', async () => {
    const bed = await createTestbed({ config: { bounds: { result_max_bytes: 600 } } });
    const lines = Array.from({ length: 200 }, (_, index) => `line ${index}`).join('\n');
    await bed.fixtures.writeFile('many.txt', lines);
    const result = await bed.ok('edit_text_file', { path: 'many.txt', edits: [edit('line', 'LINE', true)] });
    expect(result.diff_truncated).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThanOrEqual(600);
    expect(String(result.diff).startsWith('--- a/many.txt\n+++ b/many.txt\n@@ -1,200 +1,200 @@\n-line 0\n')).toBe(true);
    expect(text(await bed.fixtures.readFile('many.txt'))).toBe(lines.replaceAll('line', 'LINE'));
  });

  it('quotes a hostile file name in the diff header so it cannot fake diff lines', async () => {
    const bed = await createTestbed();
    const name = 'x\n+++ b/evil\n@@ -1 +1 @@';
    await bed.fixtures.writeFile(name, 'a\n');
    const result = await bed.ok('edit_text_file', { path: name, edits: [edit('a', 'b')] });
    expect(String(result.diff).split('\n').slice(0, 2)).toEqual([`--- ${JSON.stringify(`a/${name}`)}`, `+++ ${JSON.stringify(`b/${name}`)}`]);
  });

  it("never loses a concurrent agent's update: of two edits made from the same bytes, one lands and the other is content_conflict", async () => {
    const { provider, fixtures } = createMemfsTestbed();
    await fixtures.writeFile('shared.txt', 'alpha\nbeta\n');
    // Both agents read before either writes: the interleaving that loses an update without the hash check.
    let reads = 0;
    let bothRead!: () => void;
    const barrier = new Promise<void>((resolve) => (bothRead = resolve));
    const racing: FileSystemProviderV1 = Object.create(provider, {
      readFile: {
        value: async (path: WorkspacePath, options: { maxBytes: number }) => {
          const read = await provider.readFile(path, options);
          if (++reads === 2) bothRead();
          await barrier;
          return read;
        },
      },
    });
    const runtime = await createRuntime({ provider: racing });
    const [one, two] = [runtime.spawn(), runtime.spawn()];
    const outcomes = await Promise.all([
      checkedCall(runtime, one, 'edit_text_file', { path: 'shared.txt', edits: [edit('alpha', 'ALPHA')] }),
      checkedCall(runtime, two, 'edit_text_file', { path: 'shared.txt', edits: [edit('beta', 'BETA')] }),
    ]);
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok && outcome.error.code === 'content_conflict' && outcome.error.effect === 'none')).toHaveLength(1);
    const landed = text(await fixtures.readFile('shared.txt'));
    expect(['ALPHA\nbeta\n', 'alpha\nBETA\n']).toContain(landed);
    // The loser retries on fresh bytes and both changes are there.
    const loser = outcomes[0]!.ok ? two : one;
    const retry = outcomes[0]!.ok ? edit('beta', 'BETA') : edit('alpha', 'ALPHA');
    expect((await loser.call('edit_text_file', { path: 'shared.txt', edits: [retry] })).ok).toBe(true);
    expect(text(await fixtures.readFile('shared.txt'))).toBe('ALPHA\nBETA\n');
  });
});
