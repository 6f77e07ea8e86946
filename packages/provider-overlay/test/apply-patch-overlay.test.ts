import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLocalProvider } from '@libos/provider-local';
import { createRuntime } from '@libos/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { openOverlay } from '../src/index.js';
import { createSandbox, treeFingerprint, type Sandbox } from './local-sandbox.js';

const sandboxes: Sandbox[] = [];
afterEach(() => {
  for (const sandbox of sandboxes.splice(0)) sandbox.remove();
});

describe('apply_patch on the overlay', () => {
  it('lands every file of a patch in the overlay, never in the lower, each a change a person reviews, and rewinds', async () => {
    const sandbox = createSandbox();
    sandboxes.push(sandbox);
    mkdirSync(join(sandbox.root, 'src'));
    writeFileSync(join(sandbox.root, 'src', 'a.txt'), 'one\n');
    writeFileSync(join(sandbox.root, 'old.txt'), 'gone\n');
    const before = treeFingerprint(sandbox.root);
    const overlay = await openOverlay({ lower: createLocalProvider({ root: sandbox.root }), state: join(sandbox.stateDirectory, 'ws.overlay') });
    const runtime = await createRuntime({ provider: overlay.provider });
    const patch = [
      '*** Begin Patch',
      '*** Update File: src/a.txt',
      '*** Move to: src/b.txt',
      '-one',
      '+two',
      '*** Add File: docs/new.md',
      '+hello',
      '*** Delete File: old.txt',
      '*** End Patch',
    ].join('\n');
    expect(await runtime.spawn().call('apply_patch', { patch })).toMatchObject({ ok: true });
    expect(treeFingerprint(sandbox.root)).toBe(before);
    const { changes } = await overlay.changes();
    expect(changes.map((change) => [change.path, change.change])).toEqual([
      ['docs', 'added'],
      ['docs/new.md', 'added'],
      ['old.txt', 'deleted'],
      ['src/a.txt', 'deleted'],
      ['src/b.txt', 'added'],
    ]);
    const { calls } = await overlay.history();
    expect(calls.every((call) => call.tool === 'apply_patch')).toBe(true);
    await overlay.rewind(0);
    expect((await overlay.changes()).changes).toEqual([]);
    await runtime.close();
  });
});
