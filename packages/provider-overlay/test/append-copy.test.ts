import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveWorkspacePath, ROOT_PATH } from '@libos/core';
import { createLocalProvider } from '@libos/provider-local';
import { afterEach, describe, expect, it } from 'vitest';
import { openOverlay } from '../src/index.js';
import { createSandbox, treeFingerprint, type Sandbox } from './local-sandbox.js';

const path = (name: string) => resolveWorkspacePath(ROOT_PATH, name);
const bytes = (text: string) => new TextEncoder().encode(text);
const sandboxes: Sandbox[] = [];
afterEach(() => {
  for (const sandbox of sandboxes.splice(0)) sandbox.remove();
});

async function opened() {
  const sandbox = createSandbox();
  sandboxes.push(sandbox);
  mkdirSync(join(sandbox.root, 'logs'));
  writeFileSync(join(sandbox.root, 'logs', 'app.log'), 'start\n');
  const lower = createLocalProvider({ root: sandbox.root });
  const overlay = await openOverlay({ lower, state: join(sandbox.stateDirectory, 'ws.overlay') });
  const read = async (name: string) => new TextDecoder().decode((await overlay.provider.readFile(path(name), { maxBytes: 1 << 20 })).bytes);
  return { sandbox, lower, overlay, read, before: treeFingerprint(sandbox.root) };
}

describe('append and copy on the overlay', () => {
  it('rewinds every append exactly, a lower file and the agent’s own, and the lower never changes', async () => {
    const { sandbox, lower, overlay, read, before } = await opened();
    const { provider } = overlay;
    const seen: Array<[number, string, string | null]> = [];
    for (let index = 0; index < 6; index++) {
      await provider.appendFile?.(path('logs/app.log'), bytes(`line ${index}\n`), { create: false });
      await provider.appendFile?.(path('notes/new.log'), bytes(`note ${index}\n`), { create: true });
      const calls = (await overlay.history()).calls;
      seen.push([calls.at(-1)?.seq as number, await read('logs/app.log'), await read('notes/new.log')]);
    }
    expect(seen.at(-1)?.[1]).toBe(`start\n${[0, 1, 2, 3, 4, 5].map((index) => `line ${index}\n`).join('')}`);
    expect(treeFingerprint(sandbox.root)).toBe(before);
    for (const [seq, log, note] of [...seen].reverse()) {
      await overlay.rewind(seq);
      expect(await read('logs/app.log')).toBe(log);
      expect(await read('notes/new.log')).toBe(note);
    }
    await overlay.rewind(0);
    expect(await read('logs/app.log')).toBe('start\n');
    expect((await overlay.changes()).changes).toEqual([]);
    await overlay.close();
    await lower.close();
  });

  it('a copy is an added file with the source bytes, a copy over a lower file is modified, and both apply', async () => {
    const { sandbox, lower, overlay, read } = await opened();
    const { provider } = overlay;
    writeFileSync(join(sandbox.root, 'target.txt'), 'old target\n');
    await provider.appendFile?.(path('logs/app.log'), bytes('more\n'), { create: false });
    expect(await provider.copyFile?.(path('logs/app.log'), path('backup/app.log'), { overwrite: false })).toEqual({
      bytesCopied: 11,
      replaced: false,
    });
    expect(await provider.copyFile?.(path('logs/app.log'), path('target.txt'), { overwrite: true })).toEqual({ bytesCopied: 11, replaced: true });
    expect(await read('backup/app.log')).toBe('start\nmore\n');
    const { changes } = await overlay.changes();
    expect(changes.map((change) => [change.path, change.change])).toEqual([
      ['backup', 'added'],
      ['backup/app.log', 'added'],
      ['logs/app.log', 'modified'],
      ['target.txt', 'modified'],
    ]);
    const applied = await overlay.apply();
    expect(applied.conflicts).toEqual([]);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(join(sandbox.root, 'backup/app.log'), 'utf8')).toBe('start\nmore\n');
    expect(readFileSync(join(sandbox.root, 'target.txt'), 'utf8')).toBe('start\nmore\n');
    expect(readFileSync(join(sandbox.root, 'logs/app.log'), 'utf8')).toBe('start\nmore\n');
    await overlay.close();
    await lower.close();
  });
});
