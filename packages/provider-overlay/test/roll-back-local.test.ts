import { chmodSync, readFileSync, statSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { resolveWorkspacePath, ROOT_PATH, type FileSystemProviderV1 } from '@libos/core';
import { createLocalProvider } from '@libos/provider-local';
import { afterAll, describe, expect, it } from 'vitest';
import { openOverlay } from '../src/index.js';
import { createSandbox } from './local-sandbox.js';

const sandbox = createSandbox();
afterAll(() => sandbox.remove());
const path = (name: string) => resolveWorkspacePath(ROOT_PATH, name);
const bytes = (text: string) => new TextEncoder().encode(text);

describe('an all-or-nothing apply rolled back on a local lower', () => {
  it('puts back the very files it deleted, modes included', async () => {
    writeFileSync(sandbox.at('tool.sh'), '#!/bin/sh\n');
    chmodSync(sandbox.at('tool.sh'), 0o750);
    mkdirSync(sandbox.at('dir/inner'), { recursive: true });
    writeFileSync(sandbox.at('dir/inner/run'), 'x');
    chmodSync(sandbox.at('dir/inner/run'), 0o700);
    writeFileSync(sandbox.at('z.txt'), 'z');
    const local = createLocalProvider({ root: sandbox.root });
    // The person edits the last path just as the apply writes it, after both deletions landed.
    const lower: FileSystemProviderV1 = {
      ...local,
      writeFile: async (at, data, options) => {
        if (at === 'z.txt') writeFileSync(sandbox.at('z.txt'), 'person');
        return local.writeFile(at, data, options);
      },
    };
    const overlay = await openOverlay({ lower, state: join(sandbox.stateDirectory, 'modes.overlay') });
    await overlay.provider.deleteFile(path('tool.sh'), { missingOk: false });
    await overlay.provider.deleteDirectory(path('dir'), { recursive: true, missingOk: false });
    await overlay.provider.writeFile(path('z.txt'), bytes('agent'), { overwrite: true });
    const result = await overlay.apply({ mode: 'all_or_nothing' });
    expect(result).toMatchObject({ apply_id: null, applied: [], conflicts: [{ path: 'z.txt', reason: 'changed_on_disk' }] });
    expect(statSync(sandbox.at('tool.sh')).mode & 0o777).toBe(0o750);
    expect(statSync(sandbox.at('dir/inner/run')).mode & 0o777).toBe(0o700);
    expect(readFileSync(sandbox.at('dir/inner/run'), 'utf8')).toBe('x');
    // No file waits aside any more, and the person's edit stands.
    expect(
      readdirSync(sandbox.root)
        .filter((name) => !name.startsWith('.libos-staging'))
        .sort(),
    ).toEqual(['dir', 'tool.sh', 'z.txt']);
    expect(readFileSync(sandbox.at('z.txt'), 'utf8')).toBe('person');
    expect((await overlay.changes()).totals).toEqual({ added: 0, modified: 1, deleted: 2, replaced: 0 });
    await overlay.close();
    await local.close();
  });
});
