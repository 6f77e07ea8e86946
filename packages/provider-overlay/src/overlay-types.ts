import type { FileSystemProviderV1 } from '@libos/core';

/** A file's identity by content. */
export interface ContentIdentity {
  readonly sha256: string;
  readonly size_bytes: number;
}

/** One changed path as a person sees it (docs/overlay.md, "changes"). */
export interface OverlayChange {
  readonly path: string;
  readonly change: 'added' | 'modified' | 'deleted' | 'replaced';
  readonly kind: 'file' | 'directory';
  /** The lower file this change was made from; null when there was none (or it was a directory). */
  readonly base: ContentIdentity | null;
  /** The file the agent left; null when deleted (or a directory). */
  readonly current: ContentIdentity | null;
  /** Lower files a deleted or replaced directory held; 0 otherwise. */
  readonly files_within: number;
  /**
   * For a file the agent moved (docs/overlay.md, "Renames"): the lower file it was moved from, whose
   * deletion is the other half of this rename. Absent for any other change.
   */
  readonly moved_from?: string;
  /** For a deleted file the agent moved: where it went (the other half of the rename). */
  readonly moved_to?: string;
  /** This change's version (`c-` and 32 hex digits): pass it as `shown` to act on exactly this change. */
  readonly version: string;
  /**
   * With `checkDisk`, for a file whose base the disk no longer holds: what an apply would do now
   * (docs/overlay.md, "Merge"). Absent when the disk still holds the base.
   */
  readonly disk?: DiskState;
}

/** What an apply would meet on disk: a clean merge, hunks overlapping the person's edits, or a file-level conflict. */
export type DiskState =
  | { readonly state: 'merges' }
  | { readonly state: 'conflicts'; readonly hunks: readonly number[] }
  | { readonly state: 'changed' };

/** Counts of every change, whatever the page. */
export interface ChangeTotals {
  readonly added: number;
  readonly modified: number;
  readonly deleted: number;
  readonly replaced: number;
}

/** Options of `changes`. */
export interface ChangesOptions {
  /** At most this many changes (1 to 100,000; default 1000). */
  readonly limit?: number;
  /** The `next_cursor` of the previous page. */
  readonly cursor?: string;
  /** Also read each changed file of the page on disk and say what an apply would do there (`disk`). */
  readonly checkDisk?: boolean;
}

/** One page of changes. */
export interface ChangesResult {
  readonly changes: readonly OverlayChange[];
  readonly totals: ChangeTotals;
  /** Pass as `cursor` for the next page; null on the last page. */
  readonly next_cursor: string | null;
  /**
   * The version of every change (all pages, as `totals` counts them) at the moment of the first
   * page; pass it as `shownSet` to apply or discard everything only if nothing moved since. Null
   * on later pages (a cursor), which would otherwise each hash every change again.
   */
  readonly set_version: string | null;
}

/** Options of `diff`. */
export interface DiffOptions {
  /** Only changes at or below these paths. */
  readonly paths?: readonly string[];
  /** Cut the text past this many UTF-8 bytes, with a note (default 1 MiB). */
  readonly maxBytes?: number;
}

/** A unified diff of the selected changes. */
export interface DiffResult {
  /** The diff as the overlay holds it: raw bytes of names and lines; a view escapes it for a person. */
  readonly text: string;
  /** True when `maxBytes` cut the text; the text then ends with a note saying so. */
  readonly truncated: boolean;
  /** The version of each change the text shows whole, from the very rows the text was made from. */
  readonly versions: readonly { readonly path: string; readonly version: string }[];
  /** The version of the whole selection the text shows; null when the text was cut. */
  readonly set_version: string | null;
}

/**
 * Why a change could not land: what the lower holds is not what the change was made from, or
 * (`changed_since_shown`) the change is not the version the person named, or (`refused_path`) the
 * path is one the workspace's rules refuse, so the lower is never asked, or (`rename_partner`) the
 * other half of its rename could not land (docs/overlay.md, "Renames"), so this half stays too.
 */
export type ConflictReason =
  | 'changed_on_disk'
  | 'created_on_disk'
  | 'deleted_on_disk'
  | 'changed_since_shown'
  | 'refused_path'
  | 'overlapping_edit'
  | 'rename_partner';

/** A path left as it is on disk and in the overlay. */
export interface OverlayConflict {
  readonly path: string;
  readonly reason: ConflictReason;
  /** What the change expected on disk: the base file's SHA-256, or null for no file (or a directory). */
  readonly expected_sha256: string | null;
  /** What the disk holds: a file's SHA-256, or null for no file (or something that is not a file). */
  readonly actual_sha256: string | null;
  /** For `changed_since_shown`: the version now (of the change, or of the set at '.'); null when it is gone. */
  readonly version?: string | null;
  /** For `overlapping_edit`: the agent's hunks (numbered as `diff` shows them) that overlap the person's edits and stay in the overlay. */
  readonly hunks?: readonly number[];
}

/** The versions a person was shown (docs/overlay.md, "Versions"); without them an action takes the overlay as it is. */
export interface ShownOptions {
  /** Versions of changes as `changes` or `diff` gave them: a change whose version is not here does not land. */
  readonly shown?: readonly string[];
  /** The `set_version` of the selection: if the selection's changes moved at all, nothing lands. */
  readonly shownSet?: string;
}

/** Options of `discard`. */
export interface DiscardOptions extends ShownOptions {
  /** Only changes at or below these paths. */
  readonly paths?: readonly string[];
  /** Per path named in `paths`, only these hunks (numbered as `diff` shows them) are dropped; needs `shown`. */
  readonly hunks?: Readonly<Record<string, readonly number[]>>;
}

/** Options of `apply`. */
export interface ApplyOptions extends ShownOptions {
  /** Only changes at or below these paths (and the changed directories above them). */
  readonly paths?: readonly string[];
  /** `per_file` (default): every path that can land lands; `all_or_nothing`: one conflict stops all. */
  readonly mode?: 'per_file' | 'all_or_nothing';
  /**
   * true (default): a text file the person edited since the agent's base is merged (docs/overlay.md,
   * "Merge"); false: it is a conflict, as a file-level apply.
   */
  readonly merge?: boolean;
  /**
   * Per path, the hunks to land (numbered as `diff` shows them); the rest stays in the overlay. A
   * path with hunks must be named by its version in `shown`: the numbers are those of that version.
   */
  readonly hunks?: Readonly<Record<string, readonly number[]>>;
}

/** What a merged apply did to one file. */
export interface MergedPath {
  readonly path: string;
  /** How many hunks the agent's change had. */
  readonly hunks: number;
  /** The hunks that landed. */
  readonly applied: readonly number[];
  /** The hunks that overlap the person's edits and stay in the overlay. */
  readonly conflicts: readonly number[];
  /** Whether some of the agent's change stays in the overlay, against the bytes that landed. */
  readonly rest: boolean;
}

/** What an apply did. */
export interface ApplyResult {
  /** The id to pass to `undoApply`; null when nothing was applied. */
  readonly apply_id: string | null;
  readonly applied: readonly string[];
  readonly conflicts: readonly OverlayConflict[];
  /** The applied paths that were merged or landed by hunk; absent when none was. */
  readonly merged?: readonly MergedPath[];
}

/** What `undoApply` did. */
export interface UndoApplyResult {
  readonly restored: readonly string[];
  readonly conflicts: readonly OverlayConflict[];
}

/** What `discard` dropped, and what it left because it was not the version shown. */
export interface DiscardResult {
  readonly discarded: readonly string[];
  readonly conflicts: readonly OverlayConflict[];
}

/** What `fork` made. */
export interface ForkResult {
  /** The new state file. */
  readonly state: string;
  /** How many changes it holds (the same as the original's). */
  readonly changes: number;
}

/** One mutating call of the agent. */
export interface HistoryCall {
  readonly seq: number;
  readonly tool: string;
  readonly paths: readonly string[];
  readonly at: string;
}

/** The agent's mutating calls since the last apply or discard, oldest first. */
export interface HistoryResult {
  readonly calls: readonly HistoryCall[];
}

/** What `rewind` undid. */
export interface RewindResult {
  /** How many calls were undone. */
  readonly rewound: number;
}

/** The newest apply that can still be undone: committed, not undone, not rolled back. */
export interface LastApply {
  readonly apply_id: string;
  readonly mode: 'per_file' | 'all_or_nothing';
  /** When it started (ISO 8601). */
  readonly at: string;
  /** The paths it landed, in the order it landed them. */
  readonly applied: readonly string[];
}

/** Options of `openOverlay`. */
export interface OverlayOptions {
  /** The provider under the overlay; the agent never writes to it. */
  readonly lower: FileSystemProviderV1;
  /** The state file (created 0600), or `':memory:'`. */
  readonly state: string;
  /** The lower's host directory, when it has one: the state file is refused inside it. */
  readonly lowerRoot?: string;
  /**
   * `'agent'` (the default): the agent's server, which creates a missing state and records the
   * root it belongs to. `'person'`: a person's command, which refuses a missing state and a state
   * recorded for another root (docs/overlay.md, "The state").
   */
  readonly opener?: 'agent' | 'person';
}

/** An open overlay: the agent's provider and the person's operations. */
export interface Overlay {
  readonly provider: FileSystemProviderV1;
  changes(options?: ChangesOptions): Promise<ChangesResult>;
  diff(options?: DiffOptions): Promise<DiffResult>;
  apply(options?: ApplyOptions): Promise<ApplyResult>;
  undoApply(applyId: string): Promise<UndoApplyResult>;
  /** The newest apply `undoApply` can still take back, whoever made it (a command, a page); null if none. */
  lastApply(): Promise<LastApply | null>;
  discard(options?: DiscardOptions): Promise<DiscardResult>;
  history(): Promise<HistoryResult>;
  rewind(seq: number): Promise<RewindResult>;
  /**
   * Copies the changes into a new state file `to` over the same root (docs/overlay.md, "Forks"),
   * for a second agent or approach; the two then change, apply and discard on their own.
   */
  fork(to: string): Promise<ForkResult>;
  /** Closes the state; the provider fails with `provider_failure` afterwards. The lower is not closed. */
  close(): Promise<void>;
}
