import { Buffer } from 'node:buffer';
import type { FileSystemProviderV1, WorkspacePath } from '@libos/core';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../src/index.js';
import { checkedCall, createTestbed, text } from './support/harness.js';

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n');

describe('apply_patch', () => {
  it('adds, updates (with anchors), moves and deletes files in one call, returning each file and the diff', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('src/app.py', 'class A:\n    def run(self):\n        return 1\n\nclass B:\n    def run(self):\n        return 1\n');
    await bed.fixtures.writeFile('old.txt', 'gone\n');
    await bed.fixtures.writeFile('notes/a.md', 'one\ntwo\n');
    const result = await bed.ok('apply_patch', {
      patch: patch(
        '*** Add File: hello.txt',
        '+Hello',
        '+world',
        '*** Update File: src/app.py',
        '@@ class B:',
        '@@     def run(self):',
        '-        return 1',
        '+        return 2',
        '*** Delete File: old.txt',
        '*** Update File: notes/a.md',
        '*** Move to: notes/b.md',
        ' one',
        '-two',
        '+three',
      ),
    });
    expect(text(await bed.fixtures.readFile('hello.txt'))).toBe('Hello\nworld\n');
    expect(text(await bed.fixtures.readFile('src/app.py'))).toBe(
      'class A:\n    def run(self):\n        return 1\n\nclass B:\n    def run(self):\n        return 2\n',
    );
    expect(await bed.fixtures.kindOf('old.txt')).toBe('missing');
    expect(await bed.fixtures.kindOf('notes/a.md')).toBe('missing');
    expect(text(await bed.fixtures.readFile('notes/b.md'))).toBe('one\nthree\n');
    expect(
      (result.files as { path: string; operation: string; moved_to: string | null }[]).map((file) => [file.path, file.operation, file.moved_to]),
    ).toEqual([
      ['hello.txt', 'add', null],
      ['src/app.py', 'update', null],
      ['old.txt', 'delete', null],
      ['notes/a.md', 'update', 'notes/b.md'],
    ]);
    expect(result.diff).toContain('--- a/notes/a.md\n+++ b/notes/b.md\n');
    expect(result.diff).toContain('-        return 1\n+        return 2\n');
  });

  it.each([
    ['no begin line', '*** Update File: a.txt\n*** End Patch\n', 1],
    ['no end line', '*** Begin Patch\n*** Delete File: a.txt\n', 2],
    ['an unknown header', patch('*** Rename File: a.txt'), 2],
    ['an added line without +', patch('*** Add File: n.txt', '+ok', 'oops'), 4],
    ['a change line with a bad prefix', patch('*** Update File: a.txt', '@@', '*bad'), 4],
    ['an update with no change', patch('*** Update File: a.txt'), 2],
    ['a change of context only', patch('*** Update File: a.txt', ' one'), 4],
    ['text after the end', `${patch('*** Delete File: a.txt')}more\n`, 4],
    ['a file named twice', patch('*** Delete File: a.txt', '*** Add File: ./a.txt', '+x'), 3],
  ])('refuses a patch with %s as invalid_arguments naming the line, touching nothing', async (_name, body, line) => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('a.txt', 'one\n');
    const error = await bed.fail('apply_patch', { patch: body });
    expect(error).toMatchObject({ code: 'invalid_arguments', effect: 'none', details: { line } });
    expect(error.message).toContain(`line ${line}`);
    expect(text(await bed.fixtures.readFile('a.txt'))).toBe('one\n');
  });

  it('refuses paths that escape the root or name .git, before anything is read or written', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('a.txt', 'one\n');
    const escape = await bed.fail('apply_patch', { patch: patch('*** Update File: a.txt', '-one', '+two', '*** Add File: ../../etc/x', '+x') });
    expect(escape).toMatchObject({ code: 'outside_workspace', effect: 'none' });
    const git = await bed.fail('apply_patch', {
      patch: patch('*** Update File: a.txt', '-one', '+two', '*** Add File: sub/.Git/hooks/pre-commit', '+x'),
    });
    expect(git).toMatchObject({ code: 'protected_path', effect: 'none' });
    const moveIntoGit = await bed.fail('apply_patch', { patch: patch('*** Update File: a.txt', '*** Move to: .git/config') });
    expect(moveIntoGit).toMatchObject({ code: 'protected_path' });
    const absolute = await bed.fail('apply_patch', { patch: patch('*** Delete File: /etc/passwd') });
    expect(absolute).toMatchObject({ code: 'invalid_path' });
    expect(text(await bed.fixtures.readFile('a.txt'))).toBe('one\n');
  });

  it('fails the whole patch with effect none when a later change does not match or matches twice, saying which', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('a.txt', 'one\n');
    await bed.fixtures.writeFile('b.txt', 'x = 1\ny\nx = 1\n');
    const twice = await bed.fail('apply_patch', {
      patch: patch('*** Update File: a.txt', '-one', '+ONE', '*** Update File: b.txt', '-x = 1', '+x = 2'),
    });
    expect(twice).toMatchObject({ code: 'edit_mismatch', effect: 'none', details: { path: 'b.txt', chunk: 0, line: 6, occurrences: 2 } });
    const missing = await bed.fail('apply_patch', { patch: patch('*** Update File: a.txt', '-one', '+ONE', '*** Update File: b.txt', '-z', '+w') });
    expect(missing).toMatchObject({ code: 'edit_mismatch', details: { path: 'b.txt', occurrences: 0 } });
    const anchor = await bed.fail('apply_patch', { patch: patch('*** Update File: b.txt', '@@ def nowhere', '-y', '+z') });
    expect(anchor).toMatchObject({ code: 'edit_mismatch', details: { path: 'b.txt', occurrences: 0 } });
    expect(anchor.message).toContain('def nowhere');
    // Context pins the one meant; End of File pins the last.
    await bed.ok('apply_patch', { patch: patch('*** Update File: b.txt', ' y', '-x = 1', '+x = 3', '*** End of File') });
    expect(text(await bed.fixtures.readFile('b.txt'))).toBe('x = 1\ny\nx = 3\n');
    expect(text(await bed.fixtures.readFile('a.txt'))).toBe('one\n');
  });

  it('refuses Add File over an existing file and Move to an existing file, changing nothing', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('a.txt', 'one\n');
    await bed.fixtures.writeFile('b.txt', 'bee\n');
    const add = await bed.fail('apply_patch', { patch: patch('*** Update File: a.txt', '-one', '+two', '*** Add File: b.txt', '+new') });
    expect(add).toMatchObject({ code: 'already_exists', effect: 'none', details: { path: 'b.txt' } });
    const move = await bed.fail('apply_patch', { patch: patch('*** Update File: a.txt', '*** Move to: b.txt', '-one', '+two') });
    expect(move).toMatchObject({ code: 'already_exists', effect: 'none', details: { path: 'b.txt' } });
    expect(text(await bed.fixtures.readFile('a.txt'))).toBe('one\n');
    expect(text(await bed.fixtures.readFile('b.txt'))).toBe('bee\n');
  });

  it('creates the missing parents of an added file and of a move destination', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('a.txt', 'one\n');
    await bed.ok('apply_patch', { patch: patch('*** Add File: x/y/new.txt', '+new', '*** Update File: a.txt', '*** Move to: p/q/a.txt') });
    expect(text(await bed.fixtures.readFile('x/y/new.txt'))).toBe('new\n');
    expect(text(await bed.fixtures.readFile('p/q/a.txt'))).toBe('one\n');
    expect(await bed.fail('apply_patch', { patch: patch('*** Add File: p/q/a.txt/under-a-file', '+x') })).toMatchObject({
      code: 'not_a_directory',
      effect: 'none',
    });
  });

  it('keeps CRLF line endings, a BOM and a missing final newline, and matches CRLF lines from an LF patch', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('win.txt', '\uFEFFone\r\ntwo\r\nthree');
    await bed.ok('apply_patch', { patch: patch('*** Update File: win.txt', ' one', '-two', '+2', '+2.5', ' three').replaceAll('\n', '\r\n') });
    // Compared as bytes: a TextDecoder would hide the BOM.
    expect(Buffer.from((await bed.fixtures.readFile('win.txt'))!).toString('latin1')).toBe('\xEF\xBB\xBFone\r\n2\r\n2.5\r\nthree');
  });

  it('writes each file only over the bytes it was matched on: a second writer in between is content_conflict, effect none', async () => {
    const { provider, fixtures } = createMemfsTestbed();
    const racing = racingProvider(provider, 'a.txt', () => fixtures.writeFile('a.txt', 'theirs\n'));
    const runtime = await createRuntime({ provider: racing });
    await fixtures.writeFile('a.txt', 'one\n');
    const outcome = await checkedCall(runtime, runtime.spawn(), 'apply_patch', { patch: patch('*** Update File: a.txt', '-one', '+two') });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'content_conflict', effect: 'none' } });
    expect(text(await fixtures.readFile('a.txt'))).toBe('theirs\n');
  });

  it('says effect unknown and lists the files already written when a later file was changed by another writer', async () => {
    const { provider, fixtures } = createMemfsTestbed();
    const racing = racingProvider(provider, 'b.txt', () => fixtures.writeFile('b.txt', 'theirs\n'));
    const runtime = await createRuntime({ provider: racing });
    await fixtures.writeFile('a.txt', 'one\n');
    await fixtures.writeFile('b.txt', 'bee\n');
    const outcome = await checkedCall(runtime, runtime.spawn(), 'apply_patch', {
      patch: patch('*** Update File: a.txt', '-one', '+two', '*** Update File: b.txt', '-bee', '+BEE', '*** Add File: c.txt', '+c'),
    });
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: 'content_conflict', effect: 'unknown', details: { written: ['a.txt'], failed: 'b.txt' } },
    });
    expect(text(await fixtures.readFile('a.txt'))).toBe('two\n');
    expect(text(await fixtures.readFile('b.txt'))).toBe('theirs\n');
    expect(await fixtures.kindOf('c.txt')).toBe('missing');
  });

  it('never deletes a file another writer changed after the match', async () => {
    const { provider, fixtures } = createMemfsTestbed();
    let reads = 0;
    const racing = new Proxy(provider, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (key !== 'readFile') return typeof value === 'function' ? value.bind(target) : value;
        return async (...args: Parameters<FileSystemProviderV1['readFile']>) => {
          if (args[0] === 'doomed.txt' && ++reads === 2) await fixtures.writeFile('doomed.txt', 'precious\n');
          return provider.readFile(...args);
        };
      },
    });
    const runtime = await createRuntime({ provider: racing });
    await fixtures.writeFile('doomed.txt', 'old\n');
    const outcome = await checkedCall(runtime, runtime.spawn(), 'apply_patch', { patch: patch('*** Delete File: doomed.txt') });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'content_conflict', effect: 'none' } });
    expect(text(await fixtures.readFile('doomed.txt'))).toBe('precious\n');
  });

  it('locates a huge hunk over a file of identical lines in linear time, and bounds the files it reads', async () => {
    const bed = await createTestbed({ config: { bounds: { edit_max_bytes: 4_000_000 } } });
    const lines = 200_000;
    await bed.fixtures.writeFile('same.txt', 'a\n'.repeat(lines));
    const hunk = Array.from({ length: 100_000 }, () => ' a');
    // 100,000 context lines then a removal that is not there: naive matching would take 10^10 steps.
    const error = await bed.fail('apply_patch', { patch: patch('*** Update File: same.txt', ...hunk, '-b') });
    expect(error).toMatchObject({ code: 'edit_mismatch', effect: 'none', details: { occurrences: 0 } });
    const ambiguous = await bed.fail('apply_patch', { patch: patch('*** Update File: same.txt', ...hunk, '-a') });
    expect(ambiguous).toMatchObject({ code: 'edit_mismatch', details: { occurrences: lines - 100_000 } });
    await bed.fixtures.writeFile('big.txt', 'x'.repeat(4_000_001));
    expect(await bed.fail('apply_patch', { patch: patch('*** Update File: big.txt', '-x', '+y') })).toMatchObject({
      code: 'too_large',
      effect: 'none',
    });
  });
});

/** A provider on which another writer changes `path` just before the patch writes it. */
function racingProvider(provider: FileSystemProviderV1, path: string, write: () => Promise<void>): FileSystemProviderV1 {
  return new Proxy(provider, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (key !== 'writeFile') return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: Parameters<FileSystemProviderV1['writeFile']>) => {
        if (args[0] === (path as WorkspacePath)) await write();
        return provider.writeFile(...args);
      };
    },
  });
}
