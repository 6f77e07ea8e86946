import { openOverlay } from '@libos/provider-overlay';
import { createRuntime } from '@libos/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { createMountProvider } from '../src/index.js';
import { type Backing, localBacking, memfsBacking } from './backings.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function overlaidMounts() {
  const web: Backing = localBacking();
  const api: Backing = memfsBacking();
  const lower = createMountProvider({ web: web.provider, api: api.provider });
  const overlay = await openOverlay({ lower, state: ':memory:' });
  const runtime = await createRuntime({ provider: overlay.provider });
  cleanups.push(async () => {
    await runtime.close();
    await overlay.close();
    await lower.close();
    web.remove();
  });
  return { web, api, overlay, agent: runtime.spawn() };
}

describe('the overlay over a mount provider', () => {
  it('keeps the rules of the root: a mount point is never deleted, nothing is created beside the mounts', async () => {
    const { web, api, overlay, agent } = await overlaidMounts();
    await web.fixtures.writeFile('src/app.ts', 'app');
    const before = `${web.wholeFingerprint()} ${api.wholeFingerprint()}`;
    const deleted = await agent.call('delete_directory', { path: 'web', recursive: true });
    expect(deleted.ok ? deleted.result : deleted.error).toMatchObject({ code: 'root_refused', effect: 'none', details: { path: 'web' } });
    const created = await agent.call('write_text_file', { path: 'stray.txt', content: 'x' });
    expect(created.ok ? created.result : created.error).toMatchObject({ code: 'protected_path' });
    expect((await agent.call('read_text_file', { path: 'web/src/app.ts' })).ok).toBe(true);
    expect((await overlay.changes()).changes).toEqual([]);
    expect(`${web.wholeFingerprint()} ${api.wholeFingerprint()}`).toBe(before);
  });

  it('records changes in both mounts under workspace paths and applies them through each mount', async () => {
    const { web, api, overlay, agent } = await overlaidMounts();
    await web.fixtures.writeFile('src/app.ts', 'app');
    expect((await agent.call('write_text_file', { path: 'web/src/app.ts', content: 'changed' })).ok).toBe(true);
    expect((await agent.call('copy_file', { from: 'web/src/app.ts', to: 'api/copy.ts' })).ok).toBe(true);
    expect(new TextDecoder().decode((await web.fixtures.readFile('src/app.ts'))!)).toBe('app');
    expect(await api.fixtures.kindOf('copy.ts')).toBe('missing');
    expect((await overlay.changes()).changes.map((change) => [change.path, change.change])).toEqual([
      ['api/copy.ts', 'added'],
      ['web/src/app.ts', 'modified'],
    ]);
    expect((await overlay.apply()).conflicts).toEqual([]);
    expect(new TextDecoder().decode((await web.fixtures.readFile('src/app.ts'))!)).toBe('changed');
    expect(new TextDecoder().decode((await api.fixtures.readFile('copy.ts'))!)).toBe('changed');
  });
});
