import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT_PATH, resolveWorkspacePath, type FileSystemProviderV1 } from '@libos/core';
import { createMemfsProvider } from '@libos/provider-memfs';
import { afterEach, describe, expect, it } from 'vitest';
import { openOverlay, type Overlay } from '../src/index.js';

// docs/overlay.md, "Merge": an apply onto a file the person edited since merges the two; hunks that
// overlap the person's edits stay in the overlay as conflicts; undo gives back the person's bytes.

const path = (text: string) => resolveWorkspacePath(ROOT_PATH, text);
const encode = (text: string) => new TextEncoder().encode(text);
const lines = (count: number, label = 'line') => Array.from({ length: count }, (_, index) => `${label} ${index}\n`).join('');
const edit = (text: string, changes: Record<number, string>) =>
  text
    .split('\n')
    .map((line, index) => changes[index] ?? line)
    .join('\n');

const opened: Overlay[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const overlay of opened.splice(0)) await overlay.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function setUp(files: Record<string, string | Uint8Array>) {
  const lower = createMemfsProvider();
  for (const [name, content] of Object.entries(files))
    await lower.writeFile(path(name), typeof content === 'string' ? encode(content) : content, { overwrite: true });
  const dir = mkdtempSync(join(tmpdir(), 'libos-merge-'));
  dirs.push(dir);
  const state = join(dir, 'ws.overlay');
  const overlay = await openOverlay({ lower, state });
  opened.push(overlay);
  const agentWrites = (name: string, content: string | Uint8Array) =>
    overlay.provider.writeFile(path(name), typeof content === 'string' ? encode(content) : content, { overwrite: true });
  const personWrites = (name: string, content: string | Uint8Array) =>
    lower.writeFile(path(name), typeof content === 'string' ? encode(content) : content, { overwrite: true });
  const disk = async (name: string) => (await lower.readFile(path(name), { maxBytes: 1 << 20 })).bytes;
  const diskText = async (name: string) => new TextDecoder().decode(await disk(name));
  return { lower: lower as FileSystemProviderV1, overlay, state, agentWrites, personWrites, disk, diskText };
}

describe('apply merges onto a file the person edited', () => {
  it('lands the agent hunk beside the person edit, and undo gives back the person bytes exactly', async () => {
    const base = lines(30);
    const { overlay, agentWrites, personWrites, disk, diskText } = await setUp({ 'a.txt': base });
    const theirs = edit(base, { 25: 'agent 25' });
    await agentWrites('a.txt', theirs);
    const ours = edit(base, { 2: 'person 2' });
    await personWrites('a.txt', ours);
    const before = await disk('a.txt');
    const result = await overlay.apply();
    expect(result.conflicts).toEqual([]);
    expect(result.applied).toEqual(['a.txt']);
    expect(result.merged).toEqual([{ path: 'a.txt', hunks: 1, applied: [1], conflicts: [], rest: false }]);
    expect(await diskText('a.txt')).toBe(edit(base, { 2: 'person 2', 25: 'agent 25' }));
    expect((await overlay.changes()).changes).toEqual([]);
    const undone = await overlay.undoApply(result.apply_id as string);
    expect(undone.conflicts).toEqual([]);
    expect(Buffer.from(await disk('a.txt')).equals(Buffer.from(before))).toBe(true);
    // The agent's change is back, made from its own base, and merges again.
    expect((await overlay.changes()).changes.map((change) => change.path)).toEqual(['a.txt']);
    expect((await overlay.apply()).conflicts).toEqual([]);
    expect(await diskText('a.txt')).toBe(edit(base, { 2: 'person 2', 25: 'agent 25' }));
  });

  it('an overlapping hunk is a conflict by number and stays; the other lands; a second apply lands nothing over the person', async () => {
    const base = lines(40);
    const { overlay, agentWrites, personWrites, diskText } = await setUp({ 'a.txt': base });
    await agentWrites('a.txt', edit(base, { 3: 'agent 3', 30: 'agent 30' }));
    await personWrites('a.txt', edit(base, { 3: 'person 3' }));
    const result = await overlay.apply();
    expect(result.conflicts).toEqual([expect.objectContaining({ path: 'a.txt', reason: 'overlapping_edit', hunks: [1] })]);
    expect(result.merged).toEqual([{ path: 'a.txt', hunks: 2, applied: [2], conflicts: [1], rest: true }]);
    const merged = edit(base, { 3: 'person 3', 30: 'agent 30' });
    expect(await diskText('a.txt')).toBe(merged);
    // Still in the overlay, still a conflict: nothing the person wrote is ever written over.
    const again = await overlay.apply();
    expect(again.applied).toEqual([]);
    expect(again.conflicts).toEqual([expect.objectContaining({ reason: 'overlapping_edit', hunks: [1] })]);
    expect(await diskText('a.txt')).toBe(merged);
  });

  it('--no-merge keeps the file-level conflict, and a binary file is never merged', async () => {
    const base = lines(30);
    const binary = new Uint8Array([0, 1, 2, 10, 3, 4, 10, 5]);
    const { overlay, agentWrites, personWrites, diskText, disk } = await setUp({ 'a.txt': base, 'b.bin': binary });
    await agentWrites('a.txt', edit(base, { 25: 'agent 25' }));
    await agentWrites('b.bin', new Uint8Array([0, 1, 2, 10, 3, 4, 10, 9]));
    await personWrites('a.txt', edit(base, { 2: 'person 2' }));
    await personWrites('b.bin', new Uint8Array([7, 1, 2, 10, 3, 4, 10, 5]));
    const refused = await overlay.apply({ merge: false });
    expect(refused.conflicts.map((conflict) => [conflict.path, conflict.reason])).toEqual([
      ['a.txt', 'changed_on_disk'],
      ['b.bin', 'changed_on_disk'],
    ]);
    expect(await diskText('a.txt')).toBe(edit(base, { 2: 'person 2' }));
    const merged = await overlay.apply();
    expect(merged.applied).toEqual(['a.txt']);
    expect(merged.conflicts.map((conflict) => [conflict.path, conflict.reason])).toEqual([['b.bin', 'changed_on_disk']]);
    expect([...(await disk('b.bin'))]).toEqual([7, 1, 2, 10, 3, 4, 10, 5]);
  });

  it('a merge re-checks the person bytes by compare-and-swap: an edit after the read is never lost', async () => {
    const base = lines(30);
    const memfs = createMemfsProvider();
    await memfs.writeFile(path('a.txt'), encode(base), { overwrite: true });
    let reads = 0;
    const late = edit(base, { 2: 'person 2', 10: 'person again 10' });
    // The person writes again right after the apply read the file: between its merge and its write.
    const lower = new Proxy(memfs, {
      get(target, key, receiver) {
        if (key !== 'readFile') return Reflect.get(target, key, receiver);
        return async (...args: Parameters<FileSystemProviderV1['readFile']>) => {
          const read = await target.readFile(...args);
          if (args[0] === 'a.txt' && armed && ++reads === 1) await target.writeFile(path('a.txt'), encode(late), { overwrite: true });
          return read;
        };
      },
    }) as FileSystemProviderV1;
    let armed = false;
    const dir = mkdtempSync(join(tmpdir(), 'libos-merge-'));
    dirs.push(dir);
    const overlay = await openOverlay({ lower, state: join(dir, 'ws.overlay') });
    opened.push(overlay);
    await overlay.provider.writeFile(path('a.txt'), encode(edit(base, { 25: 'agent 25' })), { overwrite: true });
    await memfs.writeFile(path('a.txt'), encode(edit(base, { 2: 'person 2' })), { overwrite: true });
    armed = true;
    const result = await overlay.apply();
    expect(result.applied).toEqual([]);
    expect(result.conflicts.map((conflict) => conflict.reason)).toEqual(['changed_on_disk']);
    expect(new TextDecoder().decode((await memfs.readFile(path('a.txt'), { maxBytes: 1 << 20 })).bytes)).toBe(late);
    armed = false;
    expect((await overlay.apply()).conflicts).toEqual([]);
    expect(new TextDecoder().decode((await memfs.readFile(path('a.txt'), { maxBytes: 1 << 20 })).bytes)).toBe(edit(late, { 25: 'agent 25' }));
  });
});
