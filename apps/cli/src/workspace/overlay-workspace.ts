import type { OpenedProvider } from '@libos/core';
import { openOverlay, type Overlay } from '@libos/provider-overlay';
import { UsageError } from '../usage-error.js';
import { refuseFilesInRoots, type PrivateFile } from './refuse-files-in-roots.js';

/**
 * `--overlay STATE`: the agent works on an overlay over the opened provider, so nothing it does
 * reaches the workspace until a person applies it (docs/overlay.md). The state must lie outside
 * every host directory the agent reaches.
 */
export async function overlayOver(opened: OpenedProvider, stateFile: string): Promise<{ opened: OpenedProvider; overlay: Overlay }> {
  await refuseFilesInRoots(overlayStateFiles(stateFile), opened.hostDirectories).catch(async (error: unknown) => {
    await opened.close?.();
    throw error;
  });
  let overlay: Overlay;
  try {
    overlay = await openOverlay({
      lower: opened.provider,
      state: stateFile,
      ...(opened.hostDirectories[0] === undefined ? {} : { lowerRoot: opened.hostDirectories[0] }),
    });
  } catch (error) {
    await opened.close?.();
    const text = error instanceof Error ? error.message : String(error);
    throw new UsageError(`libos: --overlay ${stateFile}: ${text.split('\n')[0]}`);
  }
  return {
    overlay,
    opened: {
      provider: overlay.provider,
      served: `${opened.served} through the overlay ${stateFile}`,
      hostDirectories: opened.hostDirectories,
      async close() {
        try {
          await overlay.close();
        } finally {
          await opened.provider.close();
          await opened.close?.();
        }
      },
    },
  };
}

/**
 * The files an overlay state is: the SQLite file and the -wal and -shm files beside it, each
 * judged after resolving links, so a state that is (or whose journal is) a link into a served
 * directory is refused before anything opens it (docs/overlay.md, "The state").
 */
export function overlayStateFiles(stateFile: string): PrivateFile[] {
  return ['', '-wal', '-shm'].map((suffix) => ({ flag: '--overlay', path: `${stateFile}${suffix}` }));
}
