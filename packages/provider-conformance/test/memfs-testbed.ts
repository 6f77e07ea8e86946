import { DEFAULT_MEMFS_ROOT } from '@libos/provider-memfs';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import type { ProviderUnderTest } from '../src/index.js';

/** The memfs volume type, taken from the testbed so this package needs no memfs dependency. */
export type Volume = ReturnType<typeof createMemfsTestbed>['volume'];

/** The real memfs provider and fixtures, the volume under them, and a volume path for a workspace path. */
export interface MemfsTestbed {
  readonly underTest: ProviderUnderTest;
  readonly volume: Volume;
  at(path: string): string;
}

/** A fresh memfs workspace with its fixtures, plus the optional `modes` and `removeWorkspace` fixtures over the same volume. */
export function memfsTestbed(): MemfsTestbed {
  const { provider, fixtures, volume } = createMemfsTestbed();
  const at = (path: string): string => (path === '.' ? DEFAULT_MEMFS_ROOT : `${DEFAULT_MEMFS_ROOT}/${path}`);
  const underTest: ProviderUnderTest = {
    provider,
    hostRoot: DEFAULT_MEMFS_ROOT,
    fixtures: {
      ...fixtures,
      modes: {
        get: async (path) => Number(volume.lstatSync(at(path)).mode) & 0o7777,
        set: async (path, mode) => volume.chmodSync(at(path), mode),
      },
      removeWorkspace: async () => volume.rmSync(at('.'), { recursive: true, force: true }),
    },
  };
  return { underTest, volume, at };
}
