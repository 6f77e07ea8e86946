/**
 * What a provider can hold and guarantee. The tools require `atomicReplace` and `exclusiveCreate`;
 * the conformance kit reads the rest to decide which groups apply.
 */
export interface ProviderCapabilities {
  /** Symbolic links can exist in the workspace, so every resolution must refuse them. */
  readonly symlinks: boolean;
  /** A regular file can have several names, so read, overwrite and delete must refuse it. */
  readonly hardLinks: boolean;
  /** FIFOs, sockets or devices can exist; they are kind `other` and are never opened for I/O. */
  readonly specialFiles: boolean;
  /** `writeFile` replaces a file so that readers see the old bytes or the new, never a mix. */
  readonly atomicReplace: boolean;
  /** `writeFile` with `overwrite: false` decides existence by exclusive creation. */
  readonly exclusiveCreate: boolean;
  /** New bytes reach stable storage before they replace the old ones. */
  readonly durableWrites: boolean;
}
