import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveWorkspacePath, ROOT_PATH, type FileSystemProviderV1 } from '@libos/core';
import { createMemfsProvider } from '@libos/provider-memfs';
import { afterEach, describe, expect, it } from 'vitest';
import { openOverlay, type Overlay } from '../src/index.js';

// docs/overlay.md, "Renames": a move is recorded, shown as one rename, and lands or is dropped whole.

const path = (text: string) => resolveWorkspacePath(ROOT_PATH, text);
const bytes = (text: string) => new TextEncoder().encode(text);

async function lowerText(lower: FileSystemProviderV1, name: string): Promise<string | null> {
  try {
    return new TextDecoder().decode((await lower.readFile(path(name), { maxBytes: 1 << 20 })).bytes);
  } catch {
    return null;
  }
}

const opened: Overlay[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const overlay of opened.splice(0)) await overlay.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function setUp(files: Record<string, string>) {
  const lower = createMemfsProvider();
  for (const [name, content] of Object.entries(files)) await lower.writeFile(path(name), bytes(content), { overwrite: true });
  const dir = mkdtempSync(join(tmpdir(), 'libos-renames-'));
  dirs.push(dir);
  const overlay = await openOverlay({ lower, state: join(dir, 'state.overlay') });
  opened.push(overlay);
  const agent = overlay.provider;
  const { rename } = agent;
  if (rename === undefined) throw new Error('the overlay renames');
  const move = (from: string, to: string) => rename.call(agent, path(from), path(to), { overwrite: false });
  return { lower, overlay, agent, move };
}

const OLD = 'line 1\nline 2\nline 3\n';

describe('a move is a rename', () => {
  it('lists both halves naming each other, and diffs once at the new name (no hunks when the bytes are the same)', async () => {
    const { overlay, move } = await setUp({ 'src/old.ts': OLD });
    await move('src/old.ts', 'lib/new.ts');
    const { changes } = await overlay.changes();
    expect(changes.map((change) => [change.path, change.change, change.moved_from, change.moved_to])).toEqual([
      ['lib', 'added', undefined, undefined],
      ['lib/new.ts', 'added', 'src/old.ts', undefined],
      ['src/old.ts', 'deleted', undefined, 'lib/new.ts'],
    ]);
    const diff = await overlay.diff({ paths: ['lib/new.ts'] });
    // The new directory the rename lands in, then the rename: no hunk, no line of the file.
    expect(diff.text).toBe('# directory added: lib\ndiff --git a/src/old.ts b/lib/new.ts\nrename from src/old.ts\nrename to lib/new.ts\n');
    // Asked for either half, the diff covers the rename and gives both versions.
    expect(diff.versions.map((item) => item.path).sort()).toEqual(['lib', 'lib/new.ts', 'src/old.ts']);
    expect((await overlay.diff({ paths: ['src/old.ts'] })).text).toBe(diff.text);
  });

  it('shows the edit of a moved file against the file it came from, through later writes and moves', async () => {
    const { overlay, agent, move } = await setUp({ 'a.txt': OLD });
    await move('a.txt', 'b.txt');
    await agent.writeFile(path('b.txt'), bytes('line 1\nline two\nline 3\n'), { overwrite: true });
    await move('b.txt', 'c.txt');
    const { changes } = await overlay.changes();
    expect(changes.map((change) => [change.path, change.moved_from ?? change.moved_to ?? null])).toEqual([
      ['a.txt', 'c.txt'],
      ['c.txt', 'a.txt'],
    ]);
    const { text } = await overlay.diff();
    expect(text).toContain('rename from a.txt\nrename to c.txt\n--- a/a.txt\n+++ b/c.txt\n@@ -1,3 +1,3 @@ #1\n line 1\n-line 2\n+line two\n');
  });

  it('is no rename once the agent writes the old name again, or two files claim it', async () => {
    const { overlay, agent, move } = await setUp({ 'a.txt': OLD });
    await move('a.txt', 'b.txt');
    await agent.writeFile(path('a.txt'), bytes('new a\n'), { overwrite: false });
    await move('a.txt', 'c.txt');
    const { changes } = await overlay.changes();
    expect(changes.map((change) => [change.path, change.change, change.moved_from ?? change.moved_to ?? null])).toEqual([
      ['a.txt', 'deleted', null],
      ['b.txt', 'added', null],
      ['c.txt', 'added', null],
    ]);
  });
});

describe('a rename lands or is dropped whole, as shown', () => {
  it('lands both halves when one is named with both versions shown', async () => {
    const { lower, overlay, move } = await setUp({ 'a.txt': OLD });
    await move('a.txt', 'b.txt');
    const shown = (await overlay.diff({ paths: ['b.txt'] })).versions.map((item) => item.version);
    const result = await overlay.apply({ paths: ['b.txt'], shown });
    expect([...result.applied].sort()).toEqual(['a.txt', 'b.txt']);
    expect(await lowerText(lower, 'a.txt')).toBeNull();
    expect(await lowerText(lower, 'b.txt')).toBe(OLD);
    expect((await overlay.changes()).changes).toEqual([]);
  });

  it('lands no half when only the other was shown: no copy, no lone delete', async () => {
    const { lower, overlay, move } = await setUp({ 'a.txt': OLD });
    await move('a.txt', 'b.txt');
    const { changes } = await overlay.changes();
    const added = changes.find((change) => change.path === 'b.txt')!;
    const result = await overlay.apply({ paths: ['b.txt'], shown: [added.version] });
    expect(result.applied).toEqual([]);
    expect(result.conflicts.map((conflict) => [conflict.path, conflict.reason]).sort()).toEqual([
      ['a.txt', 'changed_since_shown'],
      ['b.txt', 'rename_partner'],
    ]);
    expect(await lowerText(lower, 'a.txt')).toBe(OLD);
    expect(await lowerText(lower, 'b.txt')).toBeNull();
    // The same for a discard: the agent's file stays in the overlay.
    expect((await overlay.discard({ paths: ['a.txt'], shown: [changes.find((change) => change.path === 'a.txt')!.version] })).discarded).toEqual([]);
    expect((await overlay.changes()).changes).toHaveLength(2);
  });

  it('lands no half when the old file changed on disk, even file by file', async () => {
    const { lower, overlay, move } = await setUp({ 'a.txt': OLD });
    await move('a.txt', 'b.txt');
    const shown = (await overlay.changes()).changes.map((change) => change.version);
    await lower.writeFile(path('a.txt'), bytes('the person edited a\n'), { overwrite: true });
    const result = await overlay.apply({ shown, mode: 'per_file', merge: false });
    expect(result.applied).toEqual([]);
    expect(result.conflicts.map((conflict) => [conflict.path, conflict.reason]).sort()).toEqual([
      ['a.txt', 'changed_on_disk'],
      ['b.txt', 'rename_partner'],
    ]);
    expect(await lowerText(lower, 'b.txt')).toBeNull();
  });

  it('refuses a rename whose new file the agent rewrote after it was shown', async () => {
    const { lower, overlay, agent, move } = await setUp({ 'a.txt': OLD });
    await move('a.txt', 'b.txt');
    const shown = (await overlay.diff()).versions.map((item) => item.version);
    await agent.writeFile(path('b.txt'), bytes('rm -rf ~\n'), { overwrite: true });
    expect((await overlay.apply({ paths: ['a.txt'], shown })).applied).toEqual([]);
    expect(await lowerText(lower, 'a.txt')).toBe(OLD);
    expect(await lowerText(lower, 'b.txt')).toBeNull();
  });

  it('lands nothing shown as a rename once it stopped being one (the agent wrote the old name again)', async () => {
    const { lower, overlay, agent, move } = await setUp({ 'a.txt': OLD });
    await move('a.txt', 'b.txt');
    const listed = await overlay.changes();
    const shown = listed.changes.map((change) => change.version);
    await agent.writeFile(path('a.txt'), bytes('a new a\n'), { overwrite: false });
    // b.txt's bytes are the same, but it is an add now, not the rename the person was shown.
    const result = await overlay.apply({ shown });
    expect(result.applied).toEqual([]);
    expect(result.conflicts.map((conflict) => [conflict.path, conflict.reason])).toEqual([
      ['a.txt', 'changed_since_shown'],
      ['b.txt', 'changed_since_shown'],
    ]);
    expect(await overlay.apply({ shownSet: listed.set_version as string })).toMatchObject({ applied: [] });
    expect(await lowerText(lower, 'b.txt')).toBeNull();
    expect(await lowerText(lower, 'a.txt')).toBe(OLD);
  });

  it('discards both halves when one is named: the agent sees the old file again', async () => {
    const { overlay, agent, move } = await setUp({ 'a.txt': OLD });
    await move('a.txt', 'b.txt');
    const shown = (await overlay.changes()).changes.map((change) => change.version);
    expect((await overlay.discard({ paths: ['b.txt'], shown })).discarded).toEqual(['a.txt', 'b.txt']);
    expect((await overlay.changes()).changes).toEqual([]);
    expect(new TextDecoder().decode((await agent.readFile(path('a.txt'), { maxBytes: 100 })).bytes)).toBe(OLD);
  });

  it('refuses hunks of a rename', async () => {
    const { overlay, move } = await setUp({ 'a.txt': OLD });
    await move('a.txt', 'b.txt');
    const shown = (await overlay.changes()).changes.map((change) => change.version);
    await expect(overlay.apply({ paths: ['b.txt'], shown, hunks: { 'b.txt': [1] } })).rejects.toMatchObject({
      code: 'invalid_arguments',
      details: { reason: 'rename_hunks' },
    });
  });

  it('keeps the rename through a rewind of a later write, and gives old versions again', async () => {
    const { overlay, agent, move } = await setUp({ 'a.txt': OLD });
    await move('a.txt', 'b.txt');
    const before = (await overlay.changes()).set_version;
    await agent.writeFile(path('b.txt'), bytes('edited\n'), { overwrite: true });
    const calls = (await overlay.history()).calls;
    // Back to just after the move: the write is undone.
    await overlay.rewind(calls[0]!.seq);
    const after = await overlay.changes();
    expect(after.set_version).toBe(before);
    expect(after.changes.find((change) => change.path === 'b.txt')?.moved_from).toBe('a.txt');
  });
});
