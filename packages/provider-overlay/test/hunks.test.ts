import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT_PATH, resolveWorkspacePath } from '@libos/core';
import { createMemfsProvider } from '@libos/provider-memfs';
import { afterEach, describe, expect, it } from 'vitest';
import { openOverlay, type Overlay } from '../src/index.js';

// docs/overlay.md, "Hunks": diff numbers the hunks; apply and discard take a selection of them,
// naming the version shown; what is not selected stays in the overlay as the agent's change.

const path = (text: string) => resolveWorkspacePath(ROOT_PATH, text);
const encode = (text: string) => new TextEncoder().encode(text);
const base = Array.from({ length: 40 }, (_, index) => `line ${index}\n`).join('');
const edit = (text: string, changes: Record<number, string>) =>
  text
    .split('\n')
    .map((line, index) => changes[index] ?? line)
    .join('\n');
const theirs = edit(base, { 2: 'agent 2', 18: 'agent 18', 35: 'agent 35' });

const opened: Overlay[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const overlay of opened.splice(0)) await overlay.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function setUp() {
  const lower = createMemfsProvider();
  await lower.writeFile(path('a.txt'), encode(base), { overwrite: true });
  const dir = mkdtempSync(join(tmpdir(), 'libos-hunks-'));
  dirs.push(dir);
  const overlay = await openOverlay({ lower, state: join(dir, 'ws.overlay') });
  opened.push(overlay);
  await overlay.provider.writeFile(path('a.txt'), encode(theirs), { overwrite: true });
  const disk = async () => new TextDecoder().decode((await lower.readFile(path('a.txt'), { maxBytes: 1 << 20 })).bytes);
  const agentView = async () => new TextDecoder().decode((await overlay.provider.readFile(path('a.txt'), { maxBytes: 1 << 20 })).bytes);
  const version = async () => (await overlay.changes()).changes[0]?.version as string;
  return { lower, overlay, disk, agentView, version };
}

describe('hunks', () => {
  it('diff numbers each hunk', async () => {
    const { overlay } = await setUp();
    const headers = (await overlay.diff()).text.split('\n').filter((line) => line.startsWith('@@'));
    expect(headers.map((line) => line.replace(/^@@ .* @@ /u, ''))).toEqual(['#1', '#2', '#3']);
  });

  it('apply --hunks 1,3 lands those; hunk 2 stays as the agent change against the new base; undo is exact', async () => {
    const { overlay, disk, agentView, version } = await setUp();
    const result = await overlay.apply({ paths: ['a.txt'], shown: [await version()], hunks: { 'a.txt': [1, 3] } });
    expect(result.conflicts).toEqual([]);
    expect(result.merged).toEqual([{ path: 'a.txt', hunks: 3, applied: [1, 3], conflicts: [], rest: true }]);
    expect(await disk()).toBe(edit(base, { 2: 'agent 2', 35: 'agent 35' }));
    expect(await agentView()).toBe(theirs);
    const left = (await overlay.diff()).text;
    expect(left).toContain('+agent 18');
    expect(left).not.toContain('+agent 2\n');
    expect(left.split('\n').filter((line) => line.startsWith('@@'))).toHaveLength(1);
    // The rest lands by itself later, against the new base.
    const rest = await overlay.apply({ paths: ['a.txt'], shown: [await version()] });
    expect(rest.applied).toEqual(['a.txt']);
    expect(await disk()).toBe(theirs);
    await overlay.undoApply(rest.apply_id as string);
    await overlay.undoApply(result.apply_id as string);
    expect(await disk()).toBe(base);
    expect(await agentView()).toBe(theirs);
    expect((await overlay.diff()).text.split('\n').filter((line) => line.startsWith('@@'))).toHaveLength(3);
  });

  it('a hunk selection without the version shown, or of a hunk that is not there, changes nothing', async () => {
    const { overlay, disk, version } = await setUp();
    await expect(overlay.apply({ paths: ['a.txt'], hunks: { 'a.txt': [1] } })).rejects.toMatchObject({
      code: 'invalid_arguments',
      details: { reason: 'hunks_need_shown' },
    });
    await expect(overlay.apply({ paths: ['a.txt'], shown: [await version()], hunks: { 'a.txt': [4] } })).rejects.toMatchObject({
      code: 'invalid_arguments',
      details: { reason: 'no_such_hunk' },
    });
    await expect(overlay.discard({ paths: ['a.txt'], hunks: { 'a.txt': [1] } })).rejects.toMatchObject({ code: 'invalid_arguments' });
    expect(await disk()).toBe(base);
    expect((await overlay.changes()).changes).toHaveLength(1);
  });

  it('a hunk selection of a version the agent changed since lands nothing', async () => {
    const { overlay, disk, version } = await setUp();
    const shown = await version();
    await overlay.provider.writeFile(path('a.txt'), encode(edit(theirs, { 0: 'agent 0' })), { overwrite: true });
    const result = await overlay.apply({ paths: ['a.txt'], shown: [shown], hunks: { 'a.txt': [1] } });
    expect(result.applied).toEqual([]);
    expect(result.conflicts).toEqual([expect.objectContaining({ path: 'a.txt', reason: 'changed_since_shown' })]);
    expect(await disk()).toBe(base);
  });

  it('a file named constructor or __proto__ is not given a selection made for another path', async () => {
    const { overlay, disk, version } = await setUp();
    await overlay.provider.writeFile(path('constructor'), encode('agent\n'), { overwrite: false });
    await overlay.provider.writeFile(path('__proto__'), encode('agent\n'), { overwrite: false });
    const versions = (await overlay.changes()).changes.map((change) => change.version);
    const result = await overlay.apply({ shown: versions, hunks: { 'a.txt': [1] } });
    expect(result.conflicts).toEqual([]);
    expect([...result.applied].sort()).toEqual(['__proto__', 'a.txt', 'constructor']);
    expect(await disk()).toBe(edit(base, { 2: 'agent 2' }));
    expect(await version()).toBeDefined();
  });

  it('discard --hunks 2 drops only that hunk from the agent file', async () => {
    const { overlay, disk, agentView, version } = await setUp();
    const result = await overlay.discard({ paths: ['a.txt'], shown: [await version()], hunks: { 'a.txt': [2] } });
    expect(result).toEqual({ discarded: ['a.txt'], conflicts: [] });
    expect(await agentView()).toBe(edit(base, { 2: 'agent 2', 35: 'agent 35' }));
    expect(await disk()).toBe(base);
    await overlay.discard({ paths: ['a.txt'], shown: [await version()], hunks: { 'a.txt': [1, 2] } });
    expect((await overlay.changes()).changes).toEqual([]);
    expect(await agentView()).toBe(base);
  });
});
