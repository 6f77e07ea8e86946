import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FileSystemProviderV1, resolveWorkspacePath, ROOT_PATH } from '@libos/core';
import { createLocalProvider } from '@libos/provider-local';
import { afterEach, describe, expect, it } from 'vitest';
import { openOverlay } from '../src/index.js';
import { createSandbox, type Sandbox } from './local-sandbox.js';

const CALL = fileURLToPath(new URL('./children/overlay-call.mjs', import.meta.url));
const path = (name: string) => resolveWorkspacePath(ROOT_PATH, name);
const sandboxes: Sandbox[] = [];
afterEach(() => {
  for (const sandbox of sandboxes.splice(0)) sandbox.remove();
});

function seeded(): Sandbox {
  const sandbox = createSandbox();
  sandboxes.push(sandbox);
  mkdirSync(join(sandbox.root, 'dir'));
  writeFileSync(join(sandbox.root, 'dir', 'a.txt'), 'lower\n');
  return sandbox;
}

const readText = async (provider: FileSystemProviderV1, name: string): Promise<string> => {
  try {
    return new TextDecoder().decode((await provider.readFile(path(name), { maxBytes: 1024 })).bytes);
  } catch (error) {
    return (error as { code: string }).code;
  }
};

// The overlay remembers which paths hold no row, so unchanged reads skip the lookup; what it
// remembers must never outlive a change another connection or process made to the state.
describe('reads after another writer changed the state', () => {
  it('see every change another process made, right after it', async () => {
    const sandbox = seeded();
    const state = join(sandbox.stateDirectory, 'ws.overlay');
    const lower = createLocalProvider({ root: sandbox.root });
    const overlay = await openOverlay({ lower, state });
    const other = (...args: string[]) => execFileSync(process.execPath, [CALL, sandbox.root, state, ...args], { stdio: 'pipe' });
    const rounds = process.env.LIBOS_STRESS === '1' ? 4 : 2;
    for (let round = 0; round < rounds; round++) {
      expect(await readText(overlay.provider, 'dir/a.txt')).toBe('lower\n');
      other('write', 'dir/a.txt', `agent ${round}\n`);
      expect(await readText(overlay.provider, 'dir/a.txt')).toBe(`agent ${round}\n`);
      other('discard');
      expect(await readText(overlay.provider, 'dir/a.txt')).toBe('lower\n');
      other('delete', 'dir/a.txt');
      expect(await readText(overlay.provider, 'dir/a.txt')).toBe('not_found');
      other('discard');
    }
    await overlay.close();
    await lower.close();
  }, 120_000);

  it('see every change another connection made, over many rounds, ancestors included', async () => {
    const sandbox = seeded();
    const state = join(sandbox.stateDirectory, 'ws.overlay');
    const lower = createLocalProvider({ root: sandbox.root });
    const reader = await openOverlay({ lower, state });
    const writer = await openOverlay({ lower, state });
    const rounds = process.env.LIBOS_STRESS === '1' ? 300 : 100;
    for (let round = 0; round < rounds; round++) {
      expect(await readText(reader.provider, 'dir/a.txt')).toBe('lower\n');
      if (round % 2 === 0) {
        // A change above the path: the whole directory goes.
        await writer.provider.deleteDirectory(path('dir'), { recursive: true, missingOk: false });
        expect(await readText(reader.provider, 'dir/a.txt')).toBe('not_found');
      } else {
        await writer.provider.writeFile(path('dir/a.txt'), new TextEncoder().encode(`round ${round}\n`), { overwrite: true });
        expect(await readText(reader.provider, 'dir/a.txt')).toBe(`round ${round}\n`);
      }
      await writer.discard();
    }
    // The reader's own writes are seen at once too.
    await reader.provider.writeFile(path('dir/a.txt'), new TextEncoder().encode('own\n'), { overwrite: true });
    expect(await readText(reader.provider, 'dir/a.txt')).toBe('own\n');
    await writer.close();
    await reader.close();
    await lower.close();
  }, 120_000);
});
