import { stat } from 'node:fs/promises';
import { escapeForDisplay, type ProviderBackend } from '@libos/core';

/**
 * `--provider local`, what the apps find in this package's `./backend` entry: the provider itself
 * is loaded only when a workspace opens (start-up time is mostly module loading).
 */
export const backend: ProviderBackend = {
  kind: 'provider',
  name: 'local',
  summary: 'the directory --root names, on real disk',
  servesRoot: true,
  flags: {},
  async open({ root, borrowWorkingDirectory }) {
    if (root === undefined) throw new Error('--root: the local provider needs a directory to serve');
    const status = await stat(root).catch(() => undefined);
    if (status === undefined) throw new Error(`--root: no such directory: ${root}`);
    if (!status.isDirectory()) throw new Error(`--root: not a directory: ${root}`);
    const { createLocalProvider } = await import('./create-local-provider.js');
    let provider: ReturnType<typeof createLocalProvider>;
    try {
      provider = createLocalProvider({ root, borrowWorkingDirectory });
    } catch (error) {
      throw new Error(`--root ${root}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`, { cause: error });
    }
    return {
      provider,
      served: escapeForDisplay(root),
      hostDirectories: [root],
    };
  },
};
