import { closeSync, openSync, readSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { childPath } from '@libos/core';
import type { FileRead, TreeSearchEntry, WorkspacePath } from '@libos/core';
import { entryKind } from './entry-kind.js';
import type { NameIn } from './fd-paths.js';
import { REOPEN_FILE } from './host-flags.js';
import { isProtectedName } from './is-protected-name.js';
import { isAscii, shownName } from './listed-names.js';
import { modifiedAt } from './modified-at.js';
import { mountIdOf } from './mount-id.js';
import { identityOf } from './mount-roots.js';
import { isStillSoleName, probeHostName } from './probe-entry.js';

/**
 * What describing the entries of one search needs, on the main thread or in a search thread: the
 * query, the root's device and mount, what is known of the mounts below it, and the answer so far.
 */
export interface DescribeState {
  /** The magic link of an fd (`FdPaths.of`), to reopen a probed file. */
  readonly fdPath: (fd: number) => string;
  readonly rootDev: number;
  readonly rootMountId: number;
  /**
   * Identities of the roots of the mounts below the root's (see `mountRoots`); null: each file's own
   * mount id is read; undefined: not read yet, `loadMounts` reads them when worth it.
   */
  mounts: { readonly identities: ReadonlySet<string> } | null | undefined;
  readonly loadMounts?: (() => { readonly identities: ReadonlySet<string> } | null) | undefined;
  /** Files checked by their own mount ids so far. */
  checked: number;
  readonly needles: readonly Uint8Array[];
  /** `TreeSearchQuery.foldedNeedles`, as latin1 strings (each byte one character). */
  readonly foldedNeedles: readonly string[];
  readonly alwaysNames: readonly string[];
  readonly maxBytes: number;
  readonly maxCarriedBytes: number;
  carried: number;
  /** The buffer every file's start is read into (`maxBytes + 1` bytes). */
  readonly scratch: Buffer;
  readonly entries: TreeSearchEntry[];
}

/** Files a search checks by their own mount ids before it reads the table of mounts (see onOtherMount). */
export const TABLE_AFTER_FILES = 64;

/**
 * Adds the entry `raw` names inside `parent` to the answer; true for a directory to enter. Every
 * name is pinned by one O_PATH|O_NOFOLLOW probe whose fstat is both the listing's lstat and the
 * read's checks; a regular file is then read exactly as `readFile` would (mount check, reopen of
 * the held inode through its magic link) into the scratch buffer, and carried only when a candidate.
 * What `readFile` would refuse (a second link, another mount, a `.git` alias, a name that is not
 * UTF-8, any host refusal) is a candidate without bytes, so the tools' own read meets the refusal.
 */
export function describeEntry(state: DescribeState, parent: WorkspacePath, raw: string, nameIn: NameIn): boolean {
  const name = shownName(raw);
  const path = childPath(parent, name);
  const hostName = nameIn(raw);
  const probe = probeHostName(hostName, path);
  // A name deleted since the scan is left out, as a listing leaves it out.
  if (probe === null) return false;
  try {
    const { status } = probe;
    const kind = entryKind(status);
    const listed = { name, path, kind, sizeBytes: kind === 'file' ? status.size : null, modifiedAt: modifiedAt(status) };
    // A name that is not UTF-8 is shown with U+FFFD, and no path reaches its bytes.
    const reachable = (isAscii(raw) || Buffer.from(name, 'utf8').toString('latin1') === raw) && !isProtectedName(name);
    if (kind !== 'file') {
      state.entries.push({ ...listed, candidate: false });
      return kind === 'directory' && reachable;
    }
    // Without needles every file is a candidate: once the carried budget is spent, reading one
    // here would only read it twice (the tools read it anyway).
    const worth = state.needles.length > 0 || state.foldedNeedles.length > 0 || state.carried < state.maxCarriedBytes;
    const single = worth && reachable && status.nlink === 1 && !onOtherMount(state, probe.fd, status);
    const read = single ? readHeld(state, probe.fd, status) : null;
    // As readFile: the name must still be the inode's only one once its bytes are read.
    if (read === null || !isStillSoleName(hostName, probe.fd, status)) {
      state.entries.push({ ...listed, candidate: true });
      return false;
    }
    const bytes = state.scratch.subarray(0, read.length);
    const candidate =
      state.alwaysNames.includes(name) || (state.needles.every((needle) => bytes.indexOf(needle) !== -1) && holdsFolded(bytes, state.foldedNeedles));
    if (!candidate || state.carried + read.length > state.maxCarriedBytes) {
      state.entries.push({ ...listed, candidate });
      return false;
    }
    state.carried += read.length;
    // Carried bytes get their own buffer: the scratch is the next file's.
    const carried: FileRead = { bytes: new Uint8Array(bytes), truncated: read.truncated };
    state.entries.push({ ...listed, candidate, read: carried });
    return false;
  } finally {
    closeSync(probe.fd);
  }
}

/**
 * Whether `bytes`, each ASCII upper-case letter lowered, hold every folded needle. The bytes are
 * read as latin1 (one character a byte) and lowered: no byte from 0x80 up lowers to ASCII there,
 * and a folded needle is ASCII without `A`-`Z`, so a byte of the needle matches exactly the bytes
 * that fold to it in ASCII.
 */
function holdsFolded(bytes: Buffer, foldedNeedles: readonly string[]): boolean {
  if (foldedNeedles.length === 0) return true;
  const lowered = bytes.toString('latin1').toLowerCase();
  return foldedNeedles.every((needle) => lowered.includes(needle));
}

/** `TreeSearchQuery.foldedNeedles` as `DescribeState.foldedNeedles` takes them. */
export function foldedStrings(foldedNeedles: readonly Uint8Array[] | undefined): string[] {
  return (foldedNeedles ?? []).map((needle) => Buffer.from(needle.buffer, needle.byteOffset, needle.byteLength).toString('latin1'));
}

/**
 * Whether the file `fd` holds is on another mount than the root. Its directory is on the root's
 * mount, so it is on another only as the root of a mount stacked on its name: once the search knows
 * the mounts' roots, a file on the root's device whose identity is none of them is on the root's
 * mount without asking; any other is checked by its own mount id (three system calls).
 */
function onOtherMount(state: DescribeState, fd: number, status: Stats): boolean {
  if (state.mounts === undefined && ++state.checked > TABLE_AFTER_FILES) state.mounts = state.loadMounts?.() ?? null;
  const { mounts } = state;
  if (mounts && status.dev === state.rootDev && !mounts.identities.has(identityOf(status))) return false;
  return mountIdOf(fd) !== state.rootMountId;
}

/**
 * `readPrefix` of the held regular file into the scratch buffer: the same reopen of the held inode,
 * the same bytes. Null where `readFile` would throw, so the file is answered a candidate without
 * bytes. The reopened fd holds the very inode the probe's fstat saw a regular file of one link (a
 * magic link names the inode, not a path), and the sole-name check after the read covers a link
 * made meanwhile, so no second fstat is needed: the probe's size only spares the read of 0 bytes.
 */
function readHeld(state: DescribeState, handle: number, status: Stats): { length: number; truncated: boolean } | null {
  let fd: number;
  try {
    fd = openSync(state.fdPath(handle), REOPEN_FILE);
  } catch {
    return null;
  }
  try {
    const { scratch } = state;
    let filled = 0;
    while (filled < scratch.length) {
      const asked = scratch.length - filled;
      const count = readSync(fd, scratch, filled, asked, filled);
      filled += count;
      // A short read at or past the probed size met the end; one before it (a file that grew, or a
      // host that reads short) reads on until a read of 0 bytes.
      if (count === 0 || (count < asked && filled >= status.size)) break;
    }
    const maxBytes = state.maxBytes;
    return { length: Math.min(filled, maxBytes), truncated: filled > maxBytes };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
