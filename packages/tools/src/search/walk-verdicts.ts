import { type DirectoryEntry, isGitAlias } from '@libos/core';
import type { GlobFilter } from './compile-glob.js';
import type { IgnoreFile } from './gitignore.js';
import { codePointsOf } from './glob-program.js';
import type { WalkClock } from './walk-clock.js';

/** The gitignore module, loaded only by a walk that respects `.gitignore`. */
export type GitignoreRules = typeof import('./gitignore.js');

// What the filters say about one entry, decided when its directory is entered.
export const KEPT = 0;
export const IGNORED = 1;
export const NOT_WANTED = 2;

/**
 * What the filters say about each entry of a directory: the glob first (a file it does not want
 * is passed by uncounted), then the `exclude` globs, then the `.gitignore` files from the deepest
 * up (a lower one overrides a higher one; within one file the last matching pattern decides).
 * Every test is one bounded step, and the clock may pause the walk or end it between two.
 */
export async function verdictsOf(
  entries: readonly DirectoryEntry[],
  prefixCodePoints: number,
  wanted: GlobFilter | undefined,
  excluded: readonly GlobFilter[],
  ignores: readonly IgnoreFile[],
  rules: GitignoreRules | undefined,
  clock: WalkClock,
): Promise<Uint8Array> {
  const verdicts = new Uint8Array(entries.length);
  // No glob, no exclude and no ignore file in force: every entry is kept (the loop below would
  // say so entry by entry, a cost a large tree answered from an index would pay on every search).
  if (wanted === undefined && excluded.length === 0 && (rules === undefined || ignores.length === 0)) return verdicts;
  const pause = () => clock.pause();
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index]!;
    if ((entry.kind !== 'file' && entry.kind !== 'directory') || isGitAlias(entry.name)) continue;
    const isDirectory = entry.kind === 'directory';
    const codes = codePointsOf(entry.path);
    const relative = codes.subarray(prefixCodePoints);
    if (!isDirectory && wanted !== undefined && !wanted.matches(relative)) {
      verdicts[index] = NOT_WANTED;
      continue;
    }
    verdicts[index] = (await isExcluded(excluded, relative, pause)) || (await isIgnored(ignores, codes, isDirectory, rules, pause)) ? IGNORED : KEPT;
  }
  return verdicts;
}

async function isExcluded(excluded: readonly GlobFilter[], relative: Int32Array, pause: () => Promise<void> | undefined): Promise<boolean> {
  for (const filter of excluded) {
    const waiting = pause();
    if (waiting !== undefined) await waiting;
    if (filter.matches(relative)) return true;
  }
  return false;
}

async function isIgnored(
  ignores: readonly IgnoreFile[],
  codes: Int32Array,
  isDirectory: boolean,
  rules: GitignoreRules | undefined,
  pause: () => Promise<void> | undefined,
): Promise<boolean> {
  if (rules === undefined) return false;
  for (let index = ignores.length - 1; index >= 0; index--) {
    const file = ignores[index]!;
    const verdict = await rules.ignoreVerdict(file, codes, file.start, isDirectory, pause);
    if (verdict !== undefined) return verdict;
  }
  return false;
}
