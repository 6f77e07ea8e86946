import { readlink, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { escapeForDisplay } from '@libos/core';
import { UsageError } from '../usage-error.js';

/** A start-up file the agent must never reach, named by the flag that gave it (`--objects`, `--audit`). */
export interface PrivateFile {
  readonly flag: string;
  readonly path: string;
}

/**
 * Refuses (a UsageError: one line, exit 2) any private file that lies inside a directory the agent is
 * served: a checkpoint or an audit log there could be read by `read_text_file`, labels and all, or
 * replaced by a crafted one that the next start trusts. Both sides are compared after resolving
 * symlinks, so neither a link to the root nor a link inside it slips by; a file that does not exist
 * yet is placed by the real path of its nearest existing ancestor.
 */
export async function refuseFilesInRoots(files: readonly PrivateFile[], roots: readonly string[]): Promise<void> {
  if (files.length === 0 || roots.length === 0) return;
  const realRoots = await Promise.all(roots.map((root) => realLocation(root)));
  for (const file of files) {
    const real = await realLocation(file.path);
    const inside = realRoots.find((root) => real === root || real.startsWith(root.endsWith(sep) ? root : root + sep));
    if (inside === undefined) continue;
    throw new UsageError(
      `libos: ${file.flag} ${escapeForDisplay(file.path)}: is inside the served directory ${escapeForDisplay(inside)}, where the agent could read or replace it; put it outside`,
    );
  }
}

/**
 * The real path of `path`, or of its nearest existing ancestor joined with the rest. A dangling
 * link is followed to where it points (a file created through it would land there), up to 40 links.
 */
async function realLocation(path: string, links = 0): Promise<string> {
  const absolute = resolve(path);
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      return join(await realpath(current), ...missing.reverse());
    } catch {
      const target = links < 40 ? await readlink(current).catch(() => undefined) : undefined;
      if (target !== undefined) return realLocation(join(resolve(dirname(current), target), ...[...missing].reverse()), links + 1);
      const parent = dirname(current);
      if (parent === current) return absolute;
      missing.push(basename(current));
      current = parent;
    }
  }
}
