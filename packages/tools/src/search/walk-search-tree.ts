import {
  LibosError,
  ROOT_PATH,
  childPath,
  isGitAlias,
  pathSegments,
  type DirectoryEntry,
  type DirectoryHandle,
  type FileRead,
  type Permit,
  type WorkspacePath,
} from '@libos/core';
import type { ToolContext } from '../tool-definition.js';
import type { GlobFilter } from './compile-glob.js';
import type { IgnoreFile } from './gitignore.js';
import { codePointsOf } from './glob-program.js';
import type { WalkClock } from './walk-clock.js';
import type { SnapshotHandle } from './snapshot-directory.js';
import { openWalkDirectory } from './walk-directory.js';
import { type GitignoreRules, IGNORED, KEPT, NOT_WANTED, verdictsOf } from './walk-verdicts.js';

/** The bounds and filters of one walk. */
export interface WalkLimits {
  /** Files the walk may offer to `visit`. */
  readonly maxFiles: number;
  /** Entries (of any kind) the walk may list in all; keeps time and memory bounded by the bounds. */
  readonly maxEntries: number;
  /** Which files (by path below the root) are wanted at all (the glob; every file without one); the others cost nothing. */
  readonly wanted: GlobFilter | undefined;
  /** Files and whole directories (by path below the root) to skip, counted as ignored. */
  readonly excluded: readonly GlobFilter[];
  /** Apply the `.gitignore` files of the walk and of the root's ancestors. */
  readonly respectGitignore: boolean;
}

/** What the walk hands over for each regular file the process may read. */
export interface WalkedFile {
  readonly path: WorkspacePath;
  /** The path below the search root, for the glob. */
  readonly relativePath: string;
  /** The listing's entry (size and time as listed). */
  readonly entry: DirectoryEntry;
  /** Reads a prefix of the file; undefined when it changed or is refused since it was listed. */
  read(maxBytes: number): Promise<FileRead | undefined>;
  /** False when the provider vouched, in a `searchTree` answer, that the file holds none of the search: it need not be read. */
  readonly mayHold: boolean;
}

/** What a walk counts as it goes, readable even when its deadline ended it. */
export interface WalkProgress {
  /** Files and directories skipped by `.gitignore` rules or `exclude`. */
  skippedIgnored: number;
}

/** The most of one `.gitignore` read; a larger one is applied in its first lines. */
const GITIGNORE_MAX_BYTES = 1_048_576;

// Conditions of an entry that changed or is refused by the provider: the walk passes it by, as if
// it were not there, because a search reports what it could read and nothing else.
const PASSED_BY = ['not_found', 'not_a_directory', 'not_a_file', 'symlink_refused', 'hard_link_refused', 'changed_during_operation'] as const;

type ParseGitignore = GitignoreRules['parseGitignore'];

/** Bytes (counted at `maxBytes` per file, whatever the listing said) one batch read may hold. */
const BATCH_BYTES = 4_194_304;
/** Files one batch read asks for at most. */
const BATCH_FILES = 64;

interface Frame {
  readonly directory: DirectoryHandle;
  readonly entries: readonly DirectoryEntry[];
  next: number;
  readonly ignore: IgnoreFile | undefined;
  /** Whether the permit covers reading every entry of this directory (asked once: `Permit.coversEntriesOf`). */
  readonly covered: boolean;
  /** KEPT, IGNORED or NOT_WANTED, by entry index. */
  readonly verdicts: Uint8Array;
  /** Reads done ahead by one `readFiles` call, by entry index, for files this walk will offer next. */
  ahead: { readonly maxBytes: number; readonly answers: Map<number, FileRead | LibosError> } | undefined;
}

/**
 * Walks the tree under `root` depth first in code-point order of names, through directory handles
 * (each directory resolved once, so the cost follows the entries, not the depth), entering only
 * directories the permit covers for reading (never a link, a mount point, which the provider
 * refuses like one, or a `.git` alias), skipping what `.gitignore` and `exclude` say (an ignored
 * directory is not entered), and offering `visit` only regular files the permit covers. What the
 * permit does not cover leaves no trace, not even in `skippedIgnored`. `visit` returns false to
 * stop (synchronously when it can: a walk of many files it need not read then makes no promise
 * per file). The permit is asked once per directory when it can answer for all its entries
 * (`Permit.coversEntriesOf`), else once per entry. The clock bounds every provider call and lets the event loop turn between entries; its
 * deadline ends the walk by throwing `DEADLINE_PASSED`. Returns true when a bound, not the end of
 * the tree, stopped the walk. `top`, when given, is the root already opened (a `searchTree`
 * snapshot): the walk then goes through it the same way.
 */
export async function walkSearchTree(
  context: ToolContext,
  root: WorkspacePath,
  permit: Permit,
  limits: WalkLimits,
  clock: WalkClock,
  progress: WalkProgress,
  visit: (file: WalkedFile) => boolean | Promise<boolean>,
  top?: DirectoryHandle,
): Promise<boolean> {
  let entriesLeft = limits.maxEntries;
  let filesLeft = limits.maxFiles;
  let cut = false;
  const stack: Frame[] = [];
  // The ignore rules are loaded by the first walk that applies them, not by every start.
  const rules = limits.respectGitignore ? await import('./gitignore.js') : undefined;
  const ignores: IgnoreFile[] = rules === undefined ? [] : await ancestorIgnores(context, root, permit, clock, rules.parseGitignore);
  const enter = async (directory: DirectoryHandle): Promise<Frame> => {
    // One more than the budget, so a directory that ends exactly at the budget is not called cut.
    const limit = Math.max(1, Math.min(context.bounds.list_limit_max, entriesLeft + 1));
    const listing = await clock.race(directory.list({ limit, signal: clock.signal }));
    const entries = listing.entries.slice(0, entriesLeft);
    entriesLeft -= entries.length;
    if (listing.truncated || entries.length < listing.entries.length) cut = true;
    const ignore = rules === undefined ? undefined : await ownIgnore(directory, entries, permit, clock, rules.parseGitignore);
    if (ignore !== undefined) ignores.push(ignore);
    try {
      const verdicts = await verdictsOf(entries, prefixCodePoints, limits.wanted, limits.excluded, ignores, rules, clock);
      const covered = permit.coversEntriesOf?.('read', directory.path) ?? false;
      return { directory, entries, next: 0, ignore, covered, verdicts, ahead: undefined };
    } catch (error) {
      if (ignore !== undefined) ignores.pop();
      throw error;
    }
  };
  const prefix = root === ROOT_PATH ? '' : `${root}/`;
  const prefixCodePoints = codePointsOf(prefix).length;
  // Whether the walk offers this file entry to `visit` (every test but the files bound).
  const offered = (frame: Frame, index: number) => {
    const entry = frame.entries[index]!;
    return (
      entry.kind === 'file' &&
      !isGitAlias(entry.name) &&
      (frame.covered || permit.covers('read', entry.path, 'file')) &&
      frame.verdicts[index] === KEPT &&
      mayHold(frame.directory, entry.name)
    );
  };
  // The read of the file at `index` of `frame`. With a handle that reads in batches, the first read
  // of a run of files also reads the files the walk will offer next, up to the next directory (so
  // no batch waits in a frame while the walk is below it: memory stays one batch, whatever the
  // depth), the files bound and the batch bounds. The ignore rules in force cannot change within
  // that run: only entering a directory pushes a `.gitignore`.
  const readAt = async (frame: Frame, index: number, maxBytes: number): Promise<FileRead | undefined> => {
    const { directory, entries } = frame;
    const name = entries[index]!.name;
    if (directory.readFiles === undefined) return passBy(() => clock.race(directory.readFile(name, { maxBytes, signal: clock.signal })));
    let answer = frame.ahead?.maxBytes === maxBytes ? frame.ahead.answers.get(index) : undefined;
    if (answer === undefined) {
      const wanted = [index];
      const most = Math.min(BATCH_FILES, Math.max(1, Math.floor(BATCH_BYTES / (maxBytes + 1))), filesLeft + 1);
      for (let next = index + 1; next < entries.length && wanted.length < most; next++) {
        const entry = entries[next]!;
        if (entry.kind === 'directory') break;
        if (offered(frame, next)) wanted.push(next);
      }
      const names = wanted.map((at) => entries[at]!.name);
      // A whole batch refused the way one read can be (a provider that says so for all) passes this file by, as its own read would.
      const reads = await passBy(() => clock.race(directory.readFiles!(names, { maxBytes, signal: clock.signal })));
      if (reads === undefined) {
        frame.ahead = undefined;
        return undefined;
      }
      frame.ahead = { maxBytes, answers: new Map(wanted.map((at, slot) => [at, reads[slot]!])) };
      answer = reads[0]!;
    }
    frame.ahead?.answers.delete(index);
    if (!LibosError.is(answer)) return answer;
    if (LibosError.is(answer, ...PASSED_BY)) return undefined;
    throw answer;
  };
  try {
    // The root was authorized by the call itself; its own failures (not_found, not_a_directory,
    // symlink_refused) are the call's answer.
    const opened = top ?? (await clock.race(openWalkDirectory(context.provider, root, clock.signal)));
    try {
      stack.push(await enter(opened));
    } catch (error) {
      opened.close();
      throw error;
    }
    while (stack.length > 0) {
      // `breathe` only when it would yield or throw: a promise per entry is most of a warm walk's cost.
      const waiting = clock.pause();
      if (waiting !== undefined) await waiting;
      const frame = stack[stack.length - 1]!;
      const entry = frame.entries[frame.next++];
      if (entry === undefined) {
        leave(stack, ignores);
        continue;
      }
      const { path, name } = entry;
      if (isGitAlias(name)) continue;
      const relativePath = path.slice(prefix.length);
      if (entry.kind === 'directory') {
        if (!frame.covered && !permit.covers('read', path, 'directory')) continue;
        if (frame.verdicts[frame.next - 1] === IGNORED) {
          progress.skippedIgnored++;
          continue;
        }
        if (entriesLeft === 0) return true;
        const child = await passBy(() => clock.race(frame.directory.openDirectory(name, { signal: clock.signal })));
        if (child === undefined) continue;
        const entered = await passBy(() => enter(child)).catch((error: unknown) => {
          child.close();
          throw error;
        });
        if (entered === undefined) child.close();
        else stack.push(entered);
        continue;
      }
      if (entry.kind !== 'file' || !(frame.covered || permit.covers('read', path, 'file'))) continue;
      const verdict = frame.verdicts[frame.next - 1];
      if (verdict === NOT_WANTED) continue;
      if (verdict === IGNORED) {
        progress.skippedIgnored++;
        continue;
      }
      if (filesLeft === 0) return true;
      filesLeft--;
      const index = frame.next - 1;
      const read = (maxBytes: number) => readAt(frame, index, maxBytes);
      // A file the provider vouched for is visited synchronously: no promise per passed-by file.
      const went = visit({ path, relativePath, entry, read, mayHold: mayHold(frame.directory, name) });
      if (went !== true && (went === false || !(await went))) return true;
    }
    return cut;
  } finally {
    while (stack.length > 0) leave(stack, ignores);
  }
}

function mayHold(directory: DirectoryHandle, name: string): boolean {
  return (directory as Partial<SnapshotHandle>).isCandidate?.(name) ?? true;
}

function leave(stack: Frame[], ignores: IgnoreFile[]): void {
  const frame = stack.pop()!;
  frame.directory.close();
  if (frame.ignore !== undefined) ignores.pop();
}

// The `.gitignore` of a directory being entered, when it lists one the process may read.
async function ownIgnore(
  directory: DirectoryHandle,
  entries: readonly DirectoryEntry[],
  permit: Permit,
  clock: WalkClock,
  parseGitignore: ParseGitignore,
) {
  const entry = entries.find((item) => item.name === '.gitignore');
  if (entry === undefined || entry.kind !== 'file' || !permit.covers('read', entry.path, 'file')) return undefined;
  const read = await passBy(() => clock.race(directory.readFile('.gitignore', { maxBytes: GITIGNORE_MAX_BYTES, signal: clock.signal })));
  return read === undefined ? undefined : parseGitignore(decodeLines(read), directory.path === ROOT_PATH ? '' : directory.path, () => clock.pause());
}

// The `.gitignore` files of the root's ancestors, from the workspace root down, that the process may read.
async function ancestorIgnores(
  context: ToolContext,
  root: WorkspacePath,
  permit: Permit,
  clock: WalkClock,
  parseGitignore: ParseGitignore,
): Promise<IgnoreFile[]> {
  const found: IgnoreFile[] = [];
  const segments = pathSegments(root);
  let directory: WorkspacePath = ROOT_PATH;
  for (let depth = 0; depth < segments.length; depth++) {
    const path = childPath(directory, '.gitignore');
    if (permit.covers('read', path, 'file')) {
      const read = await passBy(() => clock.race(context.provider.readFile(path, { maxBytes: GITIGNORE_MAX_BYTES, signal: clock.signal })));
      const file =
        read === undefined ? undefined : await parseGitignore(decodeLines(read), directory === ROOT_PATH ? '' : directory, () => clock.pause());
      if (file !== undefined) found.push(file);
    }
    directory = childPath(directory, segments[depth]!);
  }
  return found;
}

// Git reads a .gitignore as bytes; names on our side are UTF-8 text, so the file is read as UTF-8
// and a cut last line (of a file past the bound) is dropped rather than applied half.
function decodeLines(read: FileRead): string {
  const text = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(read.bytes);
  return read.truncated ? text.slice(0, text.lastIndexOf('\n') + 1) : text;
}

/** Runs a step on an entry that may have changed since it was listed; a refused or vanished one is skipped. */
export async function passBy<Result>(step: () => Promise<Result>): Promise<Result | undefined> {
  try {
    return await step();
  } catch (error) {
    if (LibosError.is(error, ...PASSED_BY)) return undefined;
    throw error;
  }
}
