import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { LibosError, escapeForDisplay, type ProviderBackend } from '@libos/core';
import { urlWithoutPassword } from '@libos/provider-kit';

/**
 * `--provider postgres`, what the apps find in this package's `./backend` entry: the driver and the
 * provider load only when a workspace opens. The workspace is opened (and created, and seeded from
 * `--seed` when this start created it) before the app serves anything.
 */
export const backend: ProviderBackend = {
  kind: 'provider',
  name: 'postgres',
  summary: 'a workspace in PostgreSQL, shared by every host that opens it (--database URL --workspace NAME)',
  servesRoot: false,
  flags: {
    database: { value: 'URL', description: 'the PostgreSQL database (postgres://user:password@host:port/db)', required: true },
    workspace: { value: 'NAME', description: 'the workspace to serve, created on first use', required: true },
    seed: { value: 'DIR', description: 'copied in when the workspace is new (directories and files only)' },
  },
  async open({ flags, bounds, existingOnly }) {
    const { createPostgresProvider } = await import('./create-postgres-provider.js');
    const url = flags.database!;
    const seed = flags.seed === undefined ? undefined : resolve(flags.seed);
    if (seed !== undefined) {
      const status = await stat(seed).catch(() => undefined);
      if (status === undefined) throw new Error(`--seed: no such directory: ${flags.seed}`);
      if (!status.isDirectory()) throw new Error(`--seed: not a directory: ${flags.seed}`);
    }
    let provider: ReturnType<typeof createPostgresProvider>;
    try {
      provider = createPostgresProvider({
        connectionString: url,
        workspace: flags.workspace!,
        workspaceMaxBytes: bounds.workspace_max_bytes,
        ...(existingOnly === true ? { existingOnly } : {}),
        // Copied in by the transaction that creates the workspace: all of it, or no workspace at all.
        ...(seed === undefined ? {} : { seed }),
      });
    } catch (error) {
      throw new Error(`--workspace ${flags.workspace}: ${firstLine(error)}`, { cause: error });
    }
    try {
      await provider.open();
    } catch (error) {
      await provider.close();
      if (LibosError.is(error, 'not_found') && error.details?.reason === 'workspace_missing') {
        throw new Error(
          `--workspace ${escapeForDisplay(JSON.stringify(flags.workspace))}: no such workspace in this database (this command never creates one)`,
          {
            cause: error,
          },
        );
      }
      const seedFailed = LibosError.is(error) && error.details?.reason === 'seed_failed';
      if (seedFailed) throw new Error(`--seed ${flags.seed}: ${firstLine(error)}`, { cause: error });
      throw new Error(`--database ${urlWithoutPassword(url)}: cannot open the workspace: ${firstLine(error)}`, { cause: error });
    }
    return {
      provider,
      served: `the PostgreSQL workspace ${escapeForDisplay(JSON.stringify(flags.workspace))} at ${escapeForDisplay(urlWithoutPassword(url))}`,
      hostDirectories: seed === undefined ? [] : [seed],
      close: () => provider.close(),
    };
  },
};

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}
