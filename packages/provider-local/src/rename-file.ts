import { closeSync, fstatSync, linkSync, lstatSync, renameSync, unlinkSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { LibosError, baseName, pathSegments, providerErrors } from '@libos/core';
import type { RenameOptions, WorkspacePath } from '@libos/core';
import { checkTransferTarget } from '@libos/provider-kit';
import { entryKind } from './entry-kind.js';
import { flushDirectory } from './host-io.js';
import { hostCode, mapNodeError } from './map-node-error.js';
import { lockName } from './name-lock.js';
import { stepped } from './operation-context.js';
import type { OperationContext } from './operation-context.js';
import { probeEntry, requireSingleFile, settledStatus } from './probe-entry.js';
import { walk, walkParent } from './walk.js';

/**
 * Moves one regular single-link file between two pinned directories. Both names are locked
 * against every libOS runtime on this root from the last check to the move. `overwrite: false` is
 * decided by link(), which fails on anything at `to` (even a dangling link) atomically against
 * every process, and the old name is unlinked only once the new one holds the very inode checked.
 */
export async function renameFile(
  context: OperationContext,
  from: WorkspacePath,
  to: WorkspacePath,
  options: RenameOptions,
): Promise<{ readonly replaced: boolean }> {
  const fromSegments = pathSegments(from);
  const toSegments = pathSegments(to);
  if (fromSegments.length === 0) throw providerErrors.notAFile(from, 'directory');
  if (toSegments.length === 0) throw providerErrors.notAFile(to, 'directory');
  const source = walkParent(context, fromSegments, false)!;
  try {
    const checked = await regularFileAt(context, source.fd, baseName(from), from);
    const { directory: target, created } = walk(context, toSegments.slice(0, -1), true);
    const effect = created > 0 ? 'unknown' : 'none';
    try {
      // Taken in one global order, so two moves in opposite directions cannot wait on each other.
      const names = [{ fd: source.fd, name: baseName(from) }, ...(from === to ? [] : [{ fd: target.fd, name: baseName(to) }])].sort((a, b) =>
        orderKey(a).localeCompare(orderKey(b)),
      );
      const locks = [];
      try {
        for (const { fd, name } of names) locks.push(await lockName(context.staging, fd, name));
        const fromHost = context.paths.named(source.fd, baseName(from));
        const toHost = context.paths.named(target.fd, baseName(to));
        requireSame(fromHost, checked, from);
        const existing = lstatOrNull(toHost);
        if (existing !== null) {
          checkTransferTarget(to, entryKind(existing), options.overwrite);
          if (existing.nlink > 1) throw providerErrors.hardLinkRefused(to, existing.nlink);
        }
        if (from === to) return { replaced: false };
        stepped(context, target.path, 'effect');
        if (existing === null && !options.overwrite) moveExclusively(fromHost, toHost, checked, to);
        else renameSync(fromHost, toHost);
        await flushDirectory(context, target.fd);
        if (target.path !== source.path) await flushDirectory(context, source.fd);
        return { replaced: existing !== null };
      } finally {
        for (const lock of locks.reverse()) await lock.release();
      }
    } catch (error) {
      throw LibosError.is(error)
        ? effect === 'unknown' && error.effect === 'none'
          ? error.withEffect('unknown')
          : error
        : mapNodeError(error, to, effect);
    } finally {
      target.release();
    }
  } finally {
    source.release();
  }
}

async function regularFileAt(context: OperationContext, directoryFd: number, name: string, path: WorkspacePath): Promise<Stats> {
  const probe = probeEntry(context, directoryFd, name, path);
  if (probe === null) throw providerErrors.notFound(path);
  try {
    const status = await settledStatus(probe);
    requireSingleFile(status, path);
    return status;
  } finally {
    closeSync(probe.fd);
  }
}

function requireSame(hostPath: string, checked: Stats, path: WorkspacePath): void {
  const now = lstatOrNull(hostPath);
  if (now === null) throw providerErrors.notFound(path);
  if (now.dev !== checked.dev || now.ino !== checked.ino) {
    throw new LibosError('changed_during_operation', `'${path}' was replaced while it was being moved.`, { details: { path } });
  }
}

// link() never replaces: a name that appeared at `to` meanwhile is already_exists, whoever made it.
function moveExclusively(fromHost: string, toHost: string, checked: Stats, to: WorkspacePath): void {
  try {
    linkSync(fromHost, toHost);
  } catch (error) {
    if (hostCode(error) === 'EEXIST') throw providerErrors.alreadyExists(to);
    throw mapNodeError(error, to);
  }
  const linked = lstatOrNull(toHost);
  if (linked === null || linked.ino !== checked.ino || linked.dev !== checked.dev) {
    // Something other than the checked file was linked (a swap outside libOS); take it back.
    if (linked !== null && !linked.isDirectory()) unlinkSync(toHost);
    throw new LibosError('changed_during_operation', `'${to}' could not be moved safely; nothing was moved.`, {
      effect: 'unknown',
      details: { path: to },
    });
  }
  try {
    unlinkSync(fromHost);
  } catch (error) {
    throw mapNodeError(error, to, 'unknown');
  }
}

function orderKey({ fd, name }: { readonly fd: number; readonly name: string }): string {
  const directory = fstatSync(fd);
  return `${directory.dev}:${directory.ino}:${name}`;
}

function lstatOrNull(hostPath: string): Stats | null {
  try {
    return lstatSync(hostPath);
  } catch (error) {
    if (hostCode(error) === 'ENOENT') return null;
    throw error;
  }
}
