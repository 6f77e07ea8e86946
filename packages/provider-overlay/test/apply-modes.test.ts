import { chmodSync, existsSync, lstatSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT_PATH, resolveWorkspacePath } from '@libos/core';
import { createLocalProvider } from '@libos/provider-local';
import { createMemfsProvider } from '@libos/provider-memfs';
import { createRuntime } from '@libos/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { openOverlay } from '../src/index.js';
import { createSandbox, type Sandbox } from './local-sandbox.js';

// O03: modes travel with the bytes. A 0600 key the agent copies or moves lands 0600 on disk when
// the person applies it, never the lower's default (0644, which `nobody` can read); an applied
// delete undone gives the key back 0600; and no apply or undo ever shows the bytes with wider bits.

const sandboxes: Sandbox[] = [];
afterEach(() => {
  for (const sandbox of sandboxes.splice(0)) sandbox.remove();
});
const modeAt = (file: string) => (lstatSync(file).mode & 0o777).toString(8);
const path = (name: string) => resolveWorkspacePath(ROOT_PATH, name);

async function session() {
  const sandbox = createSandbox();
  sandboxes.push(sandbox);
  writeFileSync(sandbox.at('id_ed25519'), 'PRIVATE KEY');
  chmodSync(sandbox.at('id_ed25519'), 0o600);
  writeFileSync(sandbox.at('notes.txt'), 'public notes');
  chmodSync(sandbox.at('notes.txt'), 0o644);
  const lower = createLocalProvider({ root: sandbox.root });
  const overlay = await openOverlay({ lower, state: join(sandbox.stateDirectory, 'modes.overlay') });
  const runtime = await createRuntime({ provider: overlay.provider });
  const agent = runtime.spawn();
  const call = async (tool: string, args: Record<string, unknown>) => {
    const outcome = await agent.call(tool, args);
    if (!outcome.ok) throw new Error(`${tool} failed: ${JSON.stringify(outcome.error)}`);
  };
  const close = async () => {
    await runtime.close();
    await overlay.close();
    await lower.close();
  };
  return { sandbox, overlay, call, close };
}

describe('an apply carries the mode the overlay row names', () => {
  it('a 0600 file the agent copied, moved, and copied over a 0644 file lands 0600', async () => {
    const { sandbox, overlay, call, close } = await session();
    try {
      await call('copy_file', { from: 'id_ed25519', to: 'backup/id_ed25519' });
      await call('copy_file', { from: 'id_ed25519', to: 'notes.txt', overwrite: true });
      await call('move_file', { from: 'id_ed25519', to: 'keys/moved_key' });
      // The agent's view shows the mode the apply will give.
      expect(await overlay.provider.stat(path('backup/id_ed25519'))).toMatchObject({ kind: 'file', mode: 0o600 });
      const result = await overlay.apply();
      expect(result.conflicts).toEqual([]);
      expect(existsSync(sandbox.at('id_ed25519'))).toBe(false);
      for (const file of ['backup/id_ed25519', 'keys/moved_key', 'notes.txt']) {
        expect({ file, mode: modeAt(sandbox.at(file)) }).toEqual({ file, mode: '600' });
        expect(readFileSync(sandbox.at(file), 'utf8')).toBe('PRIVATE KEY');
      }
    } finally {
      await close();
    }
  });

  it('all or nothing too, and a copy of a copy keeps the first source mode', async () => {
    const { sandbox, overlay, call, close } = await session();
    try {
      await call('copy_file', { from: 'id_ed25519', to: 'a/one' });
      await call('copy_file', { from: 'a/one', to: 'b/two' });
      await call('move_file', { from: 'b/two', to: 'c/three' });
      const result = await overlay.apply({ mode: 'all_or_nothing' });
      expect(result.conflicts).toEqual([]);
      expect(modeAt(sandbox.at('a/one'))).toBe('600');
      expect(modeAt(sandbox.at('c/three'))).toBe('600');
    } finally {
      await close();
    }
  });

  it('an applied delete, undone, gives the file back with the mode it took away', async () => {
    const { sandbox, overlay, call, close } = await session();
    try {
      chmodSync(sandbox.at('notes.txt'), 0o640);
      await call('delete_file', { path: 'id_ed25519' });
      await call('write_text_file', { path: 'notes.txt', content: 'rewritten' });
      const applied = await overlay.apply();
      expect(applied.conflicts).toEqual([]);
      expect(existsSync(sandbox.at('id_ed25519'))).toBe(false);
      expect(modeAt(sandbox.at('notes.txt'))).toBe('640');
      const undone = await overlay.undoApply(applied.apply_id!);
      expect(undone.conflicts).toEqual([]);
      expect(readFileSync(sandbox.at('id_ed25519'), 'utf8')).toBe('PRIVATE KEY');
      expect(modeAt(sandbox.at('id_ed25519'))).toBe('600');
      expect(readFileSync(sandbox.at('notes.txt'), 'utf8')).toBe('public notes');
      expect(modeAt(sandbox.at('notes.txt'))).toBe('640');
    } finally {
      await close();
    }
  });

  it('undo of a copy applied over a 0644 file gives that file back 0644, with its own bytes', async () => {
    const { sandbox, overlay, call, close } = await session();
    try {
      await call('copy_file', { from: 'id_ed25519', to: 'notes.txt', overwrite: true });
      const applied = await overlay.apply();
      expect(modeAt(sandbox.at('notes.txt'))).toBe('600');
      expect((await overlay.undoApply(applied.apply_id!)).conflicts).toEqual([]);
      expect(readFileSync(sandbox.at('notes.txt'), 'utf8')).toBe('public notes');
      expect(modeAt(sandbox.at('notes.txt'))).toBe('644');
    } finally {
      await close();
    }
  });

  it('the bytes never sit on disk under wider bits while an apply writes them', async () => {
    const sandbox = createSandbox();
    sandboxes.push(sandbox);
    writeFileSync(sandbox.at('secret'), 'S'.repeat(1 << 20));
    chmodSync(sandbox.at('secret'), 0o600);
    const local = createLocalProvider({ root: sandbox.root });
    const seen: string[] = [];
    // Every lower call of the apply is a moment a reader on the host could look.
    const look = () => {
      if (existsSync(sandbox.at('copy'))) seen.push(modeAt(sandbox.at('copy')));
    };
    const lower = {
      ...local,
      writeFile: async (...args: Parameters<typeof local.writeFile>) => {
        look();
        const written = await local.writeFile(...args);
        look();
        return written;
      },
      stat: async (...args: Parameters<typeof local.stat>) => (look(), local.stat(...args)),
    };
    const overlay = await openOverlay({ lower, state: join(sandbox.stateDirectory, 'watch.overlay') });
    try {
      await overlay.provider.copyFile!(path('secret'), path('copy'), { overwrite: false });
      expect((await overlay.apply()).conflicts).toEqual([]);
      look();
      expect(seen.length).toBeGreaterThan(0);
      expect(new Set(seen)).toEqual(new Set(['600']));
    } finally {
      await overlay.close();
      await local.close();
    }
  });
});

describe('a mode given to the overlay provider', () => {
  it('is the row’s own, shown by stat, and applied with the bytes', async () => {
    const lower = createMemfsProvider();
    const overlay = await openOverlay({ lower, state: ':memory:' });
    try {
      await overlay.provider.writeFile(path('d/key'), new TextEncoder().encode('k'), { overwrite: false, mode: 0o600 });
      expect(await overlay.provider.stat(path('d/key'))).toMatchObject({ kind: 'file', mode: 0o600 });
      await overlay.provider.copyFile!(path('d/key'), path('d/copy'), { overwrite: false });
      expect(await overlay.provider.stat(path('d/copy'))).toMatchObject({ mode: 0o600 });
      expect((await overlay.apply()).conflicts).toEqual([]);
      expect(await lower.stat(path('d/key'))).toMatchObject({ kind: 'file', mode: 0o600 });
      expect(await lower.stat(path('d/copy'))).toMatchObject({ kind: 'file', mode: 0o600 });
    } finally {
      await overlay.close();
      await lower.close();
    }
  });
});
