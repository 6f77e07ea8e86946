import { createHash } from 'node:crypto';
import { childPath, type FileSystemProviderV1, type WorkspacePath } from '@libos/core';

/** Lowercase hex SHA-256 of some bytes. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

const signalOption = (signal: AbortSignal | undefined) => (signal === undefined ? {} : { signal });

/**
 * Reads a whole lower file through the lower's own `readFile` (so links, hard links and special
 * files are refused exactly as the lower refuses them), growing the read if the file grew meanwhile.
 */
export async function readWhole(
  lower: FileSystemProviderV1,
  path: WorkspacePath,
  sizeHint: number | null,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  let maxBytes = Math.max(sizeHint ?? 0, 4096);
  for (;;) {
    const read = await lower.readFile(path, { maxBytes, ...signalOption(signal) });
    if (!read.truncated) return read.bytes;
    maxBytes *= 4;
  }
}

/** One entry of a directory's manifest: a path relative to the directory, its kind, and a file's hash and size. */
export interface ManifestEntry {
  readonly path: string;
  readonly kind: 'file' | 'directory' | 'symlink' | 'other';
  readonly sha256: string | null;
  readonly size: number | null;
  /** The bytes, kept only when the caller asked (an apply keeps them to undo). */
  readonly bytes?: Uint8Array;
}

// A listing that is complete for any directory a person could hold; memory is one directory's names.
const WHOLE_LISTING = 2 ** 31 - 1;

/**
 * Every entry below a lower directory, depth first in code-point order, each file hashed. Links and
 * special files are recorded, never followed or opened; a mount point below refuses the walk as the
 * lower's listing refuses it.
 */
export async function lowerManifest(
  lower: FileSystemProviderV1,
  directory: WorkspacePath,
  options: { readonly keepBytes?: boolean; readonly signal?: AbortSignal } = {},
): Promise<ManifestEntry[]> {
  const manifest: ManifestEntry[] = [];
  const visit = async (current: WorkspacePath, relative: string): Promise<void> => {
    const listing = await lower.listDirectory(current, { limit: WHOLE_LISTING, ...signalOption(options.signal) });
    for (const entry of listing.entries) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      const at = childPath(current, entry.name);
      if (entry.kind === 'file') {
        const bytes = await readWhole(lower, at, entry.sizeBytes, options.signal);
        manifest.push({ path, kind: 'file', sha256: sha256Hex(bytes), size: bytes.length, ...(options.keepBytes === true ? { bytes } : {}) });
      } else {
        manifest.push({ path, kind: entry.kind, sha256: null, size: null });
        if (entry.kind === 'directory') await visit(at, path);
      }
    }
  };
  await visit(directory, '');
  return manifest;
}

/** Whether two manifests name the same entries with the same kinds and bytes. */
export function sameManifest(left: readonly ManifestEntry[], right: readonly ManifestEntry[]): boolean {
  if (left.length !== right.length) return false;
  return left.every((entry, index) => {
    const other = right[index] as ManifestEntry;
    return entry.path === other.path && entry.kind === other.kind && entry.sha256 === other.sha256;
  });
}
