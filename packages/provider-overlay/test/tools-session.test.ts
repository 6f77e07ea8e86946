import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLocalProvider } from '@libos/provider-local';
import { createRuntime } from '@libos/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { openOverlay } from '../src/index.js';
import { createSandbox, treeFingerprint, type Sandbox } from './local-sandbox.js';

const sandboxes: Sandbox[] = [];
afterEach(() => {
  for (const sandbox of sandboxes.splice(0)) sandbox.remove();
});

function seededSandbox(): Sandbox {
  const sandbox = createSandbox();
  sandboxes.push(sandbox);
  const put = (path: string, content: string) => {
    mkdirSync(join(sandbox.root, path, '..'), { recursive: true });
    writeFileSync(join(sandbox.root, path), content);
  };
  put('a.txt', 'alpha\nbeta\ngamma\n');
  put('src/main.ts', 'export const answer = 41;\n');
  put('docs/guide.md', '# Guide\n');
  put('old/one.txt', 'one\n');
  put('old/deep/two.txt', 'two\n');
  put('run.sh', '#!/bin/sh\necho hi\n');
  put('log.txt', 'line 1\n');
  put('pic.gif', 'GIF89a\u0001\u0000\u0001\u0000');
  chmodSync(join(sandbox.root, 'run.sh'), 0o755);
  put('.git/config', '[core]\n');
  symlinkSync(join(sandbox.outside, 'secret.txt'), join(sandbox.root, 'link'));
  return sandbox;
}

/** Arguments for every tool the runtime may offer; a tool missing here fails the test below. */
const session: ReadonlyArray<[string, Record<string, unknown>]> = [
  ['get_working_directory', {}],
  ['set_working_directory', { path: 'src' }],
  ['read_directory', { path: '.' }],
  ['set_working_directory', { path: '..' }],
  ['read_text_file', { path: 'a.txt' }],
  ['write_text_file', { path: 'a.txt', content: 'alpha\nBETA\ngamma\n' }],
  ['write_text_file', { path: 'new/fresh.txt', content: 'fresh\n' }],
  ['write_text_file', { path: 'run.sh', content: '#!/bin/sh\necho bye\n' }],
  ['write_directory', { path: 'made/sub' }],
  ['edit_text_file', { path: 'src/main.ts', edits: [{ old_text: '41', new_text: '42' }] }],
  ['search_files', { path: '.', query: 'answer' }],
  ['move_file', { from: 'docs/guide.md', to: 'docs/moved.md' }],
  ['delete_file', { path: 'old/one.txt' }],
  ['delete_directory', { path: 'old', recursive: true }],
  ['create_object_from_file', { name: 'alpha', path: 'a.txt' }],
  ['write_object_to_file', { name: 'alpha', path: 'from-object.txt' }],
  ['copy_file', { from: 'a.txt', to: 'copies/a.txt' }],
  ['copy_file', { from: 'log.txt', to: 'log-copy.txt' }],
  ['append_text_file', { path: 'log.txt', content: 'line 2\n' }],
  ['append_text_file', { path: 'log.txt', content: 'line 3\n', expected_size_bytes: 14 }],
  ['append_text_file', { path: 'new/log.txt', content: 'first\n', create: true }],
  ['find_files', { path: '.', glob: '**/*.txt' }],
  ['read_media_file', { path: 'pic.gif' }],
  ['apply_patch', { patch: '*** Begin Patch\n*** Add File: patched.txt\n+patched\n*** End Patch' }],
  ['read_directory', { path: 'old', limit: 5 }],
];

describe('every tool through process.call on an overlay', () => {
  it('leaves the lower byte for byte as it was, and the overlay holds every change', async () => {
    const sandbox = seededSandbox();
    const before = treeFingerprint(sandbox.root);
    const lower = createLocalProvider({ root: sandbox.root });
    const overlay = await openOverlay({ lower, state: join(sandbox.stateDirectory, 'ws.overlay') });
    const runtime = await createRuntime({ provider: overlay.provider });
    const agent = runtime.spawn();
    const offered = runtime.tools.map((tool) => tool.name);
    const named = new Set(session.map(([tool]) => tool));
    expect(offered.filter((tool) => !named.has(tool))).toEqual([]);
    const mutating: string[] = [];
    for (const [tool, args] of session) {
      if (!offered.includes(tool)) continue;
      const result = await agent.call(tool as never, args as never);
      if (tool === 'read_directory' && args.path === 'old') {
        expect(result.ok).toBe(false);
        continue;
      }
      expect({ tool, result }).toMatchObject({ tool, result: { ok: true } });
      if (
        ![
          'get_working_directory',
          'set_working_directory',
          'read_directory',
          'read_text_file',
          'search_files',
          'create_object_from_file',
          'find_files',
          'read_media_file',
        ].includes(tool)
      )
        mutating.push(tool);
    }
    // The agent sees its own work...
    const read = await agent.call('read_text_file', { path: 'src/main.ts' });
    expect(read.ok && read.result.content).toBe('export const answer = 42;\n');
    const log = await agent.call('read_text_file', { path: 'log.txt' });
    expect(log.ok && log.result.content).toBe('line 1\nline 2\nline 3\n');
    const copied = await agent.call('read_text_file', { path: 'copies/a.txt' });
    expect(copied.ok && copied.result.content).toBe('alpha\nBETA\ngamma\n');
    // A stale size guard is refused and changes nothing; a copy onto a file needs overwrite.
    const stale = await agent.call('append_text_file', { path: 'log.txt', content: 'x', expected_size_bytes: 7 });
    expect(!stale.ok && stale.error.code).toBe('content_conflict');
    const taken = await agent.call('copy_file', { from: 'a.txt', to: 'log.txt' });
    expect(!taken.ok && taken.error.code).toBe('already_exists');
    expect((await agent.call('copy_file', { from: '.git/config', to: 'stolen.txt' })).ok).toBe(false);
    expect((await agent.call('copy_file', { from: 'link', to: 'stolen.txt' })).ok).toBe(false);
    expect((await agent.call('read_text_file', { path: '.git/config' })).ok).toBe(false);
    const link = await agent.call('read_text_file', { path: 'link' });
    expect(!link.ok && link.error.code).toBe('symlink_refused');
    // ...and the lower is exactly as before: names, bytes, modes.
    expect(treeFingerprint(sandbox.root)).toBe(before);
    const { changes, totals } = await overlay.changes();
    const byPath = Object.fromEntries(changes.map((change) => [change.path, change.change]));
    expect(byPath).toMatchObject({
      'a.txt': 'modified',
      'docs/guide.md': 'deleted',
      'docs/moved.md': 'added',
      'copies/a.txt': 'added',
      'from-object.txt': 'added',
      'log-copy.txt': 'added',
      'log.txt': 'modified',
      'new/log.txt': 'added',
      made: 'added',
      'made/sub': 'added',
      new: 'added',
      'new/fresh.txt': 'added',
      old: 'deleted',
      'run.sh': 'modified',
      'src/main.ts': 'modified',
      'patched.txt': 'added',
    });
    expect(changes.find((change) => change.path === 'old')).toMatchObject({ kind: 'directory', files_within: 2, current: null });
    // The appended file's base is the lower file as it was; the copy is the source's bytes.
    const identity = (text: string) => ({ sha256: createHash('sha256').update(text).digest('hex'), size_bytes: Buffer.byteLength(text) });
    expect(changes.find((change) => change.path === 'log.txt')).toMatchObject({
      base: identity('line 1\n'),
      current: identity('line 1\nline 2\nline 3\n'),
    });
    expect(changes.find((change) => change.path === 'log-copy.txt')).toMatchObject({ base: null, current: identity('line 1\n') });
    expect(totals.added + totals.modified + totals.deleted + totals.replaced).toBe(changes.length);
    const { calls } = await overlay.history();
    expect(calls.map((call) => call.tool)).toEqual(mutating);
    // Applying lands every change; the mode of the replaced script is kept.
    const applied = await overlay.apply();
    expect(applied.conflicts).toEqual([]);
    expect(readFileSync(join(sandbox.root, 'src/main.ts'), 'utf8')).toBe('export const answer = 42;\n');
    expect(readFileSync(join(sandbox.root, 'docs/moved.md'), 'utf8')).toBe('# Guide\n');
    expect(readFileSync(join(sandbox.root, 'log.txt'), 'utf8')).toBe('line 1\nline 2\nline 3\n');
    expect(readFileSync(join(sandbox.root, 'log-copy.txt'), 'utf8')).toBe('line 1\n');
    expect(readFileSync(join(sandbox.root, 'copies/a.txt'), 'utf8')).toBe('alpha\nBETA\ngamma\n');
    expect(() => readFileSync(join(sandbox.root, 'old/deep/two.txt'))).toThrow();
    expect((await import('node:fs')).statSync(join(sandbox.root, 'run.sh')).mode & 0o777).toBe(0o755);
    expect((await overlay.changes()).changes).toEqual([]);
    // And undoing it puts the lower back exactly.
    const undone = await overlay.undoApply(applied.apply_id as string);
    expect(undone.conflicts).toEqual([]);
    // The local provider's own staging directory (never listed, never reachable) is all that differs.
    expect(treeFingerprint(sandbox.root, ['.libos-staging'])).toBe(before);
    expect((await overlay.changes()).changes.length).toBe(changes.length);
    await runtime.close();
    await overlay.close();
    await lower.close();
  });
});
