import { DEFAULT_MEMFS_ROOT, createMemfsTestbed } from '@libos/provider-memfs';
import type { ProviderUnderTest } from '../src/index.js';

/** The real memfs provider with its fixtures, plus the optional `modes` fixture over the same volume. */
export function memfsUnderTest(): ProviderUnderTest {
  const { provider, fixtures, volume } = createMemfsTestbed();
  const at = (path: string): string => `${DEFAULT_MEMFS_ROOT}/${path}`;
  return {
    provider,
    hostRoot: DEFAULT_MEMFS_ROOT,
    fixtures: {
      ...fixtures,
      modes: {
        get: async (path) => Number(volume.lstatSync(at(path)).mode) & 0o7777,
        set: async (path, mode) => volume.chmodSync(at(path), mode),
      },
    },
  };
}
