import { childPath } from '@libos/core';
import type { EntryKind, FileRead, TreeSearchEntry, WorkspacePath } from '@libos/core';

/**
 * One directory's entries as columns: how a search thread sends them, since a message of objects
 * spells every key of every object again (measured 0.12 ms per 100 entries against 0.02 ms).
 */
export interface PackedEntries {
  readonly names: readonly string[];
  readonly modifiedAt: readonly string[];
  readonly kinds: Uint8Array;
  /** The size of a file; -1 for any other kind (`sizeBytes: null`). */
  readonly sizes: Float64Array;
  readonly candidates: Uint8Array;
  /** The carried reads, by entry index. */
  readonly reads: readonly (readonly [index: number, read: FileRead])[];
}

const KINDS: readonly EntryKind[] = ['file', 'directory', 'symlink', 'other'];

/** The entries of one directory as columns (see `PackedEntries`). */
export function packEntries(entries: readonly TreeSearchEntry[]): PackedEntries {
  const count = entries.length;
  const packed = {
    names: new Array<string>(count),
    modifiedAt: new Array<string>(count),
    kinds: new Uint8Array(count),
    sizes: new Float64Array(count),
    candidates: new Uint8Array(count),
    reads: [] as (readonly [number, FileRead])[],
  };
  entries.forEach((entry, index) => {
    packed.names[index] = entry.name;
    packed.modifiedAt[index] = entry.modifiedAt;
    packed.kinds[index] = KINDS.indexOf(entry.kind);
    packed.sizes[index] = entry.sizeBytes ?? -1;
    packed.candidates[index] = entry.candidate ? 1 : 0;
    if (entry.read !== undefined) packed.reads.push([index, entry.read]);
  });
  return packed;
}

/** The entries of the directory `path` back from their columns. */
export function unpackEntries(path: WorkspacePath, packed: PackedEntries): TreeSearchEntry[] {
  const reads = new Map(packed.reads);
  return packed.names.map((name, index) => {
    const read = reads.get(index);
    const size = packed.sizes[index]!;
    const entry = {
      name,
      path: childPath(path, name),
      kind: KINDS[packed.kinds[index]!]!,
      sizeBytes: size < 0 ? null : size,
      modifiedAt: packed.modifiedAt[index]!,
      candidate: packed.candidates[index] === 1,
    };
    return read === undefined ? entry : { ...entry, read };
  });
}
