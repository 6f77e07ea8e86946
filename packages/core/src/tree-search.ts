import type { DirectoryEntry, FileRead, ProviderCallOptions } from './provider.js';
import type { WorkspacePath } from './workspace-path.js';

/**
 * What a search asks a provider that can look at a whole tree where its data lives
 * (`FileSystemProviderV1.searchTree`). The provider answers with the tree as it stands and says
 * which files may hold a match; the tools walk that answer with every rule of their own walk
 * (grants, `.gitignore`, excludes, links, bounds) and match the bytes themselves. So a provider can
 * only spare reads, never add a match: a file it does not mark as a candidate is one that holds
 * none of the search, by the rule below.
 */
export interface TreeSearchQuery extends ProviderCallOptions {
  /**
   * Byte strings: a regular file whose first `maxBytes` bytes hold every one of them must be a
   * candidate. Empty: every regular file is one. A provider may mark more files than that, never fewer.
   */
  readonly needles: readonly Uint8Array[];
  /**
   * Optional, for a search that ignores letter case: byte strings of ASCII other than `A`-`Z`: a
   * regular file whose first `maxBytes` bytes, each ASCII upper-case letter lowered, hold every one
   * of them must be a candidate. A provider that does not read this field is still right (it only
   * marks more files), so a caller that folds case passes no `needles`, only these.
   */
  readonly foldedNeedles?: readonly Uint8Array[];
  /** Names of regular files that are candidates whatever they hold (the walk reads its `.gitignore` files). */
  readonly alwaysNames: readonly string[];
  /** Bytes of each file's start that matter, and the most a carried read holds. */
  readonly maxBytes: number;
  /**
   * The most entries to answer. A tree with more answers `complete: false` (its entries are then
   * ignored), and the caller walks it the usual way instead.
   */
  readonly maxEntries: number;
  /** The most bytes all carried reads of one answer may hold together; past it, candidates come without their bytes. */
  readonly maxCarriedBytes: number;
}

/** One entry below the searched directory, as its parent's listing would show it. */
export interface TreeSearchEntry extends DirectoryEntry {
  /** For a regular file: whether it may hold a match (see `TreeSearchQuery.needles`). */
  readonly candidate: boolean;
  /** For a candidate, optionally, what `readFile(path, { maxBytes })` would answer, from the same snapshot. */
  readonly read?: FileRead;
}

/**
 * The tree below the searched directory: every entry of every directory below it, in any order,
 * never the directory itself and never what lies behind a link or a mount point (such an entry is
 * listed as its parent's listing shows it, and not entered).
 */
export interface TreeSearchAnswer {
  readonly complete: boolean;
  readonly entries: readonly TreeSearchEntry[];
  /**
   * Optional, the same tree by directory, for a provider that keeps its listings (an index): when
   * present, `entries` is empty and ignored. Holds the searched directory and every directory below
   * it that its parent's listing shows and the provider would list; none other is entered. Lets a
   * caller walk a large tree without copying every entry of it for each search.
   */
  readonly listings?: ReadonlyMap<WorkspacePath, TreeSearchListing>;
}

/** One directory of a `TreeSearchAnswer.listings`. */
export interface TreeSearchListing {
  /** Its entries as its listing shows them, in code-point order of names (a caller checks, and sorts otherwise). */
  readonly entries: readonly DirectoryEntry[];
  /** Names of its regular files that may hold a match (by the rule of `TreeSearchEntry.candidate`); no bytes are carried. */
  readonly candidates: ReadonlySet<string>;
}
