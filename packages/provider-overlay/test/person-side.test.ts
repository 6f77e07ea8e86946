import { resolveWorkspacePath, ROOT_PATH, type FileSystemProviderV1 } from '@libos/core';
import { createMemfsProvider } from '@libos/provider-memfs';
import { describe, expect, it } from 'vitest';
import { openOverlay } from '../src/index.js';

const path = (text: string) => resolveWorkspacePath(ROOT_PATH, text);
const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);

async function setUp(files: Record<string, string> = {}) {
  const lower = createMemfsProvider();
  for (const [name, content] of Object.entries(files)) await lower.writeFile(path(name), bytes(content), { overwrite: true });
  const overlay = await openOverlay({ lower, state: ':memory:' });
  return { lower, overlay, agent: overlay.provider };
}

async function lowerText(lower: FileSystemProviderV1, name: string): Promise<string | null> {
  try {
    return text((await lower.readFile(path(name), { maxBytes: 1 << 20 })).bytes);
  } catch {
    return null;
  }
}

describe('changes', () => {
  it('pages in code-point order with complete totals on every page', async () => {
    const { overlay, agent } = await setUp({ 'keep.txt': 'k', 'edit.txt': 'old', 'gone.txt': 'g', 'dir/a': '1', 'dir/b': '2' });
    await agent.writeFile(path('edit.txt'), bytes('new'), { overwrite: true });
    await agent.deleteFile(path('gone.txt'), { missingOk: false });
    await agent.deleteDirectory(path('dir'), { recursive: true, missingOk: false });
    await agent.writeFile(path('dir'), bytes('now a file'), { overwrite: false });
    for (const name of ['z', 'é', '😀', 'a']) await agent.writeFile(path(`new/${name}`), bytes(name), { overwrite: false });
    await agent.writeFile(path('keep.txt'), bytes('k'), { overwrite: true }); // same bytes: no change
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await overlay.changes({ limit: 2, ...(cursor === undefined ? {} : { cursor }) });
      expect(page.totals).toEqual({ added: 5, modified: 1, deleted: 1, replaced: 1 });
      seen.push(...page.changes.map((change) => `${change.path}:${change.change}`));
      if (page.next_cursor === null) break;
      cursor = page.next_cursor;
    }
    expect(seen).toEqual([
      'dir:replaced',
      'edit.txt:modified',
      'gone.txt:deleted',
      'new:added',
      'new/a:added',
      'new/z:added',
      'new/é:added',
      'new/😀:added',
    ]);
    const dir = (await overlay.changes()).changes[0];
    expect(dir).toMatchObject({ kind: 'file', files_within: 2, base: null, current: { size_bytes: 10 } });
    await expect(overlay.changes({ cursor: 'not a cursor!' })).rejects.toMatchObject({ code: 'invalid_arguments' });
    await expect(overlay.changes({ limit: 0 })).rejects.toMatchObject({ code: 'invalid_arguments' });
  });
});

describe('diff', () => {
  it('shows a unified diff, binary files by size and hash, and says when it cut', async () => {
    const { overlay, agent } = await setUp({ 'a.txt': 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n', bin: '\u0000' });
    await agent.writeFile(path('a.txt'), bytes('one\ntwo\nthree\nFOUR\nfive\nsix\nseven\n'), { overwrite: true });
    await agent.writeFile(path('bin'), new Uint8Array([0xff, 0xfe, 0x00]), { overwrite: true });
    await agent.writeFile(path('c.txt'), bytes('fresh\n'), { overwrite: false });
    const { text: diff, truncated } = await overlay.diff();
    expect(truncated).toBe(false);
    expect(diff).toContain('--- a/a.txt\n+++ b/a.txt\n@@ -1,7 +1,7 @@ #1\n one\n two\n three\n-four\n+FOUR\n five\n six\n seven\n');
    expect(diff).toMatch(/Binary files a\/bin and b\/bin differ \(1 bytes, sha256 [0-9a-f]{64}; 3 bytes, sha256 [0-9a-f]{64}\)/);
    expect(diff).toContain('--- /dev/null\n+++ b/c.txt\n@@ -0,0 +1 @@ #1\n+fresh\n');
    const cut = await overlay.diff({ maxBytes: 40 });
    expect(cut.truncated).toBe(true);
    expect(cut.text).toMatch(/# diff cut at 40 bytes/);
    expect((await overlay.diff({ paths: ['c.txt'] })).text).not.toContain('a.txt');
  });
});

describe('apply', () => {
  it('per file lands what still matches its base and reports the rest', async () => {
    const { lower, overlay, agent } = await setUp({ 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c' });
    await agent.writeFile(path('a.txt'), bytes('A'), { overwrite: true });
    await agent.writeFile(path('b.txt'), bytes('B'), { overwrite: true });
    await agent.deleteFile(path('c.txt'), { missingOk: false });
    await agent.writeFile(path('d.txt'), bytes('D'), { overwrite: false });
    // A person edits b and creates d meanwhile.
    await lower.writeFile(path('b.txt'), bytes('person'), { overwrite: true });
    await lower.writeFile(path('d.txt'), bytes('person d'), { overwrite: false });
    const result = await overlay.apply();
    expect(result.applied).toEqual(['a.txt', 'c.txt']);
    expect(result.conflicts.map((conflict) => [conflict.path, conflict.reason])).toEqual([
      ['b.txt', 'overlapping_edit'],
      ['d.txt', 'created_on_disk'],
    ]);
    expect([
      await lowerText(lower, 'a.txt'),
      await lowerText(lower, 'b.txt'),
      await lowerText(lower, 'c.txt'),
      await lowerText(lower, 'd.txt'),
    ]).toEqual(['A', 'person', null, 'person d']);
    expect((await overlay.changes()).changes.map((change) => change.path)).toEqual(['b.txt', 'd.txt']);
    // Undo puts a and c back, by compare-and-swap.
    const undone = await overlay.undoApply(result.apply_id as string);
    expect(undone).toEqual({ restored: ['a.txt', 'c.txt'], conflicts: [] });
    expect([await lowerText(lower, 'a.txt'), await lowerText(lower, 'c.txt')]).toEqual(['a', 'c']);
    expect((await overlay.changes()).totals).toEqual({ added: 1, modified: 2, deleted: 1, replaced: 0 });
  });

  it('all or nothing applies nothing when one path conflicts', async () => {
    const { lower, overlay, agent } = await setUp({ 'a.txt': 'a', 'b.txt': 'b' });
    await agent.writeFile(path('a.txt'), bytes('A'), { overwrite: true });
    await agent.writeFile(path('b.txt'), bytes('B'), { overwrite: true });
    await lower.deleteFile(path('b.txt'), { missingOk: false });
    const result = await overlay.apply({ mode: 'all_or_nothing' });
    expect(result).toMatchObject({ apply_id: null, applied: [], conflicts: [{ path: 'b.txt', reason: 'deleted_on_disk' }] });
    expect(await lowerText(lower, 'a.txt')).toBe('a');
    expect((await overlay.changes()).changes.length).toBe(2);
  });

  it('deletes a directory only if it still holds its manifest', async () => {
    const { lower, overlay, agent } = await setUp({ 'd/x': 'x', 'd/e/y': 'y', 'k/x': 'x' });
    await agent.deleteDirectory(path('d'), { recursive: true, missingOk: false });
    await agent.deleteDirectory(path('k'), { recursive: true, missingOk: false });
    await lower.writeFile(path('k/new'), bytes('person'), { overwrite: false });
    const result = await overlay.apply();
    expect(result.applied).toEqual(['d']);
    expect(result.conflicts).toMatchObject([{ path: 'k', reason: 'changed_on_disk' }]);
    expect(await lowerText(lower, 'k/x')).toBe('x');
    expect(await lowerText(lower, 'k/new')).toBe('person');
    expect((await lower.stat(path('d'))).kind).toBe('missing');
    await overlay.undoApply(result.apply_id as string);
    expect(await lowerText(lower, 'd/e/y')).toBe('y');
  });
});

describe('discard, history and rewind', () => {
  it("records each call by its caller's label, else the deprecated tool, else the method (an empty name too)", async () => {
    const { overlay, agent } = await setUp();
    await agent.writeFile(path('a'), bytes('1'), { overwrite: true, label: 'libos apply-script' });
    await agent.writeFile(path('b'), bytes('2'), { overwrite: true, label: 'write_text_file', tool: 'ignored' });
    await agent.appendFile!(path('a'), bytes('3'), { create: false, tool: 'append_text_file' });
    await agent.copyFile!(path('a'), path('c'), { overwrite: false });
    await agent.makeDirectory(path('d'), { parents: false, existOk: false, label: '' });
    const { calls } = await overlay.history();
    expect(calls.map((call) => call.tool)).toEqual(['libos apply-script', 'write_text_file', 'append_text_file', 'copyFile', 'makeDirectory']);
  });

  it('rewinds to right after a call, and discard shows the lower again', async () => {
    const { overlay, agent } = await setUp({ 'a.txt': 'a' });
    await agent.writeFile(path('a.txt'), bytes('1'), { overwrite: true, label: 'write_text_file' });
    await agent.writeFile(path('a.txt'), bytes('2'), { overwrite: true, label: 'write_text_file' });
    await agent.deleteFile(path('a.txt'), { missingOk: false, label: 'delete_file' });
    await agent.writeFile(path('b/c.txt'), bytes('c'), { overwrite: false, label: 'write_text_file' });
    const { calls } = await overlay.history();
    expect(calls.map((call) => [call.seq, call.tool, call.paths])).toEqual([
      [1, 'write_text_file', ['a.txt']],
      [2, 'write_text_file', ['a.txt']],
      [3, 'delete_file', ['a.txt']],
      [4, 'write_text_file', ['b/c.txt']],
    ]);
    expect(await overlay.rewind(2)).toEqual({ rewound: 2 });
    expect(text((await agent.readFile(path('a.txt'), { maxBytes: 10 })).bytes)).toBe('2');
    expect((await agent.stat(path('b'))).kind).toBe('missing');
    expect(await overlay.rewind(0)).toEqual({ rewound: 2 });
    expect((await overlay.changes()).changes).toEqual([]);
    await agent.writeFile(path('a.txt'), bytes('3'), { overwrite: true });
    expect(await overlay.discard()).toEqual({ discarded: ['a.txt'], conflicts: [] });
    expect(text((await agent.readFile(path('a.txt'), { maxBytes: 10 })).bytes)).toBe('a');
    await expect(overlay.rewind(0)).rejects.toMatchObject({ code: 'invalid_arguments' });
  });
});

describe('the state file', () => {
  it('is refused inside the lower root', async () => {
    const lower = createMemfsProvider();
    await expect(openOverlay({ lower, state: '/tmp/x/ws.overlay', lowerRoot: '/tmp/x' })).rejects.toMatchObject({ code: 'invalid_arguments' });
    await expect(openOverlay({ lower, state: '/tmp/x', lowerRoot: '/tmp/x' })).rejects.toMatchObject({ code: 'invalid_arguments' });
  });
});
