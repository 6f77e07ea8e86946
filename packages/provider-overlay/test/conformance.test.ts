import { describeProvider } from '@libos/provider-conformance';
import { createLocalProvider } from '@libos/provider-local';
import { DEFAULT_MEMFS_ROOT } from '@libos/provider-memfs';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { join } from 'node:path';
import { openOverlay } from '../src/index.js';
import { createLocalFixtures, createSandbox } from './local-sandbox.js';
import { overlayFixtures } from './overlay-fixtures.js';

describeProvider('overlay over memfs', async ({ onCleanup }) => {
  const { provider: lower, fixtures, volume } = createMemfsTestbed();
  const at = (path: string): string => (path === '.' ? DEFAULT_MEMFS_ROOT : `${DEFAULT_MEMFS_ROOT}/${path}`);
  const overlay = await openOverlay({ lower, state: ':memory:' });
  onCleanup(async () => {
    await overlay.close();
    await lower.close();
  });
  const lowerFixtures = {
    ...fixtures,
    modes: {
      get: async (path: string) => Number(volume.lstatSync(at(path)).mode) & 0o7777,
      set: async (path: string, mode: number) => volume.chmodSync(at(path), mode),
    },
    removeWorkspace: async () => volume.rmSync(at('.'), { recursive: true, force: true }),
  };
  return { provider: overlay.provider, fixtures: overlayFixtures(overlay.provider, lowerFixtures), hostRoot: DEFAULT_MEMFS_ROOT };
});

describeProvider('overlay over local', async ({ onCleanup }) => {
  const sandbox = createSandbox();
  const lower = createLocalProvider({ root: sandbox.root });
  const overlay = await openOverlay({ lower, state: join(sandbox.stateDirectory, 'ws.overlay') });
  onCleanup(async () => {
    await overlay.close();
    await lower.close();
    sandbox.remove();
  });
  return { provider: overlay.provider, fixtures: overlayFixtures(overlay.provider, createLocalFixtures(sandbox)), hostRoot: sandbox.root };
});
