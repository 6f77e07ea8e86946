import { LibosError } from '@libos/core';
import type { MemoryObject } from './memory-object.js';

/**
 * The Objects one process has chosen to keep in view. Creating an Object never attaches it; only
 * `attach` does.
 */
export interface MemoryView {
  readonly processId: string;
  /** Adds an Object by oid (idempotent). Throws `object_not_found` for an unknown oid. */
  attach(oid: string): MemoryObject;
  /** Removes an Object from the view; tells whether it was attached. */
  detach(oid: string): boolean;
  /** Tells whether an Object is attached. */
  has(oid: string): boolean;
  /** The attached Objects, in the order they were attached. */
  list(): MemoryObject[];
}

/** Makes the view of one process over a lookup of live Objects. */
export function createMemoryView(processId: string, lookup: (oid: string) => MemoryObject | undefined): MemoryView {
  const attached = new Set<string>();
  return {
    processId,
    attach(oid) {
      const object = lookup(oid);
      if (object === undefined) {
        throw new LibosError('object_not_found', 'No live Object has this oid.', { details: { oid } });
      }
      attached.add(oid);
      return object;
    },
    detach: (oid) => attached.delete(oid),
    has: (oid) => attached.has(oid),
    list() {
      const objects: MemoryObject[] = [];
      for (const oid of attached) {
        const object = lookup(oid);
        if (object !== undefined) objects.push(object);
      }
      return objects;
    },
  };
}
