import type { ObjectStoreBackend } from '@libos/core';
import { urlWithoutPassword } from '@libos/provider-kit';
import type { ObjectStoreV1 } from '@libos/object-memory';

/**
 * `--objects postgres://…`, what the apps find in this package's `./backend` entry: the driver is
 * loaded only when a store opens.
 */
export const backend: ObjectStoreBackend<ObjectStoreV1> = {
  kind: 'object-store',
  name: 'postgres',
  schemes: ['postgres:', 'postgresql:'],
  async open(url) {
    const { createPostgresObjectStore } = await import('./create-postgres-object-store.js');
    try {
      return await createPostgresObjectStore({ connectionString: url });
    } catch (error) {
      throw new Error(`--objects ${urlWithoutPassword(url)}: cannot open the Object store: ${firstLine(error)}`, { cause: error });
    }
  },
};

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}
