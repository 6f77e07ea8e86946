import { closeSync } from 'node:fs';
import { LibosError, childPath, isGitAlias, providerErrors } from '@libos/core';
import type { FileRead, ReadFileOptions, WorkspacePath } from '@libos/core';
import { mapNodeError } from './map-node-error.js';
import { refuseOtherMount } from './mount-id.js';
import type { OperationContext } from './operation-context.js';
import { isStillSoleName, probeHostName, requireSingleFile } from './probe-entry.js';
import { readFileIn, readPrefix } from './read-file.js';
import { isReservedName, refuseReserved } from './reserved-names.js';

/** The smallest batch worth borrowing the working directory for (see `readFilesIn`). */
const BORROW_FROM = 4;

/** One name's answer in a batch: its read, the error its own read would throw, or (a second link seen) settle it alone. */
type Slot = FileRead | LibosError | undefined;

/**
 * `readFile` of each child `name` of the directory `directoryFd` pins, in one synchronous step
 * inside that directory (see `FdPaths.within`): with a borrowed working directory each probe is a
 * relative lookup instead of a `/proc/self/fd/<fd>/<name>` path, and the batch pays one gate pass
 * for all its files. Every file takes the very steps `readFileIn` takes (an O_PATH probe that
 * opens nothing for I/O, kind and link count on the held inode, the mount check, the reopen
 * through the magic link), so each answer is what `readFile` would give. A file showing a second
 * link is read afterwards by `readFileIn`, which gives a file being created by another runtime its
 * moment to drop the temporary name; sleeping inside the borrowed step would hold every other call.
 */
export async function readFilesIn(
  context: OperationContext,
  directoryFd: number,
  directoryPath: WorkspacePath,
  names: readonly string[],
  options: ReadFileOptions,
): Promise<(FileRead | LibosError)[]> {
  const readAll = (hostName: (name: string) => string | Buffer) =>
    names.map((name) => readOne(context, hostName(name), name, childPath(directoryPath, name), options.maxBytes));
  // Entering and leaving the directory costs two chdirs through the magic link, about what two
  // `/proc/self/fd` lookups cost: a batch of a few files is read by fd paths instead.
  const slots: Slot[] =
    names.length < BORROW_FROM
      ? readAll((name) => context.paths.named(directoryFd, name))
      : context.paths.within(directoryFd, (nameIn) => readAll((name) => nameIn(Buffer.from(name, 'utf8').toString('latin1'))));
  const answers: (FileRead | LibosError)[] = [];
  for (let index = 0; index < names.length; index++) {
    const slot = slots[index];
    if (slot !== undefined) {
      answers.push(slot);
      continue;
    }
    const name = names[index]!;
    answers.push(await readFileIn(context, directoryFd, name, childPath(directoryPath, name), options).catch(entryError));
  }
  return answers;
}

function readOne(context: OperationContext, hostName: string | Buffer, name: string, path: WorkspacePath, maxBytes: number): Slot {
  try {
    // What no path could reach, as a handle's readFile refuses it: the provider's temporaries and a `.git` alias.
    if (isReservedName(name)) throw refuseReserved(path, false);
    if (isGitAlias(name)) throw providerErrors.protectedPath(path, path);
    const probe = probeHostName(hostName, path);
    if (probe === null) throw providerErrors.notFound(path);
    try {
      if (probe.status.isFile() && probe.status.nlink > 1) return undefined;
      requireSingleFile(probe.status, path);
      // A file bind-mounted over a workspace name holds bytes from elsewhere: refused like a junction.
      refuseOtherMount(context, probe.fd, path);
      const read = readPrefix(context, probe.fd, probe.status, path, maxBytes);
      // As readFileIn: the name must still be the inode's only one once its bytes are read.
      if (!isStillSoleName(hostName, probe.fd, probe.status)) throw providerErrors.changedDuringOperation(path);
      return read;
    } finally {
      closeSync(probe.fd);
    }
  } catch (error) {
    return entryError(error, path);
  }
}

// Every host failure of one entry was classified where it happened; anything else is a bug and
// fails the whole call, as it would fail readFile.
function entryError(error: unknown, path?: WorkspacePath): LibosError {
  if (LibosError.is(error)) return error;
  if (path !== undefined) return mapNodeError(error, path);
  throw error;
}
