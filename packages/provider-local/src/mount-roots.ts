import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { ENTRY_HANDLE } from './host-flags.js';
import { mountIdOf } from './mount-id.js';

/** The kernel's table of this process's mounts; read once per search, and again at its end. */
export const MOUNT_TABLE = '/proc/self/mountinfo';

/**
 * What one search knows of the mounts that could stand on a file name in the workspace: the
 * identities (device and inode) of the root objects of every uncovered mount below the root's
 * mount, each verified to be that mount's, and the table they came from, to tell afterwards
 * whether any mount was made or removed meanwhile.
 */
export interface MountRoots {
  readonly table: string;
  readonly identities: ReadonlySet<string>;
}

interface MountLine {
  readonly id: number;
  readonly parent: number;
  readonly point: string;
}

/** The key of an inode in `MountRoots.identities`. */
export function identityOf(status: Pick<Stats, 'dev' | 'ino'>): string {
  return `${status.dev}:${status.ino}`;
}

/** The mount table as it stands now (the text the kernel gives, unparsed). */
export function readMountTable(): string {
  return readFileSync(MOUNT_TABLE, 'latin1');
}

/**
 * The mount roots of the mounts below `rootMountId`, or null when they cannot all be known (a mount
 * point that does not open, or opens onto another mount than the table says): the search then
 * checks each file's own mount id instead.
 *
 * Why this is enough (docs/tools.md, Search; provider-local README): a file listed in a directory
 * that is on the root's mount is on another mount only if it is itself the root of a mount stacked
 * on that name, and such a mount descends from the root's mount. A mount covered by another on the
 * same point cannot be reached by any name, so it needs no identity. A file whose device differs
 * from the root's, or whose identity is one of these, is checked by its own mount id.
 */
export function mountRoots(rootMountId: number): MountRoots | null {
  const table = readMountTable();
  const lines = parseMountTable(table);
  if (lines === null) return null;
  const below = descendants(lines, rootMountId);
  const identities = new Set<string>();
  for (const mount of below) {
    if (below.some((other) => other.parent === mount.id && other.point === mount.point)) continue;
    const identity = verifiedRoot(mount);
    if (identity === null) return null;
    identities.add(identity);
  }
  return { table, identities };
}

// The identity of the object at a mount's point, when the mount found there is that mount.
function verifiedRoot(mount: MountLine): string | null {
  let fd: number;
  try {
    fd = openSync(Buffer.from(mount.point, 'latin1'), ENTRY_HANDLE);
  } catch {
    return null;
  }
  try {
    return mountIdOf(fd) === mount.id ? identityOf(fstatSync(fd)) : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

function descendants(lines: readonly MountLine[], rootMountId: number): MountLine[] {
  const found: MountLine[] = [];
  const parents = new Set([rootMountId]);
  // Parents before children is not promised by the table: repeat until nothing new joins.
  for (let grew = true; grew; ) {
    grew = false;
    for (const line of lines) {
      if (!parents.has(line.id) && parents.has(line.parent)) {
        parents.add(line.id);
        found.push(line);
        grew = true;
      }
    }
  }
  return found;
}

// `id parent major:minor root point options...`, the point with space, tab, newline and backslash
// written as octal escapes. Null for a line that does not read so.
function parseMountTable(table: string): MountLine[] | null {
  const lines: MountLine[] = [];
  for (const text of table.split('\n')) {
    if (text === '') continue;
    const fields = text.split(' ');
    const [id, parent, point] = [Number(fields[0]), Number(fields[1]), fields[4]];
    if (!Number.isSafeInteger(id) || !Number.isSafeInteger(parent) || point === undefined) return null;
    lines.push({ id, parent, point: point.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8))) });
  }
  return lines;
}
