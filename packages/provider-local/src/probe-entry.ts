import { closeSync, fstatSync, lstatSync, openSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { providerErrors } from '@libos/core';
import type { WorkspacePath } from '@libos/core';
import { ENTRY_HANDLE } from './host-flags.js';
import { hostCode, mapNodeError } from './map-node-error.js';
import type { OperationContext } from './operation-context.js';

/** An entry held by an O_PATH handle: no I/O was opened, whatever kind it turned out to be. */
export interface ProbedEntry {
  readonly fd: number;
  readonly status: Stats;
}

/**
 * Pins the entry `name` inside `parentFd` without opening it for I/O and without following a link
 * (O_PATH|O_NOFOLLOW yields a handle on the link itself), so a FIFO or device is never opened and
 * every later check reads the very inode held. Null when nothing is there.
 */
export function probeEntry(context: OperationContext, parentFd: number, name: string, path: WorkspacePath): ProbedEntry | null {
  return probeHostName(context.paths.named(parentFd, name), path);
}

/** `probeEntry` of a name as the host resolves it: an fd path, or a name relative to a borrowed working directory. */
export function probeHostName(hostName: string | Buffer, path: WorkspacePath): ProbedEntry | null {
  let fd: number;
  try {
    fd = openSync(hostName, ENTRY_HANDLE);
  } catch (error) {
    if (hostCode(error) === 'ENOENT') return null;
    throw mapNodeError(error, path);
  }
  try {
    return { fd, status: fstatSync(fd) };
  } catch (error) {
    closeSync(fd);
    throw mapNodeError(error, path);
  }
}

/** Refuses anything but a regular file with exactly one name; the checks read the held inode. */
export function requireSingleFile(status: Stats, path: WorkspacePath): void {
  if (status.isSymbolicLink()) throw providerErrors.symlinkRefused(path);
  if (!status.isFile()) throw providerErrors.notAFile(path, status.isDirectory() ? 'directory' : 'other');
  if (status.nlink > 1) throw providerErrors.hardLinkRefused(path, status.nlink);
}

/**
 * The held entry's status once a second link has had its moment to go. A file another libOS
 * runtime is creating has two names for the microseconds between its link() and the unlink of its
 * temporary; a real hard link still has them after a few milliseconds, and is refused then.
 */
export async function settledStatus(probe: ProbedEntry): Promise<Stats> {
  let status = probe.status;
  for (let attempt = 0; attempt < 5 && status.isFile() && status.nlink > 1; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 1 + attempt));
    status = fstatSync(probe.fd);
  }
  return status;
}

/**
 * Whether bytes read from the held inode `fd` (probed as `status` by `hostName`) were the
 * workspace's. A probe reaches an inode by an inside name; if that name is unlinked between the
 * probe's open and its fstat while a second name lives outside the root, the fstat sees one link
 * and the read gets outside bytes. So after the read, either the name still leads to that inode as
 * its only name (its one name was inside), or the inode has no name left at all (replaced by a
 * rename or deleted: a snapshot from before, as any read racing a write may return).
 */
export function isStillSoleName(hostName: string | Buffer, fd: number, status: Stats): boolean {
  const now = lstatSync(hostName, { throwIfNoEntry: false });
  if (now !== undefined && now.ino === status.ino && now.dev === status.dev && now.nlink === 1) return true;
  return fstatSync(fd).nlink === 0;
}
