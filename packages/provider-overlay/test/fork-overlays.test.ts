import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT_PATH, resolveWorkspacePath } from '@libos/core';
import { createMemfsProvider } from '@libos/provider-memfs';
import { afterEach, describe, expect, it } from 'vitest';
import { openOverlay, type Overlay } from '../src/index.js';

// docs/overlay.md, "Forks": several overlays over one root, a fork holding the same changes, and
// applies of different overlays serialized by the lower's compare-and-swap: the second merges.

const path = (text: string) => resolveWorkspacePath(ROOT_PATH, text);
const encode = (text: string) => new TextEncoder().encode(text);
const base = Array.from({ length: 40 }, (_, index) => `line ${index}\n`).join('');
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

async function setUp() {
  const lower = createMemfsProvider();
  await lower.writeFile(path('a.txt'), encode(base), { overwrite: true });
  const dir = mkdtempSync(join(tmpdir(), 'libos-fork-'));
  dirs.push(dir);
  const open = async (name: string) => {
    const overlay = await openOverlay({ lower, state: join(dir, name) });
    opened.push(overlay);
    return overlay;
  };
  const disk = async () => new TextDecoder().decode((await lower.readFile(path('a.txt'), { maxBytes: 1 << 20 })).bytes);
  return { dir, open, disk };
}

describe('forks and several overlays over one root', () => {
  it('a fork holds the same changes; each goes its own way; the second apply merges onto the first', async () => {
    const { dir, open, disk } = await setUp();
    const first = await open('first.overlay');
    await first.provider.writeFile(path('a.txt'), encode(edit(base, { 5: 'first 5' })), { overwrite: true });
    const forked = await first.fork(join(dir, 'second.overlay'));
    expect(forked).toEqual({ state: join(dir, 'second.overlay'), changes: 1 });
    const second = await open('second.overlay');
    expect((await second.changes()).changes).toEqual((await first.changes()).changes);
    expect((await second.history()).calls).toEqual([]);
    // The second agent goes on from there; the first does not see it.
    await second.provider.writeFile(path('a.txt'), encode(edit(base, { 5: 'first 5', 30: 'second 30' })), { overwrite: true });
    expect((await first.diff()).text).not.toContain('second 30');
    const third = await open('third.overlay');
    await third.provider.writeFile(path('a.txt'), encode(edit(base, { 5: 'third 5' })), { overwrite: true });

    expect((await first.apply()).conflicts).toEqual([]);
    // Before anything else lands: the second merges cleanly, the third overlaps at its hunk 1.
    expect((await second.changes({ checkDisk: true })).changes[0]?.disk).toEqual({ state: 'merges' });
    expect((await third.changes({ checkDisk: true })).changes[0]?.disk).toEqual({ state: 'conflicts', hunks: [1] });
    expect((await second.changes()).changes[0]?.disk).toBeUndefined();

    const secondApply = await second.apply();
    expect(secondApply.conflicts).toEqual([]);
    expect(await disk()).toBe(edit(base, { 5: 'first 5', 30: 'second 30' }));
    const thirdApply = await third.apply();
    expect(thirdApply.conflicts).toEqual([expect.objectContaining({ path: 'a.txt', reason: 'overlapping_edit', hunks: [1] })]);
    expect(await disk()).toBe(edit(base, { 5: 'first 5', 30: 'second 30' }));
    // Undo of the second gives back exactly what the first left.
    await second.undoApply(secondApply.apply_id as string);
    expect(await disk()).toBe(edit(base, { 5: 'first 5' }));
  });

  it('an apply whose hunks the file holds already writes nothing and leaves no undo that would double them', async () => {
    const { dir, open, disk } = await setUp();
    const first = await open('first.overlay');
    await first.provider.writeFile(path('a.txt'), encode(edit(base, { 5: 'first 5' })), { overwrite: true });
    await first.fork(join(dir, 'same.overlay'));
    const same = await open('same.overlay');
    expect((await first.apply()).conflicts).toEqual([]);
    const result = await same.apply();
    expect(result).toEqual({
      apply_id: null,
      applied: ['a.txt'],
      conflicts: [],
      merged: [{ path: 'a.txt', hunks: 1, applied: [1], conflicts: [], rest: false }],
    });
    expect((await same.changes()).changes).toEqual([]);
    expect(await same.lastApply()).toBeNull();
    expect(await disk()).toBe(edit(base, { 5: 'first 5' }));
  });

  it('fork refuses a target that exists, and leaves it as it was', async () => {
    const { dir, open } = await setUp();
    const first = await open('first.overlay');
    await first.provider.writeFile(path('a.txt'), encode('agent\n'), { overwrite: true });
    writeFileSync(join(dir, 'taken.overlay'), 'mine');
    await expect(first.fork(join(dir, 'taken.overlay'))).rejects.toMatchObject({
      code: 'invalid_arguments',
      details: { reason: 'fork_target_exists' },
    });
    await expect(first.fork(':memory:')).rejects.toMatchObject({ code: 'invalid_arguments' });
    expect(readFileSync(join(dir, 'taken.overlay'), 'utf8')).toBe('mine');
  });
});
