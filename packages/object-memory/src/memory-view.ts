import { LibosError } from '@libos/core';
import type { MemoryObject } from '@libos/core';

/**
 * The Objects one process has chosen to keep in view. Creating an Object never attaches it; only
 * `attach` does.
 */
export interface MemoryView {
  readonly processId: string;
  /** Adds an Object by oid (idempotent). Rejects with `object_not_found` for an oid no live Object has. */
  attach(oid: string): Promise<MemoryObject>;
  /** Removes an Object from the view; tells whether it was attached. */
  detach(oid: string): boolean;
  /** Tells whether an Object is attached. */
  has(oid: string): boolean;
  /** The attached Objects that are still live, in the order they were attached. */
  list(): Promise<MemoryObject[]>;
}

/** Makes the view of one process over a lookup of live Objects. */
export function createMemoryView(processId: string, lookup: (oid: string) => Promise<MemoryObject | undefined>): MemoryView {
  const attached = new Set<string>();
  return {
    processId,
    async attach(oid) {
      const object = await lookup(oid);
      if (object === undefined) {
        throw new LibosError('object_not_found', 'No live Object has this oid.', { details: { oid } });
      }
      attached.add(oid);
      return object;
    },
    detach: (oid) => attached.delete(oid),
    has: (oid) => attached.has(oid),
    async list() {
      const objects = await Promise.all([...attached].map((oid) => lookup(oid)));
      return objects.filter((object): object is MemoryObject => object !== undefined);
    },
  };
}
