import type { AuditDecision } from './audit-trail.js';
import type { WorkspacePath } from './workspace-path.js';

/** A right a grant gives over paths or a namespace. */
export type Right = 'read' | 'write' | 'delete';

/** How a matching grant answers: `deny` beats `ask`, `ask` beats `allow`. */
export type GrantMode = 'allow' | 'ask' | 'deny';

/** Sensitivity labels, in increasing order. */
export const LABELS = ['public', 'normal', 'confidential', 'secret'] as const;

/** A sensitivity label of a file or an Object. */
export type Label = (typeof LABELS)[number];

/** Tells whether label `a` is above label `b`. */
export function labelExceeds(a: Label, b: Label): boolean {
  return LABELS.indexOf(a) > LABELS.indexOf(b);
}

/** What the approver is shown for an `ask` grant; content fields are null except for writes. */
export interface ApprovalRequest {
  readonly tool: string;
  readonly right: Right;
  /**
   * The canonical path, escaped for display by `escapeForDisplay` (identical to the canonical path
   * for every name without controls, format characters or backslashes).
   */
  readonly path: string;
  readonly arguments_sha256: string;
  readonly content_bytes: number | null;
  readonly content_sha256: string | null;
  /**
   * The start of the content as lines (at most 256 characters and 16 lines, each line escaped for
   * display by `escapeForDisplay` on its own, so its line feeds are the content's; a last line
   * `\[the rest is not shown]` when anything is left out), or for an edit its whole change: the unified diff, one line per diff line, each line escaped,
   * long lines shown as a window around what changed.
   */
  readonly preview: string | null;
  /** The question as one sentence for a person: tool, right, quoted escaped path, and what a write would put there. */
  readonly message: string;
}

/** The approver's answer: `unavailable` (or no answer in time) becomes `approval_required`. */
export type ApprovalDecision = 'approve' | 'reject' | 'unavailable';

/** Asks a person whether one call may proceed; the signal aborts when the call is abandoned. */
export type Approver = (request: ApprovalRequest, context: { readonly signal?: AbortSignal }) => Promise<ApprovalDecision>;

/** Whether the operation treats its path as a file or as a directory (directories match only tree grants). */
export type TargetKind = 'file' | 'directory';

/** One authority question: may this tool use this right on this path now. */
export interface AccessRequest {
  readonly tool: string;
  readonly right: Right;
  readonly path: WorkspacePath;
  readonly target: TargetKind;
  /** Lowercase hex SHA-256 of the call's arguments JSON, shown to the approver. */
  readonly argumentsSha256: string;
  /** For writes: what would be written, for the approver. */
  readonly content?: ApprovalContent;
  /**
   * For a write whose bytes depend on the file (an edit): called only once the approver is about to
   * be asked, so a denial or an `allow` never probes early. Undefined means the call would write
   * nothing (the approver then sees no content fields).
   */
  readonly prepareContent?: () => Promise<ApprovalContent | undefined>;
  /**
   * For a delete: counts what it would remove, called only once the approver is about to be asked.
   * Undefined when there is nothing to count (the delete then fails on its own).
   */
  readonly prepareLoss?: () => Promise<DeletionLoss | undefined>;
  readonly signal?: AbortSignal;
  /** Told how the request was decided (the grant, the approval), for the call's audit record. */
  readonly onDecision?: (decision: AuditDecision) => void;
}

/** What a delete would remove, for the approver: counted up to a bound, `complete` false past it. */
export interface DeletionLoss {
  /** Entries that are not directories (files, and links, which are removed without being followed). */
  readonly files: number;
  /** The bytes of those files. */
  readonly bytes: number;
  /** Directories, the deleted one included. */
  readonly directories: number;
  /** False when counting stopped at its bound: the figures are then at least these. */
  readonly complete: boolean;
}

/** The bytes a write would land and, optionally, an edit's diff to show in their place as the preview. */
export interface ApprovalContent {
  readonly bytes: Uint8Array;
  /**
   * The lines of a unified diff (without their line feeds), shown instead of the bytes' own start.
   * A change too large to show whole is refused with `approval_required`, never shown in part.
   */
  readonly diffLines?: readonly string[];
  /** For a move: the bytes are the file at `from`, which would move to `to` (both canonical). */
  readonly move?: { readonly from: WorkspacePath; readonly to: WorkspacePath };
}

/** Permission for one call, granted before any probe. */
export interface Permit {
  /**
   * Spends the uses of the grants that allowed the call; the tools call it right before the first
   * provider call. Synchronous, so two racing calls cannot spend one use. Throws `denied` when the
   * uses ran out since `authorize`.
   */
  spend(): void;
  /**
   * Present when the uses were taken before the permit was made (a shared ledger in an Object store,
   * which cannot answer synchronously): gives them back unless `spend()` was called. The runtime
   * calls it once the call has ended, so a call refused between `authorize` and its probe spends nothing.
   */
  release?(): Promise<void>;
  /**
   * Whether this call, once authorized, may also use `right` on another path without asking again
   * and without spending more (a search reading below its root): true when the policy allows it
   * outright, or only through `ask` or limited grants that already decided this permit. Never asks,
   * never spends, never throws.
   */
  covers(right: Right, path: WorkspacePath, target: TargetKind): boolean;
  /**
   * Optional: true only when `covers(right, entry, target)` is true for every entry directly inside
   * `directory`, whatever its name and target, so a walk may ask once per directory instead of once
   * per entry. False says nothing: each entry is then asked with `covers`. Never asks, never spends.
   */
  coversEntriesOf?(right: Right, directory: WorkspacePath): boolean;
}

/**
 * Decides every call before the provider sees it. Denials name only the right and the canonical
 * path, and never depend on what exists.
 */
export interface Authority {
  /** Throws `denied`, `approval_required` or `approval_rejected`; asks the approver for `ask` grants. */
  authorize(request: AccessRequest): Promise<Permit>;
  /**
   * Checks a namespace right for a process whose own namespace is `ownNamespace`.
   * Throws `namespace_not_found` or `denied`.
   */
  authorizeNamespace(namespace: string, right: 'read' | 'write', ownNamespace: string): void;
  /** The label of a workspace file (longest matching rule; default `normal`). */
  labelOf(path: WorkspacePath): Label;
  /** The clearance of a write target (longest matching rule; default `normal`). */
  clearanceOf(path: WorkspacePath): Label;
  /** The `max_label` of the sinks rule that decides `path`, or null when no sinks rule matches it. */
  sinkOf(path: WorkspacePath): Label | null;
}
