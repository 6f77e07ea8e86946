import type { Backend } from '@libos/core';
import { backend as postgresObjects } from '@libos/object-store-postgres/backend';
import { backend as local } from '@libos/provider-local/backend';
import { backend as memfs } from '@libos/provider-memfs/backend';
import { backend as postgres } from '@libos/provider-postgres/backend';

/**
 * The one table of backends the CLI serves: each package's light `./backend` entry (a
 * `ProviderBackend` or an `ObjectStoreBackend`; the implementation loads when one opens). A new
 * backend is an import and a line here, plus the dependency; no command changes
 * (docs/backends.md). The first provider is the default `--provider`.
 */
export const BACKENDS: readonly Backend[] = [local, memfs, postgres, postgresObjects];
