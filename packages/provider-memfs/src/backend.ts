import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { escapeForDisplay, type ProviderBackend } from '@libos/core';

/**
 * `--provider memfs`, what the apps find in this package's `./backend` entry: memfs itself is
 * loaded only when a workspace opens.
 */
export const backend: ProviderBackend = {
  kind: 'provider',
  name: 'memfs',
  summary: 'an in-memory volume, empty or a copy of --seed DIR (links included)',
  servesRoot: false,
  flags: { seed: { value: 'DIR', description: 'start as a copy of this directory, links included' } },
  async open({ flags }) {
    const { createMemfsProvider } = await import('./create-memfs-provider.js');
    const seed = flags.seed;
    if (seed === undefined) return { provider: createMemfsProvider(), served: 'an empty in-memory volume', hostDirectories: [] };
    const directory = resolve(seed);
    const status = await stat(directory).catch(() => undefined);
    if (status === undefined) throw new Error(`--seed: no such directory: ${seed}`);
    if (!status.isDirectory()) throw new Error(`--seed: not a directory: ${seed}`);
    try {
      return {
        provider: createMemfsProvider({ seed: directory }),
        served: `an in-memory copy of ${escapeForDisplay(directory)}`,
        // A copy made at start: a file kept inside the seed would be copied in for the agent to read.
        hostDirectories: [directory],
      };
    } catch (error) {
      throw new Error(`--seed ${seed}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`, { cause: error });
    }
  },
};
