import { type FileSystemProviderV1, escapeForDisplay } from '@libos/core';
import { openOverlay, type Overlay } from '@libos/provider-overlay';
import { UsageError } from '../usage-error.js';
import { auditPrivateFiles } from './audit-options.js';
import { openProvider, readConfig } from './open-workspace.js';
import { overlayStateFiles } from './overlay-workspace.js';
import { personOperations, type PersonOperations } from './person-operations.js';
import { refuseFilesInRoots } from './refuse-files-in-roots.js';
import type { WorkspaceOptions } from './workspace-options.js';

/** An overlay opened for a person (its commands or the review page), and how to let it go. */
export interface PersonOverlay {
  readonly overlay: Overlay;
  readonly operations: PersonOperations;
  /** The provider under the overlay: what is on disk, the person's version. */
  readonly lower: FileSystemProviderV1;
  close(): Promise<void>;
}

/** Opens the lower the options name and the overlay state over it; a bad start is a UsageError. */
export async function openPersonOverlay(label: string, options: WorkspaceOptions): Promise<PersonOverlay> {
  const state = options.overlayFile;
  if (state === undefined) throw new UsageError(`${label}: needs --overlay STATE, the state file the agent's server used`);
  // An apply writes into the lower: the same bounds as the agent's server (its quota) hold there.
  const config = options.configFile === undefined ? undefined : await readConfig(options.configFile);
  const lower = await openProvider(options, config?.bounds, { existingOnly: true });
  // The state and the audit log must lie outside what the agent reaches, as for the agent's own commands.
  const privateFiles = [...overlayStateFiles(state), ...auditPrivateFiles(options.audit)];
  await refuseFilesInRoots(privateFiles, lower.hostDirectories).catch(async (error: unknown) => {
    await lower.provider.close();
    await lower.close?.();
    throw error;
  });
  let overlay: Overlay;
  try {
    overlay = await openOverlay({
      lower: lower.provider,
      state,
      // Never creates the state, and refuses one recorded for another root (docs/overlay.md).
      opener: 'person',
      ...(lower.hostDirectories[0] === undefined ? {} : { lowerRoot: lower.hostDirectories[0] }),
    });
  } catch (error) {
    await lower.provider.close();
    await lower.close?.();
    throw new UsageError(
      `${label}: --overlay ${escapeForDisplay(state)}: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`,
    );
  }
  return {
    overlay,
    operations: personOperations(overlay, options),
    lower: lower.provider,
    async close() {
      try {
        await overlay.close();
      } finally {
        await lower.provider.close();
        await lower.close?.();
      }
    },
  };
}
