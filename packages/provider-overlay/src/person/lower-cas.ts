import { LibosError, ROOT_PATH, childPath, parentPath, baseName, type FileSystemProviderV1, type WorkspacePath } from '@libos/core';
import { lowerManifest, readWhole, sameManifest, sha256Hex, type ManifestEntry } from '../agent/lower-files.js';
import type { ConflictReason, OverlayConflict } from '../overlay-types.js';

/** What the lower holds at a path, observed through its own calls. */
export type Observed =
  | { readonly kind: 'missing' }
  | { readonly kind: 'file'; readonly sha256: string; readonly bytes: Uint8Array; readonly mode?: number | null }
  | { readonly kind: 'directory' }
  | { readonly kind: 'other' };

/** What a change expects on disk: a file by hash, no entry, or a directory by manifest. */
export type Expectation =
  | { readonly kind: 'file'; readonly sha256: string }
  | { readonly kind: 'missing' }
  | { readonly kind: 'directory'; readonly manifest: readonly ManifestEntry[] };

/** Observes the lower at `path`; anything that is not a readable regular file or a directory is `other`. */
export async function observe(lower: FileSystemProviderV1, path: WorkspacePath): Promise<Observed> {
  try {
    const status = await lower.stat(path);
    if (status.kind === 'missing') return { kind: 'missing' };
    if (status.kind === 'directory') return { kind: 'directory' };
    if (status.kind !== 'file') return { kind: 'other' };
    const bytes = await readWhole(lower, path, status.sizeBytes);
    return { kind: 'file', sha256: sha256Hex(bytes), bytes, mode: status.mode ?? null };
  } catch (error) {
    if (LibosError.is(error, 'not_found') && error.details?.reason === undefined) return { kind: 'missing' };
    if (LibosError.is(error, 'not_a_directory', 'not_found', 'symlink_refused', 'hard_link_refused', 'not_a_file')) return { kind: 'other' };
    throw error;
  }
}

/** The conflict a person sees when the lower holds `observed` instead of `expected`. */
export function conflictOf(path: string, expected: Expectation, observed: Observed): OverlayConflict {
  let reason: ConflictReason;
  if (expected.kind === 'missing') reason = 'created_on_disk';
  else if (observed.kind === 'missing') reason = 'deleted_on_disk';
  else reason = 'changed_on_disk';
  return {
    path,
    reason,
    expected_sha256: expected.kind === 'file' ? expected.sha256 : null,
    actual_sha256: observed.kind === 'file' ? observed.sha256 : null,
  };
}

/** Whether the lower holds what `expected` says. */
export async function holds(lower: FileSystemProviderV1, path: WorkspacePath, expected: Expectation, observed?: Observed): Promise<boolean> {
  const seen = observed ?? (await observe(lower, path));
  if (expected.kind === 'missing') return seen.kind === 'missing';
  if (expected.kind === 'file') return seen.kind === 'file' && seen.sha256 === expected.sha256;
  if (seen.kind !== 'directory') return false;
  return sameManifest(sortManifest(await lowerManifest(lower, path)), sortManifest(expected.manifest));
}

/** Manifest entries in code-point order of their paths, as the state stores them. */
export function sortManifest(entries: readonly ManifestEntry[]): ManifestEntry[] {
  return [...entries].sort((left, right) => (left.path === right.path ? 0 : codePointLess(left.path, right.path) ? -1 : 1));
}

function codePointLess(left: string, right: string): boolean {
  return Buffer.compare(Buffer.from(left, 'utf8'), Buffer.from(right, 'utf8')) < 0;
}

/**
 * Writes a file into the lower only if it still holds `expected` (the lower's own compare-and-swap:
 * `expectedSha256` or `'missing'` with exclusive creation), with permission bits `mode` when given.
 * Returns the conflict otherwise.
 */
export async function casWrite(
  lower: FileSystemProviderV1,
  path: WorkspacePath,
  bytes: Uint8Array,
  expected: Expectation,
  mode?: number,
): Promise<OverlayConflict | null> {
  if (expected.kind === 'directory') throw new Error('casWrite expects a file or no entry');
  // The mode lands with the bytes, in the lower's one write: never the default first, then narrowed.
  const withMode = mode === undefined ? {} : { mode };
  try {
    await lower.writeFile(
      path,
      bytes,
      expected.kind === 'missing'
        ? { overwrite: false, expectedSha256: 'missing', ...withMode }
        : { overwrite: true, expectedSha256: expected.sha256, ...withMode },
    );
    return null;
  } catch (error) {
    if (
      !LibosError.is(
        error,
        'content_conflict',
        'changed_during_operation',
        'already_exists',
        'not_a_file',
        'not_a_directory',
        'symlink_refused',
        'hard_link_refused',
        'not_found',
      )
    )
      throw error;
    return conflictOf(path, expected, await observe(lower, path));
  }
}

/** A name beside `path` that only this apply step uses. */
export function asideName(path: WorkspacePath, tag: string): WorkspacePath {
  const parent = parentPath(path) ?? ROOT_PATH;
  return childPath(parent, `.libos-overlay-${tag}-${baseName(path).slice(0, 120)}`);
}

/**
 * Deletes a lower file only if it holds `sha256`. With a lower that can rename, the file is first
 * moved aside in one atomic step (no libOS writer can slip in between the check and the unlink:
 * a write after the move makes a new file, which survives) and moved back if it was not the base.
 * With `hold`, the base stays aside (an all-or-nothing apply unlinks it only once it commits).
 */
export async function casDeleteFile(
  lower: FileSystemProviderV1,
  path: WorkspacePath,
  sha256: string,
  aside: WorkspacePath,
  hold = false,
): Promise<OverlayConflict | null> {
  const expected: Expectation = { kind: 'file', sha256 };
  if (lower.rename === undefined) {
    const seen = await observe(lower, path);
    if (!(await holds(lower, path, expected, seen))) return conflictOf(path, expected, seen);
    await lower.deleteFile(path, { missingOk: true });
    return null;
  }
  try {
    await lower.rename(path, aside, { overwrite: false });
  } catch (error) {
    if (
      !LibosError.is(
        error,
        'not_found',
        'not_a_file',
        'symlink_refused',
        'hard_link_refused',
        'not_a_directory',
        'already_exists',
        'changed_during_operation',
      )
    )
      throw error;
    return conflictOf(path, expected, await observe(lower, path));
  }
  return settleAside(lower, path, sha256, aside, hold);
}

/** Finishes a delete whose file sits aside: unlinks it if it is the base (keeps it with `hold`), else puts it back. */
export async function settleAside(
  lower: FileSystemProviderV1,
  path: WorkspacePath,
  sha256: string,
  aside: WorkspacePath,
  hold = false,
): Promise<OverlayConflict | null> {
  const seen = await observe(lower, aside);
  if (seen.kind === 'missing') return null;
  if (seen.kind === 'file' && seen.sha256 === sha256) {
    if (!hold) await lower.deleteFile(aside, { missingOk: true });
    return null;
  }
  const conflict = conflictOf(path, { kind: 'file', sha256 }, seen);
  await returnOrDrop(lower, aside, path);
  return conflict;
}

/**
 * Moves a held base from `aside` back to `path`, unless the name was taken meanwhile: then what
 * stands there is newer and the aside goes. Returns whether the base went back. Only a file holding
 * `sha256` is moved: anything else at the aside name is not this apply's and stays.
 */
export async function returnAside(lower: FileSystemProviderV1, path: WorkspacePath, sha256: string, aside: WorkspacePath): Promise<boolean> {
  const seen = await observe(lower, aside);
  if (seen.kind !== 'file' || seen.sha256 !== sha256) return false;
  return returnOrDrop(lower, aside, path);
}

/** Unlinks a held base the apply no longer needs (it committed, or the name was taken); anything else stays. */
export async function dropAside(lower: FileSystemProviderV1, sha256: string, aside: WorkspacePath): Promise<void> {
  const seen = await observe(lower, aside);
  if (seen.kind === 'file' && seen.sha256 === sha256) await lower.deleteFile(aside, { missingOk: true });
}

async function returnOrDrop(lower: FileSystemProviderV1, aside: WorkspacePath, path: WorkspacePath): Promise<boolean> {
  try {
    await lower.rename?.(aside, path, { overwrite: false });
    return true;
  } catch (error) {
    // Someone wrote the name again after the move (or made a directory there): theirs is newer.
    if (!LibosError.is(error, 'already_exists', 'not_a_directory')) throw error;
    try {
      await lower.deleteFile(aside, { missingOk: true });
    } catch (failure) {
      // The aside's own directory is gone or is a file now: there is nothing left to drop.
      if (!LibosError.is(failure, 'not_a_directory', 'not_found')) throw failure;
    }
    return false;
  }
}
