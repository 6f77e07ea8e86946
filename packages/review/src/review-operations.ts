import type { Overlay } from '@libos/provider-overlay';

/**
 * What the page runs: the overlay's person-side operations, the very object the `libos changes`,
 * `apply`, `discard` and `undo-apply` commands run (with their audit records), never a second
 * implementation of them.
 */
export type ReviewOperations = Pick<Overlay, 'changes' | 'diff' | 'apply' | 'undoApply' | 'lastApply' | 'discard'>;

/** One call that touched a path, as the audit trail recorded it. */
export interface ReviewCall {
  readonly seq: number;
  readonly tool: string;
  readonly time: string;
  /** The MCP client's `name version`, when known. */
  readonly client: string | null;
  readonly ok: boolean;
}

/** Where the page finds the calls behind each change (`--audit`). */
export interface ReviewCalls {
  /** The calls that named each path, oldest first, at most `limit` per path (the latest ones). */
  callsFor(paths: readonly string[], limit: number): Promise<Readonly<Record<string, readonly ReviewCall[]>>>;
}
